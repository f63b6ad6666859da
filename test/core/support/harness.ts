// Builds, signs, submits and closes transactions against an in-memory core.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Keypair, Memo, Operation, xdr } from '@stellar/stellar-sdk/base';
import { expect } from 'vitest';
import { createCore } from '../../../src/core/index.js';
import { rootKeypair } from '../../../src/stellar/index.js';
import type { Core, CoreOptions, SubmitStatus } from '../../../src/core/index.js';
import { opResultCode } from '../../../src/core/ledger/results.js';
import { type AccountRec, entryFromXdr } from '../../../src/core/ledger/entries.js';
import { encodeEntry } from '../../../src/core/ledger/entry_codec.js';

export const PASSPHRASE = 'Zenith Core Test Network';
export const XLM = 10_000_000n;

export interface TxOptions {
  fee?: number;
  signers?: Keypair[];
  seq?: bigint;
  timebounds?: { minTime: number; maxTime: number };
  /** overrides timebounds */
  cond?: xdr.Preconditions;
  memo?: Memo;
}

export interface Applied {
  status: SubmitStatus;
  code: string;
  ops: string[];
  feeCharged: bigint;
  result: xdr.TransactionResult | null;
}

const NETWORK_ID = createHash('sha256').update(PASSPHRASE).digest();

export function txHash(tx: xdr.Transaction): Buffer {
  return createHash('sha256')
    .update(NETWORK_ID)
    .update(Buffer.from([0, 0, 0, 2]))
    .update(tx.toXdr())
    .digest();
}

/** The transaction's code and, for txSuccess/txFailed, its operations' codes (also for a fee bump's inner result). */
export function codesOf(r: xdr.TransactionResult | xdr.InnerTransactionResult): { code: string; ops: string[] } {
  const res = r.result;
  const ops = res.type === 'txSuccess' || res.type === 'txFailed' ? res.results.map((o) => opResultCode(o)) : [];
  return { code: res.type, ops };
}

/** The operation results of a txSuccess/txFailed transaction result (throws for any other code). */
export function opResultsOf(r: xdr.TransactionResult | xdr.InnerTransactionResult): xdr.OperationResult[] {
  const res = r.result;
  if (res.type !== 'txSuccess' && res.type !== 'txFailed') throw new Error(`no operation results in ${res.type}`);
  return res.results;
}

/** Raw bytes (a Uint8Array or an opaque XDR value such as a Hash) as lowercase hex. */
export function hex(b: Uint8Array | xdr.BytesValue): string {
  return Buffer.from(b instanceof Uint8Array ? b : b.value).toString('hex');
}

/** The v1 body of a LedgerCloseMeta (the only version the core emits). */
export function metaV1(meta: xdr.LedgerCloseMeta): xdr.LedgerCloseMetaV1 {
  return xdr.expectUnionVariant(meta, 'v1').v1;
}

/** The LedgerCloseMetaV1 of a closed ledger of `core`, decoded from its stored bytes. */
export function closeMetaV1(core: Core, sequence: number): xdr.LedgerCloseMetaV1 {
  const bytes = core.ledgerMetaXdr(sequence);
  if (!bytes) throw new Error(`no meta for ledger ${sequence}`);
  return metaV1(xdr.LedgerCloseMeta.fromXdr(bytes));
}

/** The v3 TransactionMeta of a transaction applied by the core. */
export function txMetaV3(p: xdr.TransactionResultMeta): xdr.TransactionMetaV3 {
  return xdr.expectUnionVariant(p.txApplyProcessing, 'v3').v3;
}

export class Harness {
  readonly root: Keypair;
  private closeTime = 1_700_000_000;

  private constructor(readonly core: Core) {
    this.root = rootKeypair(core.networkPassphrase);
    // a core reopened from its data folder goes on after its last close
    this.closeTime = Math.max(this.closeTime, core.latestLedger().closeTime);
  }

  static async create(options: Partial<CoreOptions> = {}): Promise<Harness> {
    const core = await createCore({ dataDir: null, networkPassphrase: PASSPHRASE, manualClose: true, ...options });
    return new Harness(core);
  }

  seq(kp: Keypair): bigint {
    const a = this.core.account(kp.publicKey());
    if (!a) throw new Error(`no account ${kp.publicKey()}`);
    return a.seqNum;
  }

