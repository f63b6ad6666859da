// One shape for every LedgerCloseMeta version (v0, v1, v2) and TransactionMeta version (v1 to v4):
// the header, and each applied transaction with its envelope (matched by hash from the tx set),
// result, fee changes, per-operation changes and the changes before/after the operations.
import { createHash } from 'node:crypto';
import { xdr } from '@stellar/stellar-sdk/base';
import { asBuffer } from '../stellar/bytes.js';

/** XDR of the stored blobs, base64 */
export interface RawParts {
  envelopeXdr: string;
  resultXdr: string;
  resultMetaXdr: string;
  feeMetaXdr: string;
}

export interface LedgerTx {
  /** 1-based application order */
  index: number;
  hash: string;
  envelope: xdr.TransactionEnvelope;
  result: xdr.TransactionResultPair;
  feeChanges: xdr.LedgerEntryChange[];
  meta: xdr.TransactionMeta;
  /** v2 ledgers only: fee refunds applied after the transaction */
  postApplyFeeChanges: xdr.LedgerEntryChange[];
  /** changes of the transaction before its operations (sequence number, signers) */
  changesBefore: xdr.LedgerEntryChange[];
  /** per operation; empty lists for a failed transaction */
  operationChanges: xdr.LedgerEntryChange[][];
  changesAfter: xdr.LedgerEntryChange[];
  /** set when read from bytes (ledger_bytes.ts); otherwise the blobs are encoded again */
  raw?: RawParts;
  /** the account ids each operation's changes name, in order, when read from bytes by the scanner */
  operationAccounts?: string[][];
  /**
   * whether each operation's changes name a sponsor (an entry's or a signer's, before or after),
   * when read from bytes by the scanner (which knows only accounts, trust lines, offers and data):
   * false tells, without decoding them, that the changes give the operation no `sponsor` and no
   * sponsorship or liquidity pool effect
   */
  operationSponsored?: boolean[];
  /** forgets the decoded parts (read from bytes: they are decoded again if asked for) */
  release?(): void;
}

export interface LedgerView {
  sequence: number;
  hash: string;
  header: xdr.LedgerHeader;
  headerEntry: xdr.LedgerHeaderHistoryEntry;
  txs: LedgerTx[];
  upgradeChanges: xdr.LedgerEntryChange[];
  /** the network id the envelopes were matched under (the sha256 of the passphrase); a Stellar Asset Contract's id depends on it */
  networkId: Buffer;
}

export class MetaError extends Error {
  override name = 'MetaError';
}

/** The hash of an envelope under a network (v0 envelopes hash as v1, as stellar-core does). */
export function envelopeHash(envelope: xdr.TransactionEnvelope, network: Buffer): Buffer {
  const h = createHash('sha256').update(network);
  if (envelope.type === 'envelopeTypeTxFeeBump') {
    h.update(Buffer.from([0, 0, 0, 5])).update(envelope.feeBump.tx.toXdr());
  } else if (envelope.type === 'envelopeTypeTx') {
    h.update(Buffer.from([0, 0, 0, 2])).update(envelope.v1.tx.toXdr());
  } else {
    // TransactionV0's body is a Transaction whose source is a bare ed25519 key: the bytes of the
    // v1 form are the key-type prefix (0 = ed25519) followed by the v0 bytes.
    h.update(Buffer.from([0, 0, 0, 2, 0, 0, 0, 0])).update(envelope.v0.tx.toXdr());
  }
  return h.digest();
}

/** The hex of XDR bytes (a hash, a key) */
const hex = (bytes: Uint8Array): string => asBuffer(bytes).toString('hex');

function txSetEnvelopes(meta: xdr.LedgerCloseMeta): xdr.TransactionEnvelope[] {
  if (meta.type === 'v0') return meta.v0.txSet.txs;
  const set = meta.type === 'v1' ? meta.v1.txSet : meta.v2.txSet;
  const out: xdr.TransactionEnvelope[] = [];
  for (const phase of set.v1TxSet.phases) {
    if (phase.type === 'v0Components') {
      for (const component of phase.v0Components) out.push(...component.txsMaybeDiscountedFee.txs);
    } else {
      for (const stage of phase.parallelTxsComponent.executionStages) {
        for (const cluster of stage) out.push(...cluster);
      }
    }
  }
  return out;
}

