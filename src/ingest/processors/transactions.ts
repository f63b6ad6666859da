// The history_transactions row of an applied transaction (successful or failed, fee bumps too).
import type { xdr } from '@stellar/stellar-base';
import { envelopeParts, type EnvelopeParts, type LedgerTx } from '../../meta/index.js';
import type { TransactionRow } from '../rows.js';
import { signerKeyAddress } from './details.js';

const SUCCESS = new Set(['txSuccess', 'txFeeBumpInnerSuccess']);

export function isSuccessful(result: xdr.TransactionResultPair): boolean {
  return SUCCESS.has(result.result().result().switch().name);
}

/** The operation results of a transaction (those of the inner one for a fee bump), if any. */
export function operationResults(result: xdr.TransactionResultPair): xdr.OperationResult[] {
  const r = result.result().result();
  const arm = r.switch().name;
  if (arm === 'txFeeBumpInnerSuccess' || arm === 'txFeeBumpInnerFailed') {
    const inner = r.innerResultPair().result().result();
    const innerArm = inner.switch().name;
    return innerArm === 'txSuccess' || innerArm === 'txFailed' ? inner.results() : [];
  }
  return arm === 'txSuccess' || arm === 'txFailed' ? r.results() : [];
}

/** LedgerEntryChanges (an XDR array) as base64 */
export function changesXdr(changes: xdr.LedgerEntryChange[]): string {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(changes.length, 0);
  return Buffer.concat([count, ...changes.map((c) => c.toXDR())]).toString('base64');
}

function memo(m: xdr.Memo): { type: string; value: string | null } {
  switch (m.switch().name) {
    case 'memoText': {
      const text = m.text();
      return { type: 'text', value: typeof text === 'string' ? text : Buffer.from(text).toString('utf8') };
    }
    case 'memoId':
      return { type: 'id', value: m.id().toString() };
    case 'memoHash':
      return { type: 'hash', value: m.hash().toString('base64') };
    case 'memoReturn':
      return { type: 'return', value: m.retHash().toString('base64') };
    default:
      return { type: 'none', value: null };
  }
}

/** The envelope's parts with a fee bump's inner hash (from the result). */
export function transactionParts(tx: LedgerTx): EnvelopeParts {
  const innerHash =
    tx.envelope.switch().name === 'envelopeTypeTxFeeBump' ? tx.result.result().result().innerResultPair().transactionHash() : undefined;
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
  const outer = tx.result.result();
  const m = memo(parts.memo);
  const bounds = parts.timeBounds;
  const maxTime = bounds ? BigInt(bounds.maxTime().toString()) : null;
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
    fee_charged: BigInt(outer.feeCharged().toString()),
    operation_count: parts.operations.length,
    memo_type: m.type,
    memo: m.value,
    signatures: fb ? fb.signatures : parts.signatures,
    valid_after: bounds ? BigInt(bounds.minTime().toString()) : null,
    valid_before: maxTime === null || maxTime === 0n ? null : maxTime,
    min_ledger: parts.ledgerBounds ? parts.ledgerBounds.minLedger() : null,
    max_ledger: parts.ledgerBounds && parts.ledgerBounds.maxLedger() !== 0 ? parts.ledgerBounds.maxLedger() : null,
    min_account_sequence: parts.minSeqNum,
    min_account_sequence_age: parts.minSeqAge,
    min_account_sequence_ledger_gap: parts.minSeqLedgerGap,
    extra_signers: parts.extraSigners.map(signerKeyAddress),
    fee_account: fb ? fb.feeSource.accountId : null,
    fee_account_muxed: fb ? fb.feeSource.muxedAddress : null,
    new_max_fee: fb ? fb.fee : null,
    inner_transaction_hash: fb ? fb.innerHash.toString('hex') : null,
    inner_signatures: fb ? parts.signatures : [],
    envelope_xdr: raw?.envelopeXdr ?? tx.envelope.toXDR('base64'),
    result_xdr: raw?.resultXdr ?? outer.toXDR('base64'),
    result_meta_xdr: raw?.resultMetaXdr ?? tx.meta.toXDR('base64'),
    fee_meta_xdr: raw?.feeMetaXdr ?? changesXdr(tx.feeChanges),
  };
}
