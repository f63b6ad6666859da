// GET /health, Horizon's health check (internal/health.go): whether the database answers a ping
// and the core answers /info and is synced; 200 when all three hold, else 503. The answer is
// reused for 500 ms, as Horizon's cache does, so a load balancer's polling costs little.
// With --health-max-ledger-age (off by default: Horizon has no such check) the ping is the age of
// the last ingested ledger, read where the API reads (a replica's own lag counts), and a ledger
// older than that, or none, is a fourth failure (`history_fresh`): a load balancer then leaves out
// a process whose answers would be stale. One small query either way, bounded by the ping's timeout.
import type { ApiServices } from '../context.js';
import { problems, sendProblem } from '../problems.js';
import type { RequestHandler } from './router.js';

export interface Health {
  database_connected: boolean;
  core_up: boolean;
  core_synced: boolean;
  /** present when the ledger's age is checked */
  history_fresh?: boolean;
}

type HealthServices = Pick<ApiServices, 'db' | 'coreInfo' | 'config'>;

const HEALTH_CACHE_TTL_MS = 500;
const DB_PING_TIMEOUT_MS = 5000;

/** One check: the database pinged (within Horizon's 5 s), the core's /info read. */
export async function checkHealth(services: HealthServices): Promise<Health> {
  const maxAge = services.config.healthMaxLedgerAge ?? 0;
  const [database, core] = await Promise.all([ping(services, maxAge, DB_PING_TIMEOUT_MS), services.coreInfo().catch(() => null)]);
  const health: Health = { database_connected: database.connected, core_up: core !== null, core_synced: core?.synced === true };
  if (maxAge > 0) health.history_fresh = database.ledgerAge !== null && database.ledgerAge <= maxAge;
  return health;
}

interface Ping {
  connected: boolean;
  /** seconds since the last ingested ledger closed; null when not asked or none is ingested */
  ledgerAge: number | null;
}

async function ping(services: HealthServices, maxAge: number, timeoutMs: number): Promise<Ping> {
  const down: Ping = { connected: false, ledgerAge: null };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Ping>((resolve) => {
    timer = setTimeout(() => resolve(down), timeoutMs);
  });
  const { prisma } = services.db;
  // closed_at holds UTC without a zone; the database's clock measures the age
  const query =
    maxAge > 0
      ? prisma.$queryRaw<{ age: number }[]>`
          SELECT EXTRACT(EPOCH FROM (now() AT TIME ZONE 'UTC') - l.closed_at)::float8 AS age
            FROM ingest_cursor c JOIN history_ledgers l ON l.sequence = c.ledger_sequence WHERE c.id = 1`.then((rows) => ({
          connected: true,
          ledgerAge: rows[0] ? Number(rows[0].age) : null,
        }))
      : prisma.$queryRaw`SELECT 1`.then(() => ({ connected: true, ledgerAge: null }));
  try {
    return await Promise.race([query, timeout]);
  } catch {
    return down;
  } finally {
    clearTimeout(timer);
  }
}

export function isHealthy(health: Health): boolean {
  return health.database_connected && health.core_up && health.core_synced && health.history_fresh !== false;
}

export function createHealthHandler(services: HealthServices, options: { ttlMs?: number; now?: () => number } = {}): RequestHandler {
  const ttl = options.ttlMs ?? HEALTH_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  // the last check and when it started; requests meanwhile share it (in flight or done)
  let cached: { at: number; health: Promise<Health> } | null = null;
  return async (req, res, url) => {
    if (url.pathname.replace(/\/$/, '') !== '/health') return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendProblem(res, problems.methodNotAllowed(['GET']));
      return true;
    }
    if (!cached || now() - cached.at > ttl) cached = { at: now(), health: checkHealth(services) };
    const health = await cached.health;
    // Horizon encodes it with Go's json.Encoder: one line
    const body = `${JSON.stringify(health)}\n`;
    res.writeHead(isHealthy(health) ? 200 : 503, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
    return true;
  };
}