export function splitMeta(meta: xdr.TransactionMeta): {
  before: xdr.LedgerEntryChange[];
  ops: xdr.LedgerEntryChange[][];
  after: xdr.LedgerEntryChange[];
} {
  switch (meta.type) {
    case 'operations':
      return { before: [], ops: meta.operations.map((o) => o.changes), after: [] };
    case 'v1':
      return { before: meta.v1.txChanges, ops: meta.v1.operations.map((o) => o.changes), after: [] };
    case 'v2': {
      const v = meta.v2;
      return { before: v.txChangesBefore, ops: v.operations.map((o) => o.changes), after: v.txChangesAfter };
    }
    case 'v3': {
      const v = meta.v3;
      return { before: v.txChangesBefore, ops: v.operations.map((o) => o.changes), after: v.txChangesAfter };
    }
    case 'v4': {
      const v = meta.v4;
      return { before: v.txChangesBefore, ops: v.operations.map((o) => o.changes), after: v.txChangesAfter };
    }
  }
}

/**
 * The contract events of an operation (stellar-go's TransactionMeta.GetContractEventsForOperation):
 * TransactionMeta v3 keeps the events of its only (Soroban) operation in `sorobanMeta`; v4 keeps
 * each operation's own. Earlier versions have none.
 */
export function operationContractEvents(meta: xdr.TransactionMeta, index: number): xdr.ContractEvent[] {
  switch (meta.type) {
    case 'v3':
      return meta.v3.sorobanMeta?.events ?? [];
    case 'v4':
      return meta.v4.operations[index]?.events ?? [];
    default:
      return [];
  }
}

type TxProcessing = xdr.TransactionResultMeta | xdr.TransactionResultMetaV1;

/**
 * Whether a ledger's meta belongs to the network whose id is `network`: the hash of the first
 * envelope of its transaction set under that network is one of its results' transaction hashes.
 * Null for a ledger without transactions, which tells nothing.
 */
export function metaMatchesNetwork(meta: xdr.LedgerCloseMeta, network: Buffer): boolean | null {
  const processing: TxProcessing[] = meta.value.txProcessing;
  const results = processing.map((p) => p.result.transactionHash.value);
  const [first] = txSetEnvelopes(meta);
  if (first === undefined || results.length === 0) return null;
  const hash = envelopeHash(first, network);
  return results.some((r) => hash.equals(r));
}

/** Normalizes a LedgerCloseMeta; every transaction must have its envelope in the tx set. */
export function viewLedger(meta: xdr.LedgerCloseMeta, network: Buffer): LedgerView {
  const body = meta.value;
  const headerEntry = body.ledgerHeader;
  const header = headerEntry.header;
  const sequence = header.ledgerSeq;
  const envelopes = new Map<string, xdr.TransactionEnvelope>();
  const processing: TxProcessing[] = body.txProcessing;
  if (processing.length > 0) {
    for (const envelope of txSetEnvelopes(meta)) envelopes.set(envelopeHash(envelope, network).toString('hex'), envelope);
  }
  const txs: LedgerTx[] = processing.map((p, i) => {
    const result = p.result;
    const hash = hex(result.transactionHash.value);
    const envelope = envelopes.get(hash);
    if (!envelope) {
      throw new MetaError(`ledger ${sequence}: transaction ${hash} has no envelope in the tx set (wrong network passphrase?)`);
    }
    const txMeta = p.txApplyProcessing;
    const parts = splitMeta(txMeta);
    return {
      index: i + 1,
      hash,
      envelope,
      result,
      feeChanges: p.feeProcessing,
      meta: txMeta,
      postApplyFeeChanges: p instanceof xdr.TransactionResultMetaV1 ? p.postTxApplyFeeProcessing : [],
      changesBefore: parts.before,
      operationChanges: parts.ops,
      changesAfter: parts.after,
    };
  });
  return {
    sequence,
    hash: hex(headerEntry.hash.value),
    header,
    headerEntry,
    txs,
    upgradeChanges: body.upgradesProcessing.flatMap((u) => u.changes),
    networkId: network,
  };
}

/** The ledger sequence of a LedgerCloseMeta of any version. */
export function metaSequence(meta: xdr.LedgerCloseMeta): number {
  return meta.value.ledgerHeader.header.ledgerSeq;
}
