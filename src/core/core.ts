// The embedded standalone network: queue, ledger close loop, persistence, meta outputs.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { xdr } from '@stellar/stellar-sdk/base';
import { DatastoreWriter } from '../meta/index.js';
import { GENESIS_LEDGER_SEQ, networkId } from '../stellar/index.js';
import { closeLedger as applyLedger, buildMeta } from './ledger/close.js';
import { accountKey } from './ledger/entries.js';
import type { AccountRec, EntryRec } from './ledger/entries.js';
import { PROTOCOL_VERSION, genesisHeader, genesisRootAccount } from './ledger/genesis.js';
import { ZERO_HASH, headerFromXdr, headerHash } from './ledger/header.js';
import type { LedgerHeaderRec } from './ledger/header.js';
import { RootState } from './ledger/ledger_txn.js';
import { asBuffer } from '../stellar/bytes.js';
import { FileMetaStore, MemoryMetaStore } from './ledger/meta_log.js';
import type { MetaStore } from './ledger/meta_log.js';
import { coreDir, readSnapshot, replayMeta, writeSnapshot } from './ledger/persistence.js';
import { TxQueue, feePayer, queueKey } from './ledger/queue.js';
import { txResult } from './ledger/results.js';
import { decodeEnvelope, makeTxFrame, readTxFrame } from './ledger/tx_frame.js';
import type { TxFrame } from './ledger/tx_frame.js';
import { checkValid, likelyChecks } from './ledger/validate.js';
import { VerifyPool, defaultVerifyThreads } from './ledger/verify_pool.js';
import type { PendingCheck } from './ledger/signature_checker.js';
import { lockFolder } from '../support/folder_lock.js';
import { coreHttpHandler } from './ledger/http.js';
import type { RequestListener } from './ledger/http.js';
import type { ValidationEnv } from './ledger/validate.js';
import type { ClosedLedgerSummary, CoreInfo, CoreLogger, CoreOptions, SubmitStatus } from './types.js';

/** The ledger header of a LedgerCloseMeta the core wrote (always v1). */
function metaHeader(meta: xdr.LedgerCloseMeta): xdr.LedgerHeader {
  if (meta.type !== 'v1') throw new Error(`core meta log holds a LedgerCloseMeta ${meta.type}, not v1`);
  return meta.v1.ledgerHeader.header;
}

const malformed = (): SubmitStatus => ({ status: 'ERROR', error: txResult(0n, 'txMalformed').toXdr('base64') });

/** the length of base64 text without its padding */
function unpadded(text: string): number {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x3d /* = */) end--;
  return end;
}

/** The text is `bytes` in base64, padding aside (Buffer.from skips what is not base64). */
function isCanonicalBase64(text: string, bytes: Buffer): boolean {
  const trimmed = text.trim();
  const encoded = bytes.toString('base64');
  const n = unpadded(trimmed);
  return n === unpadded(encoded) && encoded.startsWith(n === trimmed.length ? trimmed : trimmed.slice(0, n));
}

const silent: CoreLogger = { info() {}, warn() {}, error() {}, debug() {} };

/** <dataDir>/core/network.json names the network the data belongs to. */
function checkNetworkFile(dir: string, passphrase: string): void {
  const file = path.join(dir, 'network.json');
  if (fs.existsSync(file)) {
    const saved = (JSON.parse(fs.readFileSync(file, 'utf8')) as { networkPassphrase?: string }).networkPassphrase;
    if (saved !== passphrase) throw new Error(`core data in ${dir} belongs to network "${saved ?? ''}"`);
    return;
  }
  fs.writeFileSync(file, `${JSON.stringify({ networkPassphrase: passphrase }, null, 2)}\n`);
}

