// Ingestion throughput: generates payment-heavy ledgers with the embedded core (a datastore
// folder), then reingests them into PGlite (on disk, in a temporary data folder, as `zenith start`
// keeps it) and into PostgreSQL, and prints ledgers/s
// and operations/s for each, with where the time goes: reading and scanning the ledgers, then decoding
// their transactions and building rows, measured without a database, then the CPU this process (with its worker threads) and the PostgreSQL server process
// used during the reingest. Each database is filled twice: encoding the ledgers in the main thread
// (workers 0, the baseline of the same run) and on worker threads (the default).
// The ingestion code runs from the build (dist/, built first), as `zenith db reingest` does: under
// tsx every worker thread would first compile our TypeScript, and tsx's transform adds work to
// every function it creates (~40% more CPU for the same reingest).
// As the history grows: each reingest is cut into quarters of its operations, and the rate of the
// last quarter is printed against the first one's (the same run's baseline; the target is 0.8,
// "within 20% of flat"), with the process's peak RSS (PGlite's heap lives in this process).
// Bytes per operation, steadier than any rate on a shared machine: the WAL written, and for PGlite
// what this process handed to write() (WAL and data files), which the disk must take back.
// Run: npx tsx bench/ingest.ts [ledgers=100] [txPerLedger=1000] [opsPerTx=1] [kinds=pglite,postgresql] [workers=both|default]
// BENCH_DATASTORE=DIR keeps the generated ledgers in DIR and reuses them when DIR already holds
// them (generating 400 ledgers of 1,000 transactions takes minutes).
// PostgreSQL: TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); a fresh
// database is created and dropped.
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import type { LedgerRows } from '../src/ingest/index.js';
import { createServerDatabase, dropServerDatabase } from '../test/support/database.js';
import { generateTraffic } from '../test/ingest/support/traffic.js';

const PASSPHRASE = 'Zenith Ingest Bench Network';
const LEDGERS = Number(process.argv[2] ?? 100);
const TX_PER_LEDGER = Number(process.argv[3] ?? 1000);
const OPS_PER_TX = Number(process.argv[4] ?? 1);
// pglite: as Zenith opens it; pglite-defaults: without Zenith's checkpoints (PGlite alone never checkpoints), the baseline;
// pglite-memory: in memory, as Zenith opens it
const KINDS = (process.argv[5] ?? 'pglite-defaults,pglite,postgresql').split(',');
const WORKER_RUNS = process.argv[6] ?? 'both';
/** issue #22's rate for a reingest into PostgreSQL (PGlite's target is its flatness, below) */
const TARGET_OPS = 25_000;
/** the last quarter's rate over the first's: "within 20% of flat" */
const TARGET_GROWTH = 0.8;

execSync('npm run --silent build', { cwd: new URL('..', import.meta.url), stdio: 'inherit' });
const built = (file: string) => new URL(`../dist/${file}`, import.meta.url).href;
const { datastoreSource, ledgerRows, reingestRange } = (await import(built('ingest/index.js'))) as typeof import('../src/ingest/index.js');
const { readBatchLedgers, viewLedgerBytes } = (await import(built('meta/index.js'))) as typeof import('../src/meta/index.js');
const { networkId } = (await import(built('stellar/index.js'))) as typeof import('../src/stellar/index.js');
const { defaultEncodeWorkers } = (await import(
  built('ingest/encode/parallel_encode.js')
)) as typeof import('../src/ingest/encode/parallel_encode.js');

// only the figures are kept: a heap holding every ledger's rows would slow this process's
// garbage collection during the reingests measured after it
async function timePhases(folder: string): Promise<{ scanMs: number; rowsMs: number; operations: number }> {
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.xdr.zst'))
    .sort();
  const t0 = performance.now();
  const network = networkId(PASSPHRASE);
  const views = [];
  for (const f of files)
    for (const raw of await readBatchLedgers(readFileSync(path.join(folder, f)))) views.push(viewLedgerBytes(raw, network));
  const t1 = performance.now();
  // as a reingest builds them: history only (the transactions are decoded here: the views only scanned them)
  const rows: LedgerRows[] = views.map((v) => ledgerRows(v, [], { state: false }));
  const t2 = performance.now();
  return { scanMs: t1 - t0, rowsMs: t2 - t1, operations: rows.reduce((n, r) => n + r.operations.length, 0) };
}

