// The Stellar Asset Contract (SAC): an asset's contract id on a network, and the SAC's events read
// as stellar-horizon's contractevents package does: a contract event is a SAC's transfer, mint,
// clawback or burn when its topics name the event and, last, the asset (SEP-11 "CODE:ISSUER" or
// "native"), and the emitting contract is that asset's contract on the network. TransactionMeta v3
// events carry an admin in mint and clawback topics; v4 (CAP-67) events drop it, and a map
// {amount, to_muxed_id} replaces the i128 amount when the destination was muxed.
import { createHash } from 'node:crypto';
import { Address, xdr } from '@stellar/stellar-sdk/base';
import { isAccountId } from './account_id.js';
import { type AssetValue, assetToXdr, creditAsset, NATIVE_ASSET } from './asset.js';

/**
 * The id of an asset's Stellar Asset Contract on a network (`networkId`: the sha256 of its
 * passphrase), as stellar-go's Asset.ContractID: the hash of a contract-id preimage from the asset.
 */
export function assetContractId(asset: AssetValue, networkId: Uint8Array): Buffer {
  const preimage = xdr.HashIdPreimage.envelopeTypeContractId(
    new xdr.HashIdPreimageContractId({
      networkId,
      contractIdPreimage: xdr.ContractIdPreimage.contractIdPreimageFromAsset(assetToXdr(asset)),
    }),
  );
  return createHash('sha256').update(preimage.toXdr()).digest();
}

/** An ScAddress as a strkey (G, M, C, B or L), as stellar-go's ScAddress.String. */
export function scAddressString(address: xdr.ScAddress): string {
  return Address.fromScAddress(address).toString();
}

export type SacEventType = 'transfer' | 'mint' | 'clawback' | 'burn';

export interface SacEvent {
  type: SacEventType;
  asset: AssetValue;
  /** the address debited (transfer, clawback, burn): G..., C..., or another strkey */
  from: string | null;
  /** the address credited (transfer, mint) */
  to: string | null;
  /** stroops, an int128 */
  amount: bigint;
  /** the `to_muxed_id` of a v4 event's data map */
  toMuxedId: bigint | null;
}

const TYPES = new Set<string>(['transfer', 'mint', 'clawback', 'burn']);

class NotSac extends Error {}

/** An XDR string's bytes as UTF-8 (invalid sequences replaced, as Go's string conversion prints them). */
function text(value: xdr.XdrString): string {
  return Buffer.from(value.bytes).toString('utf8');
}

function address(topic: xdr.ScVal | undefined): string {
  if (topic?.type !== 'scvAddress') throw new NotSac();
  try {
    return scAddressString(topic.address);
  } catch {
    throw new NotSac();
  }
}

function i128(value: xdr.ScVal): bigint {
  if (value.type !== 'scvI128') throw new NotSac();
  const parts = value.i128;
  return (BigInt.asIntN(64, parts.hi) << 64n) + BigInt.asUintN(64, parts.lo);
}

/** Horizon's xdr.BuildAssets for one asset: "native" or CODE:ISSUER. */
function sep11Asset(value: string): AssetValue {
  if (value === 'native') return NATIVE_ASSET;
  const parts = value.split(':');
  if (parts.length !== 2 || !isAccountId(parts[1]!)) throw new NotSac();
  try {
    return creditAsset(parts[0]!, parts[1]!);
  } catch {
    throw new NotSac();
  }
}

/** v4 data: a map of exactly `amount` (i128) and `to_muxed_id` (u64) */
function amountMap(entries: xdr.ScMapEntry[] | null): { amount: bigint; toMuxedId: bigint } {
  if (entries?.length !== 2) throw new NotSac();
  let amount: bigint | null = null;
  let toMuxedId: bigint | null = null;
  for (const entry of entries) {
    const { key: keyVal, val } = entry;
    if (keyVal.type !== 'scvSymbol') throw new NotSac();
    const key = text(keyVal.sym);
    if (key === 'amount') amount = i128(val);
    else if (key === 'to_muxed_id') {
      if (val.type !== 'scvU64') throw new NotSac();
      toMuxedId = val.u64;
    }
  }
  if (amount === null || toMuxedId === null) throw new NotSac();
  return { amount, toMuxedId };
}

function parse(event: xdr.ContractEvent, metaVersion: number, networkId: Uint8Array): SacEvent {
  if (metaVersion !== 3 && metaVersion !== 4) throw new NotSac();
  const contractId = event.contractId;
  if (event.type.name !== 'contract' || !contractId || event.body.type !== 'v0') throw new NotSac();
  const body = event.body.v0;
  const topics = body.topics;
  const first = topics[0];
  if (topics.length < 3 || first?.type !== 'scvSymbol') throw new NotSac();
  const type = text(first.sym);
  if (!TYPES.has(type)) throw new NotSac();
  const last = topics[topics.length - 1];
  if (last?.type !== 'scvString') throw new NotSac();
  const assetText = text(last.str);
  if (assetText === '') throw new NotSac();
  const asset = sep11Asset(assetText);
  // a ContractId holds its bytes in `value` (a Uint8Array)
  if (!assetContractId(asset, networkId).equals(contractId.value)) throw new NotSac();

  const data = body.data;
  let amount: bigint;
  let toMuxedId: bigint | null = null;
  if (metaVersion === 4 && data.type === 'scvMap') ({ amount, toMuxedId } = amountMap(data.map));
  else amount = i128(data);

  const event_: SacEvent = { type: type as SacEventType, asset, from: null, to: null, amount, toMuxedId };
  // v3 mint and clawback events name the admin first; v4 (CAP-67) ones do not
  const admin = metaVersion === 3 && (type === 'mint' || type === 'clawback') ? 1 : 0;
  const expected = type === 'transfer' ? 4 : 3 + admin;
  if (topics.length !== expected) throw new NotSac();
  if (admin) address(topics[1]);
  if (type === 'transfer') {
    event_.from = address(topics[1]);
    event_.to = address(topics[2]);
  } else if (type === 'mint') {
    event_.to = address(topics[1 + admin]);
  } else {
    event_.from = address(topics[1 + admin]);
  }
  return event_;
}

/**
 * The event as a SAC event, or null when it is not one (another contract's, another type, or a
 * shape a SAC does not emit). `metaVersion` is the TransactionMeta's version (3 or 4: their mint
 * and clawback topics differ); `networkId` is the sha256 of the network passphrase.
 */
export function parseSacEvent(event: xdr.ContractEvent, metaVersion: number, networkId: Uint8Array): SacEvent | null {
  try {
    return parse(event, metaVersion, networkId);
  } catch (error) {
    if (error instanceof NotSac) return null;
    throw error;
  }
}
