// One function opens the configured database: PostgreSQL when a URL is given, otherwise PGlite
// (embedded PostgreSQL) in a folder, or in memory. The same generated Prisma client serves both
// through its driver adapters. Beside Prisma, `sql` runs plain SQL on the same driver: scripts
// with several statements (migrations), and the bulk statements of the ingester.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../generated/prisma/client.js';
import { lockFolder } from '../support/folder_lock.js';

export type DatabaseTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string } | { kind: 'pglite'; inMemory: true };

/** Plain SQL on one connection. */
export interface SqlSession {
  query<Row extends object = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** runs a script of one or more statements, without parameters */
  exec(script: string): Promise<void>;
  /**
   * `COPY … FROM STDIN` with the chunks of `data`, in order, as its input: bulk loads without the
   * cost of parsing parameters. Optional: callers fall back to INSERT when a session lacks it.
   */
  copyFrom?(statement: string, data: readonly Uint8Array[]): Promise<void>;
}

export interface Database {
  readonly kind: 'postgres' | 'pglite';
  readonly prisma: PrismaClient;
  /** runs `work` on one connection inside BEGIN … COMMIT (ROLLBACK when it throws) */
  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  /** runs `work` on one connection, without a transaction */
  session<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  /** the connections held and the callers waiting for one (PGlite: one connection, busy while a query runs) */
  connections(): { total: number; idle: number; waiting: number };
  /**
   * PostgreSQL only: a connection of its own, outside the pool, for what lives as long as a
   * connection does (a session advisory lock); its end is reported, not thrown.
   */
  connect?(): Promise<DedicatedConnection>;
  close(): Promise<void>;
}

export interface DedicatedConnection extends SqlSession {
  /** resolves once the connection is gone: closed by the server, broken, or closed here */
  readonly ended: Promise<void>;
  close(): Promise<void>;
}

export function databaseTarget(options: { databaseUrl: string | null; dataDir: string }): DatabaseTarget {
  if (options.databaseUrl) return { kind: 'postgres', url: options.databaseUrl };
  return { kind: 'pglite', dataDir: resolve(options.dataDir, 'db') };
}

/** where the data lives, for logs; never the password of a URL */
export function describeTarget(target: DatabaseTarget): string {
  if (target.kind === 'postgres') {
    const url = new URL(target.url);
    return `postgres://${url.host}${url.pathname}`;
  }
  return 'dataDir' in target ? target.dataDir : 'memory';
}

export interface OpenOptions {
  /** called with every SQL statement Prisma sends (tests count them; off by default) */
  onQuery?: (sql: string) => void;
  /** PGlite only: WAL bytes between checkpoints (default PGLITE_CHECKPOINT_WAL_BYTES; Infinity: none, PGlite's own behaviour) */
  pgliteCheckpointWalBytes?: number;
}

/**
 * WAL written since the last checkpoint after which a PGlite commit is followed by a CHECKPOINT.
 * A single backend never checkpoints by itself (PostgreSQL's checkpointer does it once max_wal_size
 * of WAL is written, and PGlite has none), so without this pg_wal grew by every byte ever written
 * (~4.6 KB per payment operation) until the database was closed, in memory or on disk.
 */
export const PGLITE_CHECKPOINT_WAL_BYTES = 256 * 2 ** 20;

export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  return target.kind === 'postgres' ? openPostgres(target.url, options) : openPglite(target, options);
}

function newPrisma(adapter: PrismaPg | PrismaPGlite, options: OpenOptions): PrismaClient {
  const { onQuery } = options;
  if (!onQuery) return new PrismaClient({ adapter });
  const prisma = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  prisma.$on('query', (event) => onQuery(event.query));
  // the same client with query events on; its type differs only in what $on accepts
  return prisma as unknown as PrismaClient;
}

async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client's error (the server restarted) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const prisma = newPrisma(new PrismaPg(pool), options);

  const session = async <T>(work: (s: SqlSession) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      return await work(pgSession(client));
    } finally {
      client.release();
    }
  };

  return {
    kind: 'postgres',
    prisma,
    session,
    connections: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    transaction: (work) =>
      session(async (s) => {
        await s.exec('BEGIN');
        try {
          const result = await work(s);
          await s.exec('COMMIT');
          return result;
        } catch (error) {
          await s.exec('ROLLBACK');
          throw error;
        }
      }),
    connect: () => connectDedicated(url),
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

// keepAlive: a peer that vanished without closing (a broken network) is noticed by the kernel's probes
async function connectDedicated(url: string): Promise<DedicatedConnection> {
  const client = new pg.Client({ connectionString: url, keepAlive: true });
  let markEnded: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    markEnded = resolve;
  });
  // an error on an idle client would crash the process if nobody listened; it ends the connection
  client.on('error', () => {
    markEnded();
    void client.end().catch(() => {});
  });
  client.on('end', () => markEnded());
  try {
    await client.connect();
  } catch (error) {
    markEnded();
    throw error;
  }
  return {
    ...pgSession(client),
    ended,
    async close() {
      await client.end().catch(() => {});
      markEnded();
    },
  };
}

/** The messages node-postgres hands to the active query (a "submittable"); only what COPY needs. */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/** A COPY FROM STDIN run through node-postgres' submittable hook (no extra driver needed). */
class CopyIn {
  private error: Error | null = null;
  readonly done: Promise<void>;
  private settle!: (error: Error | null) => void;

