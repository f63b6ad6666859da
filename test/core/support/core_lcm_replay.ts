// Replays a stellar-core test case's golden ledger meta (test/fixtures/stellar-core-lcm/, recorded at
// protocol 26/27) on an in-memory core (protocol 22) and lists every difference per transaction:
// result, fee, operation results and ledger-entry changes. Both sides go through viewLedger, which
// reads LedgerCloseMeta v1/v2 and TransactionMeta v3/v4 alike: the v4 wrapper (and LedgerCloseMeta
// v2's TransactionResultMetaV1) hold the same change lists as v3 at these protocols. Not compared:
// v4's events (classic operations emit them from protocol 23, CAP-67; this core emits none), ledger
// hashes and the protocol version (this core stays at 22).
import { createHash } from 'node:crypto';
import { xdr } from '@stellar/stellar-sdk/base';
import { PROTOCOL_VERSION, createCore } from '../../../src/core/index.js';
import { SOROBAN_OPERATIONS, operationDef } from '../../../src/core/operations/registry.js';
import { envelopeParts } from '../../../src/meta/envelope.js';
import { ledgerKeyOf } from '../../../src/meta/changes.js';
import { viewLedger } from '../../../src/meta/ledger_view.js';
import type { LedgerTx, LedgerView } from '../../../src/meta/ledger_view.js';
import { networkId } from '../../../src/stellar/index.js';
import { caseLedgers, coreLcmManifest } from '../../support/stellar_core_lcm.js';
import type { CoreLcmCase } from '../../support/stellar_core_lcm.js';

/** The suites of classic operations (the fixture's other suites are Soroban's or CAP-77's frozen keys). */
export const CLASSIC_SUITES = [
  'BeginSponsoringFutureReservesTests',
  'MergeTests',
  'OfferTests',
  'PathPaymentTests',
  'TxEnvelopeTests',
  'TxResultsTests',
];

export interface CaseReplay {
  /** one line per difference: where (ledger, tx, op, field), ours and theirs */
  mismatches: string[];
  /** the operation types of the case's transactions that the core does not support */
  unsupportedOps: string[];
  /** whether the first difference is a transaction the core refused with opNOT_SUPPORTED for an operation stellar-core applied */
  firstAtNotSupported: boolean;
}

export interface CaseLedgers {
  /** the ledgers of the case's classic prefix */
  views: LedgerView[];
  /** every operation type of the prefix's transactions */
  opTypes: Set<string>;
  /** whether the prefix is the whole case */
  whole: boolean;
  /** sha256 of the prefix's LedgerCloseMeta bytes: cases that share their setup share it */
  digest: string;
}

const NETWORK_ID = networkId(coreLcmManifest.networkPassphrase);

/**
 * Whether a ledger can be replayed on this core: recorded at protocol 22 or later (an older one
 * has other semantics, e.g. the sequence number consumed with the fee before protocol 10), no
 * upgrade but the protocol version's (a config upgrade sets Soroban settings or CAP-77 frozen
 * keys), and no Soroban operation.
 */
function replayable(meta: xdr.LedgerCloseMeta, view: LedgerView, ops: string[]): boolean {
  if (view.header.ledgerVersion < PROTOCOL_VERSION) return false;
  if (meta.value.upgradesProcessing.some((u) => u.upgrade.type !== 'ledgerUpgradeVersion')) return false;
  return !ops.some((t) => SOROBAN_OPERATIONS.has(t));
}

/** A case's classic prefix: its ledgers up to the first one this core cannot replay (decoded no further). */
export async function loadCase(c: CoreLcmCase): Promise<CaseLedgers> {
  const frames = await caseLedgers(c);
  const out: CaseLedgers = { views: [], opTypes: new Set(), whole: true, digest: '' };
  const digest = createHash('sha256');
  for (const bytes of frames) {
    const meta = xdr.LedgerCloseMeta.fromXdr(bytes);
    const view = viewLedger(meta, NETWORK_ID);
    const ops = view.txs.flatMap((tx) => envelopeParts(tx.envelope).operations.map((op) => op.body.type));
    if (!replayable(meta, view, ops)) {
      out.whole = false;
      break;
    }
    out.views.push(view);
    for (const t of ops) out.opTypes.add(t);
    digest.update(bytes);
  }
  out.digest = digest.digest('hex');
  return out;
}