export class Core {
  readonly networkPassphrase: string;
  readonly networkId: Buffer;
  readonly manualClose: boolean;
  readonly closeIntervalMs: number;
  private readonly root = new RootState();
  private unlockDir: () => void = () => {};
  private header!: LedgerHeaderRec;
  private lclHash!: Buffer;
  private readonly queue: TxQueue;
  private store!: MetaStore;
  private datastore: DatastoreWriter | null = null;
  private readonly log: CoreLogger;
  private readonly dir: string | null;
  private readonly snapshotInterval: number;
  private lastSnapshotSeq = 0;
  private closing: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private ledgerWaiters: (() => void)[] = [];
  private readonly startedOn = new Date();
  private servers: http.Server[] = [];
  private handler: RequestListener | null = null;
  /** submitAsync's submissions in arrival order, each queued once it and those before it are verified */
  private readonly arrivals: { frame: TxFrame; verified: boolean; answer: (s: SubmitStatus) => void; answered: Promise<SubmitStatus> }[] =
    [];
  private pool: VerifyPool | null = null;
  private verifyThreads: number;

  constructor(private readonly options: CoreOptions) {
    this.networkPassphrase = options.networkPassphrase;
    this.networkId = networkId(options.networkPassphrase);
    this.manualClose = options.manualClose ?? false;
    this.closeIntervalMs = options.closeIntervalMs ?? 1000;
    const maxTxSetSize = options.maxTxSetSize ?? 1000;
    this.queue = new TxQueue(options.maxQueueOps ?? maxTxSetSize * 4);
    this.log = options.logger ?? silent;
    this.dir = options.dataDir === null ? null : coreDir(options.dataDir);
    this.snapshotInterval = options.snapshotInterval ?? 100;
    this.verifyThreads = options.verifyThreads ?? defaultVerifyThreads();
  }

  /** Loads or creates the ledger; called by createCore. */
  async open(): Promise<void> {
    const o = this.options;
    const genesis = genesisHeader({
      networkPassphrase: o.networkPassphrase,
      baseFee: o.baseFee ?? 100,
      baseReserve: o.baseReserve ?? 5_000_000,
      maxTxSetSize: o.maxTxSetSize ?? 1000,
    });
    if (this.dir) {
      fs.mkdirSync(this.dir, { recursive: true });
      // one process per core folder: two writers would fork the ledger chain
      this.unlockDir = lockFolder(this.dir);
      checkNetworkFile(this.dir, o.networkPassphrase);
      this.store = new FileMetaStore(`${this.dir}/ledgers.xdr`);
      const snap = readSnapshot(this.dir, o.networkPassphrase, this.root);
      const range = this.store.range();
      // an existing network keeps the parameters of its own genesis, whatever the options say now
      const logged = !snap && range ? this.store.read(GENESIS_LEDGER_SEQ) : undefined;
      const initial = logged ? headerFromXdr(metaHeader(xdr.LedgerCloseMeta.fromXdr(logged))) : genesis;
      this.header = snap ?? this.initGenesis(initial);
      this.lastSnapshotSeq = snap ? snap.ledgerSeq : 0;
      if (!range) {
        if (this.header.ledgerSeq !== GENESIS_LEDGER_SEQ) throw new Error(`core meta log in ${this.dir} is missing`);
        this.store.append(GENESIS_LEDGER_SEQ, asBuffer(this.genesisMeta(genesis).toXdr()));
      } else {
        for (let seq = this.header.ledgerSeq + 1; seq <= range.last; seq++) {
          const raw = this.store.read(seq);
          if (!raw) throw new Error(`core meta log lacks ledger ${seq}`);
          this.header = replayMeta(this.root, xdr.LedgerCloseMeta.fromXdr(raw));
        }
        if (range.last < this.header.ledgerSeq) {
          throw new Error(`core snapshot (ledger ${this.header.ledgerSeq}) is ahead of the meta log (${range.last})`);
        }
      }
      this.log.info({ ledger: this.header.ledgerSeq, dir: this.dir }, 'core state loaded');
    } else {
      this.store = new MemoryMetaStore();
      this.header = this.initGenesis(genesis);
      this.store.append(GENESIS_LEDGER_SEQ, asBuffer(this.genesisMeta(genesis).toXdr()));
    }
    this.lclHash = headerHash(this.header);
    if (o.metaOutDir) {
      this.datastore = await DatastoreWriter.open(o.metaOutDir, o.networkPassphrase);
      // catch the datastore up with ledgers it missed (e.g. first run with --meta-out)
      const range = this.store.range();
      for (let seq = range?.first ?? 1; range && seq <= range.last; seq++) {
        if (!this.datastore.has(seq)) this.datastore.write(seq, this.store.read(seq)!);
      }
    }
  }