/** CPU time (ms) of the server processes serving this database, from /proc (Linux, local server) */
async function serverCpuMs(db: Database): Promise<number | null> {
  if (db.kind !== 'postgres' || !existsSync('/proc/self/stat')) return null;
  const rows = await db.session((s) => s.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()'));
  let ms = 0;
  for (const { pid } of rows) {
    try {
      // utime and stime are fields 14 and 15, in clock ticks (100 per second on Linux)
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ms += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return null; // another host, or no access
    }
  }
  return ms;
}

/** the WAL insert position, in bytes (the same on PGlite and PostgreSQL) */
async function walPosition(db: Database): Promise<number> {
  const [row] = await db.session((s) =>
    s.query<{ bytes: number }>(`SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::float8 AS bytes`),
  );
  return row!.bytes;
}

/** bytes this process handed to write() (Linux; PGlite writes its WAL and data files from this process) */
function processWrittenBytes(): number | null {
  if (!existsSync('/proc/self/io')) return null;
  const line = readFileSync('/proc/self/io', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('wchar:'));
  return line ? Number(line.slice('wchar:'.length)) : null;
}

interface Sample {
  operations: number;
  ms: number;
  rss: number;
  /** V8's heap in use, and the memory JS objects hold outside it (buffers, WebAssembly memory) */
  heapUsed: number;
  external: number;
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** ops/s and peak RSS of each quarter of the operations written */
function quarters(
  samples: readonly Sample[],
  total: number,
): { opsPerSecond: number; peakRssMb: number; atPeak: { heapUsedMb: number; externalMb: number } }[] {
  const out = [];
  let start: Sample = { operations: 0, ms: 0, rss: 0, heapUsed: 0, external: 0 };
  for (let q = 1; q <= 4; q++) {
    const inQuarter = samples.filter((s) => s.operations > start.operations && s.operations <= (total * q) / 4 + 1);
    const end = inQuarter.at(-1);
    if (!end) continue;
    const peak = inQuarter.reduce((a, b) => (b.rss > a.rss ? b : a));
    out.push({
      opsPerSecond: Math.round((end.operations - start.operations) / ((end.ms - start.ms) / 1000)),
      peakRssMb: mb(peak.rss),
      atPeak: { heapUsedMb: mb(peak.heapUsed), externalMb: mb(peak.external) },
    });
    start = end;
  }
  return out;
}

async function run(name: string, db: Database, folder: string, last: number, workers: number) {
  const server0 = await serverCpuMs(db);
  const wal0 = await walPosition(db);
  const written0 = processWrittenBytes();
  // what the process held before: the ledgers' generation, earlier runs
  const rssBefore = process.memoryUsage.rss();
  const cpu0 = process.cpuUsage();
  const samples: Sample[] = [];
  const result = await reingestRange({
    db,
    source: datastoreSource(folder),
    networkPassphrase: PASSPHRASE,
    from: 2,
    to: last,
    workers,
    onProgress: (p) => {
      const { rss, heapUsed, external } = process.memoryUsage();
      samples.push({ operations: p.operations, ms: p.elapsedMs, rss, heapUsed, external });
    },
  });
  const cpu = process.cpuUsage(cpu0);
  const server1 = await serverCpuMs(db);
  const wal1 = await walPosition(db);
  const written1 = processWrittenBytes();
  const seconds = result.elapsedMs / 1000;
  const curve = quarters(samples, result.operations);
  return {
    database: name,
    workers,
    ledgers: result.ledgers,
    operations: result.operations,
    seconds: +seconds.toFixed(2),
    ledgersPerSecond: +(result.ledgers / seconds).toFixed(1),
    operationsPerSecond: Math.round(result.operations / seconds),
    // PGlite runs in this process, so its work is part of processCpuMs
    processCpuMs: Math.round((cpu.user + cpu.system) / 1000),
    serverCpuMs: server0 === null || server1 === null ? null : server1 - server0,
    // bytes per operation: far steadier between runs than the rate, which follows the machine
    walBytesPerOperation: Math.round((wal1 - wal0) / result.operations),
    ...(db.kind === 'pglite' && written0 !== null && written1 !== null
      ? { writtenBytesPerOperation: Math.round((written1 - written0) / result.operations) }
      : {}),
    quarterOpsPerSecond: curve.map((q) => q.opsPerSecond),
    rssBeforeMb: mb(rssBefore),
    quarterPeakRssMb: curve.map((q) => q.peakRssMb),
    quarterPeakBreakdownMb: curve.map((q) => q.atPeak),
    lastToFirstQuarter: +(curve.at(-1)!.opsPerSecond / curve[0]!.opsPerSecond).toFixed(2),
  };
}

/** bytes of the files under a folder */
function folderBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return bytes;
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), 'zenith-bench-ingest-'));
  const folder = process.env.BENCH_DATASTORE ?? path.join(work, 'datastore');
  const summary = path.join(folder, 'bench-traffic.json');
  try {
    const g0 = performance.now();
    const wanted = { ledgers: LEDGERS, txPerLedger: TX_PER_LEDGER, opsPerTx: OPS_PER_TX };
    const kept = existsSync(summary) ? (JSON.parse(readFileSync(summary, 'utf8')) as typeof wanted & { lastLedger: number }) : null;
    let traffic: { lastLedger: number };
    if (kept && kept.ledgers === LEDGERS && kept.txPerLedger === TX_PER_LEDGER && kept.opsPerTx === OPS_PER_TX) {
      traffic = kept;
      console.error(`reusing the ledgers 2..${kept.lastLedger} of ${folder}`);
    } else {
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder, { recursive: true });
      traffic = await generateTraffic({
        passphrase: PASSPHRASE,
        metaOutDir: folder,
        ledgers: LEDGERS + 1,
        txPerLedger: TX_PER_LEDGER,
        opsPerTx: OPS_PER_TX,
      });
      writeFileSync(summary, JSON.stringify({ ...wanted, lastLedger: traffic.lastLedger }));
      console.error(`generated ledgers 2..${traffic.lastLedger} in ${((performance.now() - g0) / 1000).toFixed(1)} s`);
    }
    const results = [];
    const workers = defaultEncodeWorkers();
    for (const kind of KINDS) {
      for (const w of WORKER_RUNS === 'both' ? [0, workers] : [workers]) {
        // a fresh database each time: the baseline and the measured run start equal
        const url = kind === 'postgresql' ? await createServerDatabase() : null;
        const dataDir = path.join(work, `${kind}-${w}`);
        const db = url
          ? await openDatabase({ kind: 'postgres', url })
          : await openDatabase(
              kind === 'pglite-memory' ? { kind: 'pglite', inMemory: true } : { kind: 'pglite', dataDir },
              kind === 'pglite-defaults' ? { pgliteCheckpointWalBytes: Number.POSITIVE_INFINITY } : {},
            );
        try {
          await migrate(db);
          const result = await run(kind, db, folder, traffic.lastLedger, w);
          const onDisk = existsSync(dataDir) ? { dataDirMb: mb(folderBytes(dataDir)) } : {};
          results.push({ ...result, ...onDisk });
        } finally {
          await db.close();
          if (url) await dropServerDatabase(url);
          rmSync(dataDir, { recursive: true, force: true });
        }
      }
    }
    const pgliteBaseline = results.find((r) => r.database === 'pglite-defaults');
    // after the reingests: these passes hold every ledger's bytes, which would stay in the RSS measured
    // (and over 100 ledgers they take minutes: left out); the first pass warms the JIT and the StrKey cache
    if (LEDGERS <= 100) await timePhases(folder);
    const phases = LEDGERS <= 100 ? await timePhases(folder) : null;
    for (const r of results) {
      const baseline = results.find((b) => b.database === r.database && b.workers === 0);
      console.log(
        JSON.stringify({
          ...r,
          ...(baseline ? { ratioToInThread: +(r.operationsPerSecond / baseline.operationsPerSecond).toFixed(2) } : {}),
          ...(pgliteBaseline && r.database.startsWith('pglite') && r !== pgliteBaseline
            ? {
                ratioToPgliteDefaults: +(r.operationsPerSecond / pgliteBaseline.operationsPerSecond).toFixed(2),
                peakRssToPgliteDefaults: +(Math.max(...r.quarterPeakRssMb) / Math.max(...pgliteBaseline.quarterPeakRssMb)).toFixed(2),
              }
            : {}),
          ...(r.database === 'postgresql'
            ? { targetOpsPerSecond: TARGET_OPS, ratioToTarget: +(r.operationsPerSecond / TARGET_OPS).toFixed(2) }
            : {}),
          growthRatioToTarget: +(r.lastToFirstQuarter / TARGET_GROWTH).toFixed(2),
        }),
      );
    }
    console.log(
      `load average while measuring: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    if (phases) {
      const ops = phases.operations;
      console.log(
        JSON.stringify({
          phasesWithoutDatabase: {
            operations: ops,
            readDecompressScanMs: Math.round(phases.scanMs),
            decodeAndBuildRowsMs: Math.round(phases.rowsMs),
            scanOpsPerSecond: Math.round(ops / (phases.scanMs / 1000)),
            decodeAndBuildRowsOpsPerSecond: Math.round(ops / (phases.rowsMs / 1000)),
          },
        }),
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