/**
 * Classic operation types the core has no implementation of yet (answered opNOT_SUPPORTED). An
 * operation the protocol itself no longer supports (inflation: `supported: false`, as in
 * stellar-core) is implemented, and Soroban's are outside this core.
 */
export const unsupportedOps = (opTypes: Iterable<string>): string[] =>
  [...opTypes].filter((t) => operationDef(t) === undefined && !SOROBAN_OPERATIONS.has(t)).sort();

/**
 * stellar-core's test ledgers often repeat a close time (closeLedger in src/test/TxTests.cpp closes
 * on the last ledger's close time), while this core requires each close time to exceed the previous
 * one (as stellar-core's manual close does: ApplicationImpl::setManualCloseVirtualTime takes at least
the last close time + 1): a repeated close time is
 * replayed as the previous one + 1. The only trace of a close time in entries is an account's
 * seqTime (AccountEntryExtensionV3, set from the close time whenever the sequence number is
 * consumed, protocol 19+), so ours is mapped back to the recorded close time of its seqLedger.
 */
function restoreSeqTime(change: xdr.LedgerEntryChange, closeTimes: Map<number, { ours: bigint; theirs: bigint }>): void {
  if (change.type === 'ledgerEntryRemoved') return;
  const entry = change.value;
  if (entry.data.type !== 'account') return;
  const ext = entry.data.account.ext;
  if (ext.type !== 'v1' || ext.v1.ext.type !== 'v2' || ext.v1.ext.v2.ext.type !== 'v3') return;
  const v3 = ext.v1.ext.v2.ext.v3;
  const times = closeTimes.get(v3.seqLedger);
  // js-xdr values are plain objects, which the SDK's types mark readonly
  if (times && v3.seqTime === times.ours) (v3 as { seqTime: bigint }).seqTime = times.theirs;
}

/** A change list as sorted base64 of each change: stellar-core's order is that of a hash map (LedgerTxn::Impl::getChanges iterates an UnorderedMap). */
const changeSet = (changes: xdr.LedgerEntryChange[]): string[] => changes.map((c) => c.toXdr('base64')).sort();

/** A readable name for a change: its type and entry key. */
function describeChange(b64: string): string {
  const c = xdr.LedgerEntryChange.fromXdr(b64, 'base64');
  const key = c.type === 'ledgerEntryRemoved' ? c.removed : ledgerKeyOf(c.value);
  return `${c.type} ${key.type}:${key.toXdr('base64').slice(0, 24)}… ${b64}`;
}

function compareChanges(where: string, ours: xdr.LedgerEntryChange[], theirs: xdr.LedgerEntryChange[], out: string[]): void {
  const a = changeSet(ours);
  const b = changeSet(theirs);
  if (a.length === b.length && a.every((x, i) => x === b[i])) return;
  const onlyOurs = a.filter((x) => !b.includes(x)).map(describeChange);
  const onlyTheirs = b.filter((x) => !a.includes(x)).map(describeChange);
  out.push(
    `${where}: changes differ\n    ours only:   ${onlyOurs.join('\n                 ')}\n    theirs only: ${onlyTheirs.join('\n                 ')}`,
  );
}

interface TxCodes {
  code: string;
  fee: bigint;
  /** per operation: arm (opInner's operation type, or the outer code) and code */
  ops: { arm: string; code: string }[];
  xdr: string;
}

