// Stellar Asset Contract events (Horizon's internal/ingest/contractevents): a contract event is a
// SAC's transfer, mint, clawback or burn when its topics name the event and, last, the asset
// (SEP-11 "CODE:ISSUER" or "native"), and the emitting contract is that asset's contract on the
// network. TransactionMeta v3 events carry an admin in mint and clawback topics and an i128
// amount; v4 (CAP-67) events drop the admin, and a map {amount, to_muxed_id} replaces the amount
// when the destination was muxed.
import { createHash } from 'node:crypto';
import { Address, xdr } from '@stellar/stellar-base';
import { type AssetValue, assetToXdr, parseCanonicalAsset } from './asset.js';

export type SacEventType = 'transfer' | 'mint' | 'clawback' | 'burn';

export interface SacEvent {
  type: SacEventType;
  asset: AssetValue;
  /** strkey (G..., C..., M...) for transfer, burn, clawback */
  from: string | null;
  /** strkey for transfer, mint */
  to: string | null;
  /** i128 stroops */
  amount: bigint;
  /** v4: the `to_muxed_id` of the event's data map */
  destinationMuxedId: bigint | null;
}

const TYPES = new Set<string>(['transfer', 'mint', 'clawback', 'burn']);

/** The id of an asset's Stellar Asset Contract on a network (network id = sha256 of its passphrase). */
export function assetContractId(asset: AssetValue, network: Buffer): Buffer {
  const preimage = xdr.HashIdPreimage.envelopeTypeContractId(
    new xdr.HashIdPreimageContractId({
      networkId: network,
      contractIdPreimage: xdr.ContractIdPreimage.contractIdPreimageFromAsset(assetToXdr(asset)),
    }),
  );
  return createHash('sha256').update(preimage.toXDR()).digest();
}

/** An ScAddress as a strkey (G, M, C, B or L), as stellar-go's ScAddress.String. */
export function scAddressString(address: xdr.ScAddress): string {
  return Address.fromScAddress(address).toString();
}

function text(value: Buffer | string): string {
  return typeof value === 'string' ? value : value.toString('utf8');
}

function i128(value: xdr.ScVal): bigint | null {
  if (value.switch().name !== 'scvI128') return null;
  const parts = value.i128();
  return (BigInt(parts.hi().toString()) << 64n) + BigInt(parts.lo().toString());
}

function address(topic: xdr.ScVal | undefined): string {
  if (topic?.switch().name !== 'scvAddress') throw new Error('topic is not an address');
  return scAddressString(topic.address());
}

/** v4 data as a map: exactly `amount` (i128) and `to_muxed_id` (u64), else the event is not a SAC's */
function amountAndMuxedId(entries: xdr.ScMapEntry[]): { amount: bigint; muxedId: bigint } {
  if (entries.length !== 2) throw new Error('expected 2 entries');
  let amount: bigint | null = null;
  let muxedId: bigint | null = null;
  for (const entry of entries) {
    if (entry.key().switch().name !== 'scvSymbol') throw new Error('key is not a symbol');
    const key = text(entry.key().sym());
    if (key === 'amount') {
      amount = i128(entry.val());
      if (amount === null) throw new Error('amount is not i128');
    } else if (key === 'to_muxed_id') {
      if (entry.val().switch().name !== 'scvU64') throw new Error('to_muxed_id is not u64');
      muxedId = BigInt(entry.val().u64().toString());
    }
  }
  if (amount === null || muxedId === null) throw new Error('amount or to_muxed_id missing');
  return { amount, muxedId };
}

/**
 * The SAC event an emitted contract event is, or null (Horizon's NewStellarAssetContractEvent
 * returning an error): only TransactionMeta v3 and v4 events are read.
 */
export function stellarAssetContractEvent(event: xdr.ContractEvent, metaVersion: number, network: Buffer): SacEvent | null {
  if (metaVersion !== 3 && metaVersion !== 4) return null;
  const contractId = event.contractId();
  if (event.type().name !== 'contract' || !contractId || event.body().switch() !== 0) return null;
  const body = event.body().v0();
  const topics = body.topics();
  if (topics.length < 3) return null;
  const first = topics[0]!;
  if (first.switch().name !== 'scvSymbol') return null;
  const type = text(first.sym());
  if (!TYPES.has(type)) return null;
  const last = topics[topics.length - 1]!;
  if (last.switch().name !== 'scvString') return null;
  const assetText = text(last.str());
  if (assetText === '') return null;
  try {
    const asset = parseCanonicalAsset(assetText);
    // a ContractId is a 32-byte Hash: a Buffer once decoded
    if (!assetContractId(asset, network).equals(contractId as unknown as Buffer)) return null;
    const data = body.data();
    let amount: bigint | null;
    let destinationMuxedId: bigint | null = null;
    if (metaVersion === 4 && data.switch().name === 'scvMap') {
      const parsed = amountAndMuxedId(data.map() ?? []);
      amount = parsed.amount;
      destinationMuxedId = parsed.muxedId;
    } else {
      amount = i128(data);
    }
    if (amount === null) return null;
    const sac: SacEvent = { type: type as SacEventType, asset, from: null, to: null, amount, destinationMuxedId };
    // v3: ["mint", admin, to, asset], ["clawback", admin, from, asset]; v4 drops the admin
    const admin = metaVersion === 3 && (type === 'mint' || type === 'clawback') ? 1 : 0;
    const expected = type === 'transfer' ? 4 : type === 'burn' ? 3 : 3 + admin;
    if (topics.length !== expected) return null;
    if (admin) address(topics[1]);
    if (type === 'transfer') {
      sac.from = address(topics[1]);
      sac.to = address(topics[2]);
    } else if (type === 'mint') {
      sac.to = address(topics[1 + admin]);
    } else {
      sac.from = address(topics[1 + admin]);
    }
    return sac;
  } catch {
    return null;
  }
}