  private initGenesis(h: LedgerHeaderRec): LedgerHeaderRec {
    const root = genesisRootAccount(this.networkPassphrase);
    this.root.entries.set(accountKey(root.accountId), root);
    return { ...h };
  }

  private genesisMeta(h: LedgerHeaderRec): xdr.LedgerCloseMeta {
    const txSet = xdr.GeneralizedTransactionSet.v1TxSet(
      new xdr.TransactionSetV1({
        previousLedgerHash: ZERO_HASH,
        phases: [xdr.TransactionPhase.v0Components([]), xdr.TransactionPhase.v0Components([])],
      }),
    );
    return buildMeta(h, headerHash(h), txSet, []);
  }

  private validationEnv(): ValidationEnv {
    const h = this.header;
    return {
      header: {
        ledgerSeq: h.ledgerSeq + 1,
        closeTime: h.closeTime,
        baseFee: h.baseFee,
        baseReserve: h.baseReserve,
        ledgerVersion: h.ledgerVersion,
      },
      upperBoundCloseTimeOffset: this.manualClose ? 0n : BigInt(Math.ceil(this.closeIntervalMs / 1000)),
    };
  }

  /** stellar-core's /tx: validate and queue a base64 TransactionEnvelope (signatures verified on this thread). */
  submit(envelopeBase64: string): SubmitStatus {
    const frame = this.parse(envelopeBase64);
    return 'status' in frame ? frame : this.queueFrame(frame);
  }

  /**
   * submit() with the signatures verified on worker threads first, so that the thread closing
   * ledgers only weighs them (HTTP /tx and the service's submissions come here). Submissions are
   * validated and queued in arrival order.
   */
  submitAsync(envelopeBase64: string): Promise<SubmitStatus> {
    const frame = this.parse(envelopeBase64);
    if ('status' in frame) return Promise.resolve(frame);
    const pool = this.verifier();
    if (!pool) return Promise.resolve(this.queueFrame(frame));
    // submissions waiting for their signatures are bounded like the queue they go to
    if (this.arrivals.length >= this.queue.maxOps) return Promise.resolve({ status: 'TRY_AGAIN_LATER' });
    let checks: PendingCheck[] = [];
    try {
      checks = likelyChecks(frame, this.root);
    } catch {
      // none ahead: validation does them and answers
    }
    let answer!: (s: SubmitStatus) => void;
    const answered = new Promise<SubmitStatus>((resolve) => {
      answer = resolve;
    });
    const arrival = { frame, verified: false, answer, answered };
    this.arrivals.push(arrival);
    void pool.verify(checks).then(() => {
      arrival.verified = true;
      while (this.arrivals[0]?.verified) {
        const next = this.arrivals.shift()!;
        next.answer(this.queueFrame(next.frame));
      }
    });
    return answered;
  }

  /** The worker threads verifying submitAsync's signatures, started with the first; null for none. */
  private verifier(): VerifyPool | null {
    if (this.pool || this.verifyThreads === 0) return this.pool;
    try {
      this.pool = new VerifyPool(this.verifyThreads);
    } catch (e) {
      this.log.warn({ err: String(e) }, 'no signature verification threads: verifying on the main thread');
      this.verifyThreads = 0;
    }
    return this.pool;
  }

  /** The envelope's frame, or txMALFORMED's answer. */
  private parse(envelopeBase64: string): TxFrame | SubmitStatus {
    const blob = Buffer.from(envelopeBase64, 'base64');
    if (blob.length === 0 || !isCanonicalBase64(envelopeBase64, blob)) return malformed();
    const read = readTxFrame(blob, this.networkId);
    if (read) return read;
    // other shapes (v0 envelopes, Soroban data), and what is malformed, the library decodes
    const env = decodeEnvelope(blob);
    if (!env) return malformed();
    try {
      return makeTxFrame(env, this.networkId, blob);
    } catch {
      return malformed();
    }
  }