function txCodes(r: xdr.TransactionResult): TxCodes {
  const res = r.result;
  const results = res.type === 'txSuccess' || res.type === 'txFailed' ? res.results : [];
  return {
    code: res.type,
    fee: r.feeCharged,
    ops: results.map((o) => (o.type === 'opInner' ? { arm: o.tr.type, code: o.tr.value.type } : { arm: o.type, code: o.type })),
    xdr: r.toXdr('base64'),
  };
}

function compareTx(
  where: string,
  ours: LedgerTx,
  theirs: LedgerTx,
  closeTimes: Map<number, { ours: bigint; theirs: bigint }>,
  out: string[],
): void {
  const a = txCodes(ours.result.result);
  const b = txCodes(theirs.result.result);
  const before = out.length;
  if (a.code !== b.code) out.push(`${where}: result ${a.code} ≠ ${b.code}`);
  if (a.fee !== b.fee) out.push(`${where}: feeCharged ${a.fee} ≠ ${b.fee}`);
  if (a.ops.length !== b.ops.length) out.push(`${where}: ${a.ops.length} operation results ≠ ${b.ops.length}`);
  for (const [i, op] of a.ops.entries()) {
    const t = b.ops[i];
    if (t && (op.arm !== t.arm || op.code !== t.code)) out.push(`${where} op ${i}: ${op.arm}.${op.code} ≠ ${t.arm}.${t.code}`);
  }
  // the rest of the result (claim atoms, offers, amounts) once the codes agree
  if (out.length === before && a.xdr !== b.xdr) out.push(`${where}: TransactionResult ${a.xdr} ≠ ${b.xdr}`);
  for (const list of [ours.feeChanges, ours.changesBefore, ...ours.operationChanges, ours.changesAfter]) {
    for (const c of list) restoreSeqTime(c, closeTimes);
  }
  compareChanges(`${where} fee processing`, ours.feeChanges, theirs.feeChanges, out);
  compareChanges(`${where} txChangesBefore`, ours.changesBefore, theirs.changesBefore, out);
  if (ours.operationChanges.length !== theirs.operationChanges.length) {
    out.push(`${where}: ${ours.operationChanges.length} operation metas ≠ ${theirs.operationChanges.length}`);
  }
  for (const [i, changes] of ours.operationChanges.entries()) {
    compareChanges(`${where} op ${i}`, changes, theirs.operationChanges[i] ?? [], out);
  }
  compareChanges(`${where} txChangesAfter`, ours.changesAfter, theirs.changesAfter, out);
  // LedgerCloseMeta v2 only (protocol 23+): Soroban fee refunds; a classic transaction has none
  compareChanges(`${where} postTxApplyFeeProcessing`, ours.postApplyFeeChanges, theirs.postApplyFeeChanges, out);
}

/** The header fields a classic replay must reproduce (the protocol version, hashes and bucket list are not ours to match). */
function compareHeader(seq: number, ours: xdr.LedgerHeader, theirs: xdr.LedgerHeader, out: string[]): void {
  for (const f of ['totalCoins', 'feePool', 'idPool', 'baseFee', 'baseReserve', 'maxTxSetSize', 'inflationSeq'] as const) {
    const a = String(ours[f]);
    const b = String(theirs[f]);
    if (a !== b) out.push(`ledger ${seq}: header ${f} ${a} ≠ ${b}`);
  }
}

/**
 * Replays a case's classic prefix. Genesis takes the base fee, reserve and tx set size of the first
 * recorded header: stellar-core's tests start from those of their config (startNewLedger with
 * USE_CONFIG_FOR_GENESIS: TESTING_UPGRADE_DESIRED_FEE 100, TESTING_UPGRADE_RESERVE 10^8,
 * TESTING_UPGRADE_MAX_TX_SET_SIZE 50) and upgrade nothing but the protocol version, which this
 * core does not replay. Its root account is ours: seed = network id, balance = total coins,
 * sequence 0, thresholds [1, 0, 0, 0]. Then, per ledger, the transactions are submitted in
 * txProcessing (apply) order and the ledger is closed at the recorded close time.
 */
