// Stellar Asset Contract events as stellar-horizon's contractevents.GenerateEvent (generate.go)
// builds them for its tests: topics [type, addresses…, SEP-11 asset], i128 amount (or a v4 map with
// `to_muxed_id`), and the asset's contract id on the network.
import { Address, StrKey, xdr } from '@stellar/stellar-sdk/base';
import { assetContractId, assetFromXdr, formatCanonicalAsset, networkId } from '../../src/stellar/index.js';

export const symbol = (sym: string): xdr.ScVal => xdr.ScVal.scvSymbol(sym);

export const address = (strkey: string): xdr.ScVal => new Address(strkey).toScVal();

export const assetTopic = (asset: xdr.Asset): xdr.ScVal => xdr.ScVal.scvString(formatCanonicalAsset(assetFromXdr(asset)));

export function bigAmount(amount: bigint): xdr.ScVal {
  return xdr.ScVal.scvI128(
    new xdr.Int128Parts({
      hi: BigInt.asIntN(64, amount >> 64n),
      lo: BigInt.asUintN(64, amount),
    }),
  );
}

/** makeV4MapData: {amount, to_muxed_id} with `muxedId` as the ScVal Horizon's memo maps to */
export function v4MapData(amount: bigint, muxedId: xdr.ScVal): xdr.ScVal {
  return xdr.ScVal.scvMap([
    new xdr.ScMapEntry({ key: symbol('amount'), val: bigAmount(amount) }),
    new xdr.ScMapEntry({ key: symbol('to_muxed_id'), val: muxedId }),
  ]);
}

export const contractId = (asset: xdr.Asset, passphrase: string): Buffer => assetContractId(assetFromXdr(asset), networkId(passphrase));

export function contractEvent(id: Uint8Array, topics: xdr.ScVal[], data: xdr.ScVal): xdr.ContractEvent {
  return new xdr.ContractEvent({
    ext: xdr.ExtensionPoint.v0(),
    contractId: new xdr.ContractId(id),
    type: xdr.ContractEventType.contract,
    body: xdr.ContractEventBody.v0(new xdr.ContractEventV0({ topics, data })),
  });
}

export type SacEventName = 'transfer' | 'mint' | 'clawback' | 'burn';

/** GenerateEvent's topics, in the v3 form (mint and clawback name the admin); `asset`: the SEP-11 topic */
export function sacTopics(type: SacEventName, from: string, to: string, admin: string, asset: xdr.ScVal): xdr.ScVal[] {
  return {
    transfer: () => [symbol('transfer'), address(from), address(to), asset],
    mint: () => [symbol('mint'), address(admin), address(to), asset],
    clawback: () => [symbol('clawback'), address(admin), address(from), asset],
    burn: () => [symbol('burn'), address(from), asset],
  }[type]();
}

/** GenerateEvent: the v3 form (mint and clawback name the admin) */
export function generateEvent(
  type: SacEventName,
  from: string,
  to: string,
  admin: string,
  asset: xdr.Asset,
  amount: bigint,
  passphrase: string,
): xdr.ContractEvent {
  return contractEvent(contractId(asset, passphrase), sacTopics(type, from, to, admin, assetTopic(asset)), bigAmount(amount));
}

export const contractAddress = (hash: Uint8Array): string => StrKey.encodeContract(hash);