  constructor(
    private readonly text: string,
    private readonly data: readonly Uint8Array[],
  ) {
    this.done = new Promise((resolve, reject) => {
      this.settle = (error) => (error ? reject(error) : resolve());
    });
  }

  submit(connection: CopyConnection): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    for (const data of this.data) {
      const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      // CopyData messages of at most 1 MiB keep the socket's buffers small
      for (let i = 0; i < bytes.length; i += 1 << 20) connection.sendCopyFromChunk(bytes.subarray(i, i + (1 << 20)));
    }
    connection.endCopyFrom();
  }

  handleError(error: Error): void {
    this.error ??= error;
    this.settle(this.error);
  }

  handleReadyForQuery(): void {
    this.settle(this.error);
  }

  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

function pgSession(client: pg.ClientBase): SqlSession {
  return {
    async copyFrom(statement, data) {
      const copy = new CopyIn(statement, data);
      void client.query(copy as unknown as pg.QueryConfig);
      await copy.done;
    },
    async query<Row extends object>(text: string, params: readonly unknown[] = []) {
      const result = await client.query<Row>(text, params as unknown[]);
      return result.rows;
    },
    async exec(script) {
      await client.query(script);
    },
  };
}

async function openPglite(target: { dataDir: string } | { inMemory: true }, options: OpenOptions): Promise<Database> {
  let pglite: PGlite;
  let unlock = () => {};
  if ('dataDir' in target) {
    mkdirSync(target.dataDir, { recursive: true });
    unlock = lockFolder(target.dataDir);
    try {
      pglite = await PGlite.create(target.dataDir);
    } catch (error) {
      unlock();
      throw error;
    }
  } else {
    pglite = await PGlite.create();
  }
  const inFlight = countInFlight(pglite);
  const afterCommit = checkpointer(pglite, options.pgliteCheckpointWalBytes ?? PGLITE_CHECKPOINT_WAL_BYTES);
  const prisma = newPrisma(new PrismaPGlite(pglite), options);
  const session: SqlSession = {
    async query<Row extends object>(text: string, params: readonly unknown[] = []) {
      const result = await pglite.query<Row>(text, params as unknown[]);
      return result.rows;
    },
    async exec(script) {
      await pglite.exec(script);
    },
    copyFrom: (statement, data) => pgliteCopy(pglite, statement, data),
  };

  return {
    kind: 'pglite',
    prisma,
    connections: () => {
      const calls = inFlight();
      return { total: 1, idle: calls === 0 ? 1 : 0, waiting: Math.max(0, calls - 1) };
    },
    // PGlite has a single connection: its own transaction() serializes with other work on it.
    session: (work) => work(session),
    async transaction(work) {
      const result = await pglite.transaction((tx) =>
        work({
          async query<Row extends object>(text: string, params: readonly unknown[] = []) {
            return (await tx.query<Row>(text, params as unknown[])).rows;
          },
          async exec(script) {
            await tx.exec(script);
          },
          copyFrom: (statement, data) => pgliteCopy(tx, statement, data),
        }),
      );
      await afterCommit();
      return result;
    },
    async close() {
      await prisma.$disconnect();
      await pglite.close();
      unlock();
    },
  };
}

/** After a commit: a CHECKPOINT once `walBytes` of WAL were written since the last one (it also recycles pg_wal's segments). */
function checkpointer(pglite: PGlite, walBytes: number): () => Promise<void> {
  if (!Number.isFinite(walBytes)) return async () => {};
  let since: string | null = null;
  return async () => {
    if (since === null) {
      since = (await pglite.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0]!.lsn;
      return;
    }
    const [row] = (
      await pglite.query<{ bytes: number; lsn: string }>(
        'SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn)::float8 AS bytes, pg_current_wal_insert_lsn()::text AS lsn',
        [since],
      )
    ).rows;
    if (row!.bytes < walBytes) return;
    // set first: a commit finishing meanwhile does not start a second checkpoint
    since = row!.lsn;
    await pglite.exec('CHECKPOINT');
  };
}

/**
 * Counts the calls in flight on a PGlite instance (Prisma's adapter and our sessions alike): one
 * runs, the others wait for its single connection. Its public query, exec and transaction are
 * wrapped; inside, PGlite calls its private methods, so a transaction counts once.
 */
function countInFlight(pglite: PGlite): () => number {
  let calls = 0;
  const methods = pglite as unknown as Record<'query' | 'exec' | 'transaction', (...args: unknown[]) => Promise<unknown>>;
  for (const name of ['query', 'exec', 'transaction'] as const) {
    const original = methods[name].bind(pglite);
    methods[name] = async (...args) => {
      calls++;
      try {
        return await original(...args);
      } finally {
        calls--;
      }
    };
  }
  return () => calls;
}

/** PGlite reads COPY input from the virtual file /dev/blob */
async function pgliteCopy(
  target: { query(text: string, params?: unknown[], options?: { blob?: Blob }): Promise<unknown> },
  statement: string,
  data: readonly Uint8Array[],
): Promise<void> {
  const text = statement.replace(/\bFROM\s+STDIN\b/i, "FROM '/dev/blob'");
  await target.query(text, [], { blob: new Blob(data as Uint8Array<ArrayBuffer>[]) });
}