export async function replayCase(loaded: CaseLedgers): Promise<CaseReplay> {
  const { views, opTypes } = loaded;
  const mismatches: string[] = [];
  const first = views[0];
  if (!first) return { mismatches: ['no ledgers'], unsupportedOps: [], firstAtNotSupported: false };
  /** the transactions the core refused with opNOT_SUPPORTED where stellar-core's operation was supported */
  const notSupported = new Set<string>();
  let firstAt: string | null | undefined;
  /** records where the first difference showed: at `tx`, or at the ledger (null) */
  const noteFirst = (tx?: LedgerTx): void => {
    if (mismatches.length > 0 && firstAt === undefined) firstAt = tx?.hash ?? null;
  };
  const core = await createCore({
    dataDir: null,
    networkPassphrase: coreLcmManifest.networkPassphrase,
    manualClose: true,
    baseFee: first.header.baseFee,
    baseReserve: first.header.baseReserve,
    maxTxSetSize: first.header.maxTxSetSize,
  });
  const closeTimes = new Map<number, { ours: bigint; theirs: bigint }>();
  try {
    for (const theirs of views) {
      const seq = theirs.sequence;
      if (seq !== core.latestLedger().sequence + 1) {
        mismatches.push(`ledger ${seq}: the core is at ${core.latestLedger().sequence}`);
        noteFirst();
        break;
      }
      for (const [i, tx] of theirs.txs.entries()) {
        const status = core.submit(tx.envelope.toXdr('base64'));
        if (status.status === 'PENDING') continue;
        const applied = txCodes(tx.result.result);
        const refused = status.status === 'ERROR' ? txCodes(xdr.TransactionResult.fromXdr(status.error, 'base64')) : null;
        if (refused?.ops.some((op, k) => op.code === 'opNotSupported' && applied.ops[k]?.code !== 'opNotSupported'))
          notSupported.add(tx.hash);
        const codes = refused ? `${refused.code} [${refused.ops.map((o) => o.code).join(' ')}]` : '';
        mismatches.push(`ledger ${seq} tx ${i} (${tx.hash.slice(0, 8)}): submit ${status.status} ${codes} ≠ applied ${applied.code}`);
        noteFirst(tx);
      }
      const theirTime = theirs.header.scpValue.closeTime;
      const ourTime = theirTime > BigInt(core.latestLedger().closeTime) ? theirTime : BigInt(core.latestLedger().closeTime) + 1n;
      closeTimes.set(seq, { ours: ourTime, theirs: theirTime });
      const closed = await core.closeLedger(Number(ourTime));
      const bytes = core.ledgerMetaXdr(closed.sequence);
      if (!bytes) throw new Error(`no meta for ledger ${closed.sequence}`);
      const ours = viewLedger(xdr.LedgerCloseMeta.fromXdr(bytes), NETWORK_ID);
      for (const [i, tx] of theirs.txs.entries()) {
        const mine = ours.txs.find((t) => t.hash === tx.hash);
        if (mine) compareTx(`ledger ${seq} tx ${i} (${tx.hash.slice(0, 8)})`, mine, tx, closeTimes, mismatches);
        noteFirst(tx);
      }
      // after the transactions, so that a difference they explain is reported at them first
      const ourHashes = ours.txs.map((t) => t.hash.slice(0, 8)).join(',');
      const theirHashes = theirs.txs.map((t) => t.hash.slice(0, 8)).join(',');
      if (ourHashes !== theirHashes) mismatches.push(`ledger ${seq}: applied [${ourHashes}] ≠ [${theirHashes}]`);
      compareHeader(seq, ours.header, theirs.header, mismatches);
      noteFirst();
    }
  } finally {
    await core.stop();
  }
  return {
    mismatches,
    unsupportedOps: unsupportedOps(opTypes),
    firstAtNotSupported: typeof firstAt === 'string' && notSupported.has(firstAt),
  };
}