  private queueFrame(frame: TxFrame): SubmitStatus {
    const key = queueKey(frame);
    if (this.queue.has(key)) return { status: 'DUPLICATE' };
    if (this.queue.isFull(frame.ops.length)) return { status: 'TRY_AGAIN_LATER' };
    const chain = this.queue.chain(frame.sourceId);
    let error: xdr.TransactionResult | null;
    try {
      error = checkValid({
        frame,
        reader: this.root,
        env: this.validationEnv(),
        currentSeq: chain?.lastSeq ?? null,
        queuedFees: this.queue.queuedFees(feePayer(frame).accountId),
      });
    } catch (e) {
      this.log.warn({ err: String(e), hash: frame.hashHex }, 'transaction rejected while validating');
      error = txResult(0n, 'txMalformed');
    }
    if (error) return { status: 'ERROR', error: error.toXdr('base64') };
    this.queue.add(frame, key);
    return { status: 'PENDING' };
  }

  /** Closes the next ledger now with the queued transactions (manual close; also used by the timer). */
  closeLedger(closeTime?: number): Promise<ClosedLedgerSummary> {
    // the submissions made before the close are in it, as with submit(): it waits for those still being verified
    const submitted = this.arrivals.at(-1)?.answered;
    const run = this.closing.then(() => submitted).then(() => this.doClose(closeTime));
    this.closing = run.catch(() => undefined);
    return run;
  }

  private doClose(closeTimeArg?: number): ClosedLedgerSummary {
    if (this.stopped) throw new Error('core is stopped');
    const lcl = this.header;
    let closeTime = BigInt(closeTimeArg ?? Math.floor(Date.now() / 1000));
    if (closeTime <= lcl.closeTime) {
      if (closeTimeArg !== undefined) throw new Error(`closeTime must be after ${lcl.closeTime}`);
      closeTime = lcl.closeTime + 1n;
    }
    const candidates = this.queue.take(lcl.maxTxSetSize);
    const frames = this.trimInvalid(candidates, closeTime);
    const closed = applyLedger({ root: this.root, lcl, frames, closeTime });
    this.store.append(closed.header.ledgerSeq, closed.metaXdr);
    this.header = closed.header;
    this.lclHash = closed.hash;
    this.datastore?.write(closed.header.ledgerSeq, closed.metaXdr);
    if (this.dir && closed.header.ledgerSeq - this.lastSnapshotSeq >= this.snapshotInterval) this.snapshot();
    const wake = this.ledgerWaiters;
    this.ledgerWaiters = [];
    for (const w of wake) w();
    this.log.debug({ ledger: closed.header.ledgerSeq, txs: frames.length }, 'ledger closed');
    return {
      sequence: closed.header.ledgerSeq,
      hash: closed.hash.toString('hex'),
      closeTime: Number(closeTime),
      txCount: frames.length,
      results: closed.txs.map((t) => ({ hash: t.hash, code: t.code, feeCharged: t.feeCharged })),
    };
  }

  // stellar-core never nominates transactions that fail checkValid (TxSetUtils::trimInvalid)
  private trimInvalid(frames: TxFrame[], closeTime: bigint): TxFrame[] {
    const kept: TxFrame[] = [];
    const seqs = new Map<string, bigint>();
    const fees = new Map<string, bigint>();
    const env = this.validationEnv();
    env.upperBoundCloseTimeOffset = closeTime - this.header.closeTime;
    for (const f of frames) {
      const payer = feePayer(f);
      let error: xdr.TransactionResult | null;
      try {
        error = checkValid({
          frame: f,
          reader: this.root,
          env,
          currentSeq: seqs.get(f.sourceId) ?? null,
          queuedFees: fees.get(payer.accountId) ?? 0n,
        });
      } catch {
        error = txResult(0n, 'txMalformed');
      }
      if (error) {
        this.log.info({ hash: f.hashHex, result: error.result.type }, 'dropping transaction that became invalid');
        continue;
      }
      seqs.set(f.sourceId, f.seqNum);
      fees.set(payer.accountId, (fees.get(payer.accountId) ?? 0n) + payer.bid);
      kept.push(f);
    }
    return kept;
  }

  private snapshot(): void {
    if (!this.dir) return;
    writeSnapshot(this.dir, this.networkPassphrase, this.header, this.root);
    this.lastSnapshotSeq = this.header.ledgerSeq;
  }