  /**
   * A signed base64 envelope (v1) from `source` with the next sequence number unless given. Built
   * from raw XDR so malformed operations can be sent; like TransactionBuilder, `fee` is per operation.
   */
  envelope(source: Keypair, ops: xdr.Operation[], o: TxOptions = {}): string {
    const seq = o.seq ?? this.seq(source) + 1n;
    const tb = o.timebounds ?? { minTime: 0, maxTime: 0 };
    const tx = new xdr.Transaction({
      sourceAccount: xdr.MuxedAccount.keyTypeEd25519(source.rawPublicKey()),
      fee: (o.fee ?? 100) * ops.length,
      seqNum: seq,
      cond: o.cond ?? xdr.Preconditions.precondTime(new xdr.TimeBounds({ minTime: BigInt(tb.minTime), maxTime: BigInt(tb.maxTime) })),
      memo: (o.memo ?? Memo.none()).toXdrObject(),
      operations: ops,
      ext: xdr.TransactionExt.v0(),
    });
    const hash = txHash(tx);
    const signatures = (o.signers ?? [source]).map((k) => k.signDecorated(hash));
    return xdr.TransactionEnvelope.envelopeTypeTx(new xdr.TransactionV1Envelope({ tx, signatures })).toXdr('base64');
  }

  /** Moves the clock: the next close comes `seconds` later than it would (5 s after the last). */
  advance(seconds: number): void {
    this.closeTime += seconds;
  }

  nextCloseTime(): number {
    this.closeTime += 5;
    return this.closeTime;
  }

  async close(): Promise<void> {
    await this.core.closeLedger(this.nextCloseTime());
  }

  /** Submits one envelope, closes a ledger and returns the applied result. */
  async submitAndClose(envelope: string): Promise<Applied> {
    const status = this.core.submit(envelope);
    if (status.status !== 'PENDING') {
      await this.close();
      if (status.status === 'ERROR') {
        const r = xdr.TransactionResult.fromXdr(status.error, 'base64');
        return { status, ...codesOf(r), feeCharged: r.feeCharged, result: r };
      }
      return { status, code: '', ops: [], feeCharged: 0n, result: null };
    }
    const closed = await this.core.closeLedger(this.nextCloseTime());
    const p = closeMetaV1(this.core, closed.sequence).txProcessing[0]!;
    const r = p.result.result;
    return { status, ...codesOf(r), feeCharged: r.feeCharged, result: r };
  }

  async run(source: Keypair, ops: xdr.Operation[], o: TxOptions = {}): Promise<Applied> {
    return this.submitAndClose(this.envelope(source, ops, o));
  }

  /** `run`, for a transaction that must succeed: anything else throws with its codes. */
  async succeed(source: Keypair, ops: xdr.Operation[], o: TxOptions = {}): Promise<Applied> {
    const r = await this.run(source, ops, o);
    if (r.code !== 'txSuccess') throw new Error(`${r.code} ${r.ops.join(',')}`);
    return r;
  }

  /** stellar-core's getAvailableBalance: the balance above the reserve and the selling liabilities. */
  available(kp: Keypair): bigint {
    const a = this.core.account(kp.publicKey());
    if (!a) throw new Error(`no account ${kp.publicKey()}`);
    const reserve = BigInt(this.core.info().info.ledger.baseReserve);
    return a.balance - BigInt(2 + a.numSubEntries + a.numSponsoring - a.numSponsored) * reserve - a.sellingLiabilities;
  }

  /** Creates funded accounts from the root. */
  async fund(amountXlm: number, count = 1): Promise<Keypair[]> {
    const kps = Array.from({ length: count }, () => Keypair.random());
    const r = await this.run(
      this.root,
      kps.map((k) => Operation.createAccount({ destination: k.publicKey(), startingBalance: String(amountXlm) })),
    );
    if (r.code !== 'txSuccess') throw new Error(`funding failed: ${r.code} ${r.ops.join(',')}`);
    return kps;
  }

  balance(kp: Keypair): bigint {
    return this.core.account(kp.publicKey())?.balance ?? -1n;
  }
}

/** Runs a one-operation transaction that must fail with the operation's `code`. */
export async function fails(h: Harness, source: Keypair, operation: xdr.Operation, code: string): Promise<void> {
  const r = await h.run(source, [operation]);
  expect(r.ops).toEqual([code]);
}

/**
 * Sets fields of an account in a stopped core's snapshot (`<dataDir>/core/snapshot.json`), as
 * stellar-core's tests write an entry straight into the ledger (e.g. numSponsoring near UINT32_MAX
 * for tooManySponsoring); the core opened next on `dataDir` starts from it.
 */
export function patchSnapshotAccount(dataDir: string, accountId: string, update: (account: AccountRec) => AccountRec): void {
  const file = path.join(dataDir, 'core', 'snapshot.json');
  const snapshot = JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: string[] };
  snapshot.entries = snapshot.entries.map((b64) => {
    const e = entryFromXdr(xdr.LedgerEntry.fromXdr(b64, 'base64'));
    if (e.type !== 'account' || e.accountId !== accountId) return b64;
    return encodeEntry(update(e)).toString('base64');
  });
  fs.writeFileSync(file, JSON.stringify(snapshot));
}
