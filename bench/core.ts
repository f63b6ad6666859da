// Embedded core throughput: payment transactions submitted as /tx does (core.submitAsync: decoded,
// signatures verified on the core's worker threads, validated and queued in arrival order),
// applied and closed, in ledgers of 1,000. A round's submissions are in flight while the ledger
// before it closes, as a network's are. Prints tx/s, its ratio to the 8,000 tx/s target and to a
// baseline measured in the same run (one thread decoding envelopes and verifying their signature
// with node:crypto, nothing else), and the main thread's CPU time per transaction against the
// baseline's (a ratio that other processes on a loaded machine barely move, unlike wall time);
// then the same for path payments that swap XLM for a credit through a constant-product pool.
// Run: npx tsx bench/core.ts [ledgers=10] [txPerLedger=1000] [disk]
// With "disk", the core persists to a temporary data folder (fsync'd meta log, snapshots).
import { createHash, createPublicKey, verify } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { Asset, Keypair, Operation, xdr } from '@stellar/stellar-sdk/base';
import { createCore } from '../src/core/index.js';
import { rootKeypair } from '../src/stellar/index.js';
import { envelopeSigner } from '../test/support/envelopes.js';
import { deposit, poolIdOf, trustPool } from '../test/core/support/dex.js';

const PASSPHRASE = 'Zenith Bench Network';
const LEDGERS = Number(process.argv[2] ?? 10);
const PER_LEDGER = Number(process.argv[3] ?? 1000);
const ON_DISK = process.argv[4] === 'disk';
const { networkId, envelope } = envelopeSigner(PASSPHRASE);

const TARGET = 8000;
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * The floor of any validator, measured in the same run: decode each envelope and verify its one
 * signature with node:crypto, nothing else. The core's tx/s over this rate says how much the
 * ledger work adds, whatever the machine's load.
 */
function verifyOnlyRate(envelopes: string[]): { rate: number; cpuPerTx: number } {
  const keys = new Map<string, KeyObject>();
  const t0 = performance.now();
  const cpu0 = threadCpuMicros();
  for (const env of envelopes) {
    const envelope = xdr.TransactionEnvelope.fromXdr(env, 'base64');
    if (envelope.type !== 'envelopeTypeTx') throw new Error('not a v1 envelope in bench');
    const v1 = envelope.v1;
    const source = v1.tx.sourceAccount;
    if (source.type !== 'keyTypeEd25519') throw new Error('a muxed source in bench');
    const raw = source.ed25519.value;
    const id = Buffer.from(raw).toString('hex');
    let key = keys.get(id);
    if (!key) keys.set(id, (key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, raw]), format: 'der', type: 'spki' })));
    const hash = createHash('sha256')
      .update(networkId)
      .update(Buffer.from([0, 0, 0, 2]))
      .update(v1.tx.toXdr())
      .digest();
    if (!verify(null, hash, key, v1.signatures[0]!.signature.value)) throw new Error('bad signature in bench');
  }
  return { rate: (envelopes.length / (performance.now() - t0)) * 1000, cpuPerTx: (threadCpuMicros() - cpu0) / envelopes.length };
}

/** CPU time of this thread (µs): unlike wall time, barely moved by other processes on a loaded machine */
function threadCpuMicros(): number {
  const u = process.threadCpuUsage();
  return u.user + u.system;
}

async function main(): Promise<void> {
  const dataDir = ON_DISK ? fs.mkdtempSync(path.join(os.tmpdir(), 'zenith-bench-')) : null;
  const core = await createCore({
    dataDir,
    networkPassphrase: PASSPHRASE,
    manualClose: true,
    maxTxSetSize: PER_LEDGER,
    maxQueueOps: PER_LEDGER * 2,
  });
  const root = rootKeypair(PASSPHRASE);
  const accounts = Array.from({ length: PER_LEDGER }, () => Keypair.random());
  let closeTime = 1_000;
  // fund the senders, 100 create_account operations per transaction (this starts the verifying threads)
  for (let i = 0; i < accounts.length; i += 100) {
    const ops = accounts.slice(i, i + 100).map((k) => Operation.createAccount({ destination: k.publicKey(), startingBalance: '1000' }));
    const seq = core.nextSequence(root.publicKey())!;
    const s = await core.submitAsync(envelope(root, seq, ops));
    if (s.status !== 'PENDING') throw new Error(`funding rejected: ${JSON.stringify(s)}`);
  }
  await core.closeLedger((closeTime += 5));

  // pre-sign every payment (signing is the client's cost, not the network's)
  const rounds: string[][] = [];
  for (let r = 0; r < LEDGERS; r++) {
    rounds.push(
      accounts.map((k, i) => {
        const to = accounts[(i + 1) % accounts.length]!;
        const seq = core.account(k.publicKey())!.seqNum + BigInt(r + 1);
        return envelope(k, seq, [Operation.payment({ destination: to.publicKey(), asset: Asset.native(), amount: '0.0000100' })]);
      }),
    );
  }

  const { rate: baseline, cpuPerTx: baselineCpu } = verifyOnlyRate(rounds[0] ?? []);
  const { rate, txs, total, cpuPerTx } = await closeRounds(core, rounds, () => (closeTime += 5));
  const poolRate = await poolSwapRate(core, accounts, () => (closeTime += 5));
  console.log(
    JSON.stringify({
      ledgers: LEDGERS,
      storage: ON_DISK ? 'disk' : 'memory',
      txPerLedger: PER_LEDGER,
      txs,
      seconds: +(total / 1000).toFixed(3),
      txPerSecond: Math.round(rate),
      target: TARGET,
      ratioToTarget: +(rate / TARGET).toFixed(2),
      baselineVerifyOnlyTxPerSecond: Math.round(baseline),
      ratioToBaseline: +(rate / baseline).toFixed(2),
      mainThreadCpuMicrosPerTx: Math.round(cpuPerTx),
      baselineCpuMicrosPerTx: Math.round(baselineCpu),
      cpuRatioToBaseline: +(baselineCpu / cpuPerTx).toFixed(2),
      poolSwapTxPerSecond: Math.round(poolRate),
      poolSwapRatioToPayments: +(poolRate / rate).toFixed(2),
    }),
  );
  await core.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}