  /** Starts closing on the interval (no-op in manual-close mode). */
  start(): void {
    if (this.manualClose || this.timer || this.stopped) return;
    let busy = false;
    const tick = (): void => {
      // a close slower than the interval skips ticks instead of piling them up
      if (busy) return;
      busy = true;
      this.closeLedger()
        .catch((e: unknown) => this.log.error({ err: String(e) }, 'ledger close failed'))
        .finally(() => {
          busy = false;
        });
    };
    this.timer = setInterval(tick, this.closeIntervalMs);
  }

  /** node:http listener for stellar-core's commands (/tx, /info, /manualclose). */
  get httpHandler(): RequestListener {
    this.handler ??= coreHttpHandler(this);
    return this.handler;
  }

  /** Serves the HTTP commands on their own port (0 = ephemeral); resolves with the bound port. */
  listen(port: number, host = '127.0.0.1'): Promise<{ port: number; host: string }> {
    const server = http.createServer(this.httpHandler);
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve({ port: (server.address() as AddressInfo).port, host });
      });
    });
  }

  /** Stops the timer and HTTP servers, lets a close in progress finish, writes a snapshot and releases files. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.all(
      this.servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeAllConnections();
          }),
      ),
    );
    this.servers = [];
    // submissions still being verified are verified here instead
    await this.pool?.close();
    this.pool = null;
    this.verifyThreads = 0;
    await this.closing;
    this.stopped = true;
    if (this.dir && this.header.ledgerSeq !== this.lastSnapshotSeq) this.snapshot();
    this.store.close();
    this.unlockDir();
    const wake = this.ledgerWaiters;
    this.ledgerWaiters = [];
    for (const w of wake) w();
  }

  latestLedger(): { sequence: number; hash: string; closeTime: number } {
    return { sequence: this.header.ledgerSeq, hash: this.lclHash.toString('hex'), closeTime: Number(this.header.closeTime) };
  }

  /** stellar-core's /info (state is always Synced!: this network is its own consensus). */
  info(): CoreInfo {
    const h = this.header;
    return {
      info: {
        build: `zenith-core (stellar-core protocol ${PROTOCOL_VERSION} classic semantics)`,
        protocol_version: PROTOCOL_VERSION,
        state: 'Synced!',
        startedOn: this.startedOn.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        ledger: {
          num: h.ledgerSeq,
          hash: this.lclHash.toString('hex'),
          closeTime: Number(h.closeTime),
          version: h.ledgerVersion,
          baseFee: h.baseFee,
          baseReserve: h.baseReserve,
          maxTxSetSize: h.maxTxSetSize,
          age: Math.max(0, Math.floor(Date.now() / 1000) - Number(h.closeTime)),
        },
        network: this.networkPassphrase,
        queue: { pending_count: this.queue.length },
      },
    };
  }

  /** The sequence number the next transaction of `accountId` must carry (after its queued ones). */
  nextSequence(accountId: string): bigint | null {
    const chain = this.queue.chain(accountId);
    if (chain) return chain.lastSeq + 1n;
    const acc = this.account(accountId);
    return acc ? acc.seqNum + 1n : null;
  }

  /** Every closed ledger's meta from `fromSequence` on: stored ones first, then live, until stop(). */
  async *ledgers(fromSequence: number): AsyncGenerator<xdr.LedgerCloseMeta, void, undefined> {
    let next = Math.max(fromSequence, this.store.range()?.first ?? GENESIS_LEDGER_SEQ);
    while (!this.stopped) {
      while (next <= this.header.ledgerSeq && !this.stopped) {
        const raw = this.store.read(next);
        if (!raw) return;
        yield xdr.LedgerCloseMeta.fromXdr(raw);
        next++;
      }
      if (this.stopped) return;
      await new Promise<void>((resolve) => this.ledgerWaiters.push(resolve));
    }
  }

  /** The raw XDR of one stored LedgerCloseMeta. */
  ledgerMetaXdr(sequence: number): Buffer | undefined {
    return this.store.read(sequence);
  }

  /** Current state of an account (null if absent). */
  account(accountId: string): AccountRec | null {
    return (this.root.get(accountKey(accountId)) as AccountRec | undefined) ?? null;
  }

  /** Every ledger entry of the current state (tests, snapshots). */
  entries(): IterableIterator<EntryRec> {
    return this.root.entries.values();
  }
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const core = new Core(options);
  await core.open();
  return core;
}
