// The history_transactions row of an applied transaction (successful or failed, fee bumps too).
import { xdr } from '@stellar/stellar-sdk/base';
import { envelopeParts, type EnvelopeParts, type LedgerTx } from '../../meta/index.js';
import { INT64_MAX } from '../../stellar/index.js';
import type { TransactionRow } from '../rows.js';
import { signerKeyAddress } from './details.js';

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

const SUCCESS = new Set(['txSuccess', 'txFeeBumpInnerSuccess']);

export function isSuccessful(result: xdr.TransactionResultPair): boolean {
  return SUCCESS.has(result.result.result.type);
}

/** The operation results of a transaction (those of the inner one for a fee bump), if any. */
export function operationResults(result: xdr.TransactionResultPair): xdr.OperationResult[] {
  const r = result.result.result;
  if (r.type === 'txFeeBumpInnerSuccess' || r.type === 'txFeeBumpInnerFailed') {
    const inner = r.innerResultPair.result.result;
    return inner.type === 'txSuccess' || inner.type === 'txFailed' ? inner.results : [];
  }
  return r.type === 'txSuccess' || r.type === 'txFailed' ? r.results : [];
}

/** LedgerEntryChanges (an XDR array) as base64 */
export function changesXdr(changes: xdr.LedgerEntryChange[]): string {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(changes.length, 0);
  return Buffer.concat([count, ...changes.map((c) => c.toXdr())]).toString('base64');
}

/** the length of the UTF-8 sequence at `i`, or 0 where Go's utf8.DecodeRune sees an invalid one */
function utf8SequenceLength(bytes: Buffer, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  const cont = (at: number, low = 0x80, high = 0xbf) => at < bytes.length && bytes[at]! >= low && bytes[at]! <= high;
  if (b >= 0xc2 && b <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    const [low, high] = b === 0xe0 ? [0xa0, 0xbf] : b === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(i + 1, low, high) && cont(i + 2) ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const [low, high] = b === 0xf0 ? [0x90, 0xbf] : b === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(i + 1, low, high) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

/**
 * A text memo as Horizon stores it: its bytes read as UTF-8, each byte of an invalid sequence
 * replaced by U+FFFD (Horizon's utf8.Scrub, over Go's DecodeRune), NULs removed (PostgreSQL text
 * holds none).
 */
export function memoText(bytes: Buffer): string {
  let text = '';
  for (let i = 0; i < bytes.length; ) {
    const length = utf8SequenceLength(bytes, i);
    text += length === 0 ? '\uFFFD' : bytes.toString('utf8', i, i + length);
    i += length || 1;
  }
  return text.replaceAll('\u0000', '');
}

function memo(m: xdr.Memo): { type: string; value: string | null; bytes?: string } {
  switch (m.type) {
    case 'memoText': {
      const bytes = Buffer.from(m.text.bytes);
      return { type: 'text', value: memoText(bytes), bytes: bytes.toString('base64') };
    }
    case 'memoId':
      return { type: 'id', value: m.id.toString() };
    case 'memoHash':
      return { type: 'hash', value: Buffer.from(m.hash.value).toString('base64') };
    case 'memoReturn':
      return { type: 'return', value: Buffer.from(m.retHash.value).toString('base64') };
    default:
      return { type: 'none', value: null };
  }
}

/** The envelope's parts with a fee bump's inner hash (from the result). */
export function transactionParts(tx: LedgerTx): EnvelopeParts {
  let innerHash: Buffer | undefined;
  if (tx.envelope.type === 'envelopeTypeTxFeeBump') {
    const result = tx.result.result.result;
    const pair =
      result.type === 'txFeeBumpInnerFailed'
        ? result.innerResultPair
        : xdr.expectUnionVariant(result, 'txFeeBumpInnerSuccess').innerResultPair;
    innerHash = Buffer.from(pair.transactionHash.value);
  }
  return envelopeParts(tx.envelope, innerHash);
}

/** `parts`: the envelope's parts when the caller already has them (transactionParts) */
export function transactionRow(
  tx: LedgerTx,
  id: bigint,
  ledgerSequence: number,
  closedAt: string,
  parts: EnvelopeParts = transactionParts(tx),
): TransactionRow {
  const outer = tx.result.result;
  const m = memo(parts.memo);
  const bounds = parts.timeBounds;
  // a time bound is a uint64: Horizon caps it at the int64 maximum
  const maxTime = bounds ? min(bounds.maxTime, INT64_MAX) : null;
  const fb = parts.feeBump;
  const raw = tx.raw;
  return {
    id,
    hash: tx.hash,
    ledger_sequence: ledgerSequence,
    application_order: tx.index,
    closed_at: closedAt,
    successful: isSuccessful(tx.result),
    account: parts.source.accountId,
    account_muxed: parts.source.muxedAddress,
    account_sequence: parts.sequence,
    max_fee: parts.fee,
    fee_charged: outer.feeCharged,
    operation_count: parts.operations.length,
    memo_type: m.type,
    memo: m.value,
    memo_bytes: m.bytes ?? null,
    signatures: fb ? fb.signatures : parts.signatures,
    valid_after: bounds ? min(bounds.minTime, INT64_MAX) : null,
    valid_before: maxTime === null || maxTime === 0n ? null : maxTime,
    min_ledger: parts.ledgerBounds ? parts.ledgerBounds.minLedger : null,
    max_ledger: parts.ledgerBounds && parts.ledgerBounds.maxLedger !== 0 ? parts.ledgerBounds.maxLedger : null,
    min_account_sequence: parts.minSeqNum,
    min_account_sequence_age: parts.minSeqAge,
    min_account_sequence_ledger_gap: parts.minSeqLedgerGap,
    extra_signers: parts.extraSigners.map(signerKeyAddress),
    fee_account: fb ? fb.feeSource.accountId : null,
    fee_account_muxed: fb ? fb.feeSource.muxedAddress : null,
    new_max_fee: fb ? fb.fee : null,
    inner_transaction_hash: fb ? Buffer.from(fb.innerHash).toString('hex') : null,
    inner_signatures: fb ? parts.signatures : [],
    envelope_xdr: raw?.envelopeXdr ?? tx.envelope.toXdr('base64'),
    result_xdr: raw?.resultXdr ?? outer.toXdr('base64'),
    result_meta_xdr: raw?.resultMetaXdr ?? tx.meta.toXdr('base64'),
    fee_meta_xdr: raw?.feeMetaXdr ?? changesXdr(tx.feeChanges),
  };
}