/**
 * Path payments (strict send, XLM → USD, each account to itself) that all trade with one
 * XLM/USD pool, in the same ledgers of PER_LEDGER: the pool is one entry every swap updates.
 */
async function poolSwapRate(
  core: Awaited<ReturnType<typeof createCore>>,
  accounts: Keypair[],
  nextCloseTime: () => number,
): Promise<number> {
  const root = rootKeypair(PASSPHRASE);
  const issuer = Keypair.random();
  const usd = new Asset('USD', issuer.publicKey());
  const poolId = poolIdOf(Asset.native(), usd);
  const submit = async (batches: string[]) => {
    for (const env of batches) {
      const s = core.submit(env);
      if (s.status !== 'PENDING') throw new Error(`pool setup rejected: ${JSON.stringify(s)}`);
    }
    const closed = await core.closeLedger(nextCloseTime());
    if (closed.results.some((x) => x.code !== 'txSuccess')) throw new Error(`pool setup failed in ledger ${closed.sequence}`);
  };
  const next = (kp: Keypair) => core.nextSequence(kp.publicKey())!;
  await submit([envelope(root, next(root), [Operation.createAccount({ destination: issuer.publicKey(), startingBalance: '1000000' })])]);
  // the issuer provides the pool's reserves; every account holds a USD line
  await submit([
    envelope(issuer, next(issuer), [
      trustPool(Asset.native(), usd),
      deposit(poolId, 1_000_000_000_000n, 1_000_000_000_000n, [1, 2], [2, 1]),
    ]),
    ...accounts.map((k) => envelope(k, next(k), [Operation.changeTrust({ asset: usd })])),
  ]);
  const rounds: string[][] = [];
  for (let r = 0; r < LEDGERS; r++) {
    rounds.push(
      accounts.map((k) =>
        envelope(k, next(k) + BigInt(r), [
          Operation.pathPaymentStrictSend({
            sendAsset: Asset.native(),
            sendAmount: '0.0010000',
            destination: k.publicKey(),
            destAsset: usd,
            destMin: '0.0000001',
            path: [],
          }),
        ]),
      ),
    );
  }
  return (await closeRounds(core, rounds, nextCloseTime)).rate;
}

/**
 * Submits each round through submitAsync and closes it. The next round is submitted right after
 * the close is asked for, so its signatures are verified while the ledger is applied.
 */
async function closeRounds(
  core: Awaited<ReturnType<typeof createCore>>,
  rounds: string[][],
  nextCloseTime: () => number,
): Promise<{ rate: number; txs: number; total: number; cpuPerTx: number }> {
  const submitAll = (round: string[] | undefined) => Promise.all((round ?? []).map((env) => core.submitAsync(env)));
  let txs = 0;
  const t0 = performance.now();
  const cpu0 = threadCpuMicros();
  let submitted = submitAll(rounds[0]);
  for (let r = 0; r < rounds.length; r++) {
    const statuses = await submitted;
    const rejected = statuses.find((s) => s.status !== 'PENDING');
    if (rejected) throw new Error(`rejected: ${JSON.stringify(rejected)}`);
    const closing = core.closeLedger(nextCloseTime());
    submitted = submitAll(rounds[r + 1]);
    const closed = await closing;
    if (closed.txCount !== rounds[r]!.length || closed.results.some((x) => x.code !== 'txSuccess')) {
      throw new Error(`ledger ${closed.sequence}: ${closed.txCount} applied, not all successful`);
    }
    txs += closed.txCount;
  }
  await submitted;
  const total = performance.now() - t0;
  return { rate: (txs / total) * 1000, txs, total, cpuPerTx: (threadCpuMicros() - cpu0) / txs };
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
