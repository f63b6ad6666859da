// One shape for every LedgerCloseMeta version (v0, v1, v2) and TransactionMeta version (v1 to v4):
// the header, and each applied transaction with its envelope (matched by hash from the tx set),
// result, fee changes, per-operation changes and the changes before/after the operations.
import { createHash } from 'node:crypto';
import type { xdr } from '@stellar/stellar-sdk/base';

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
  const type = envelope.switch().name;
  const h = createHash('sha256').update(network);
  if (type === 'envelopeTypeTxFeeBump') {
    h.update(Buffer.from([0, 0, 0, 5])).update(envelope.feeBump().tx().toXDR());
  } else if (type === 'envelopeTypeTx') {
    h.update(Buffer.from([0, 0, 0, 2])).update(envelope.v1().tx().toXDR());
  } else {
    // TransactionV0's body is a Transaction whose source is a bare ed25519 key: the bytes of the
    // v1 form are the key-type prefix (0 = ed25519) followed by the v0 bytes.
    h.update(Buffer.from([0, 0, 0, 2, 0, 0, 0, 0])).update(envelope.v0().tx().toXDR());
  }
  return h.digest();
}

function txSetEnvelopes(meta: xdr.LedgerCloseMeta): xdr.TransactionEnvelope[] {
  if (meta.switch() === 0) return meta.v0().txSet().txes();
  const set = meta.switch() === 1 ? meta.v1().txSet() : meta.v2().txSet();
  const out: xdr.TransactionEnvelope[] = [];
  for (const phase of set.v1TxSet().phases()) {
    if (phase.switch() === 0) {
      for (const component of phase.v0Components()) out.push(...component.txsMaybeDiscountedFee().txes());
    } else {
      for (const stage of phase.parallelTxsComponent().executionStages()) {
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
  switch (meta.switch()) {
    case 0:
      return { before: [], ops: meta.operations().map((o) => o.changes()), after: [] };
    case 1:
      return {
        before: meta.v1().txChanges(),
        ops: meta
          .v1()
          .operations()
          .map((o) => o.changes()),
        after: [],
      };
    case 2: {
      const v = meta.v2();
      return { before: v.txChangesBefore(), ops: v.operations().map((o) => o.changes()), after: v.txChangesAfter() };
    }
    case 3: {
      const v = meta.v3();
      return { before: v.txChangesBefore(), ops: v.operations().map((o) => o.changes()), after: v.txChangesAfter() };
    }
    case 4: {
      const v = meta.v4();
      return { before: v.txChangesBefore(), ops: v.operations().map((o) => o.changes()), after: v.txChangesAfter() };
    }
    default:
      throw new MetaError(`unsupported TransactionMeta version ${meta.switch()}`);
  }
}

/**
 * The contract events of an operation (stellar-go's TransactionMeta.GetContractEventsForOperation):
 * TransactionMeta v3 keeps the events of its only (Soroban) operation in `sorobanMeta`; v4 keeps
 * each operation's own. Earlier versions have none.
 */
export function operationContractEvents(meta: xdr.TransactionMeta, index: number): xdr.ContractEvent[] {
  switch (meta.switch()) {
    case 3:
      return meta.v3().sorobanMeta()?.events() ?? [];
    case 4:
      return meta.v4().operations()[index]?.events() ?? [];
    default:
      return [];
  }
}

/**
 * Whether a ledger's meta belongs to the network whose id is `network`: the hash of the first
 * envelope of its transaction set under that network is one of its results' transaction hashes.
 * Null for a ledger without transactions, which tells nothing.
 */
export function metaMatchesNetwork(meta: xdr.LedgerCloseMeta, network: Buffer): boolean | null {
  const version = meta.switch();
  const body = version === 0 ? meta.v0() : version === 1 ? meta.v1() : meta.v2();
  const results = body.txProcessing().map((p: xdr.TransactionResultMeta | xdr.TransactionResultMetaV1) => p.result().transactionHash());
  const [first] = txSetEnvelopes(meta);
  if (first === undefined || results.length === 0) return null;
  const hash = envelopeHash(first, network);
  return results.some((r) => hash.equals(r));
}

/** Normalizes a LedgerCloseMeta; every transaction must have its envelope in the tx set. */
export function viewLedger(meta: xdr.LedgerCloseMeta, network: Buffer): LedgerView {
  const version = meta.switch();
  if (version !== 0 && version !== 1 && version !== 2) {
    throw new MetaError(`unsupported LedgerCloseMeta version ${String(version)}`);
  }
  const body = version === 0 ? meta.v0() : version === 1 ? meta.v1() : meta.v2();
  const headerEntry = body.ledgerHeader();
  const header = headerEntry.header();
  const sequence = header.ledgerSeq();
  const envelopes = new Map<string, xdr.TransactionEnvelope>();
  const processing = body.txProcessing();
  if (processing.length > 0) {
    for (const envelope of txSetEnvelopes(meta)) envelopes.set(envelopeHash(envelope, network).toString('hex'), envelope);
  }
  const txs: LedgerTx[] = processing.map((p: xdr.TransactionResultMeta | xdr.TransactionResultMetaV1, i) => {
    const result = p.result();
    const hash = result.transactionHash().toString('hex');
    const envelope = envelopes.get(hash);
    if (!envelope) {
      throw new MetaError(`ledger ${sequence}: transaction ${hash} has no envelope in the tx set (wrong network passphrase?)`);
    }
    const txMeta = p.txApplyProcessing();
    const parts = splitMeta(txMeta);
    return {
      index: i + 1,
      hash,
      envelope,
      result,
      feeChanges: p.feeProcessing(),
      meta: txMeta,
      postApplyFeeChanges: 'postTxApplyFeeProcessing' in p ? p.postTxApplyFeeProcessing() : [],
      changesBefore: parts.before,
      operationChanges: parts.ops,
      changesAfter: parts.after,
    };
  });
  return {
    sequence,
    hash: headerEntry.hash().toString('hex'),
    header,
    headerEntry,
    txs,
    upgradeChanges: body.upgradesProcessing().flatMap((u) => u.changes()),
    networkId: network,
  };
}

/** The ledger sequence of a LedgerCloseMeta of any version. */
export function metaSequence(meta: xdr.LedgerCloseMeta): number {
  const v = meta.switch();
  const body = v === 0 ? meta.v0() : v === 1 ? meta.v1() : meta.v2();
  return body.ledgerHeader().header().ledgerSeq();
}
