// GET /health, Horizon's health check (internal/health.go): whether the database answers a ping
// and the core answers /info and is synced; 200 when all three hold, else 503. The answer is
// reused for 500 ms, as Horizon's cache does, so a load balancer's polling costs little.
import type { ApiServices } from '../context.js';
import { problems, sendProblem } from '../problems.js';
import type { RequestHandler } from './router.js';

export interface Health {
  database_connected: boolean;
  core_up: boolean;
  core_synced: boolean;
}

const HEALTH_CACHE_TTL_MS = 500;
const DB_PING_TIMEOUT_MS = 5000;

/** One check: the database pinged (within Horizon's 5 s), the core's /info read. */
export async function checkHealth(services: Pick<ApiServices, 'db' | 'coreInfo'>): Promise<Health> {
  const [databaseConnected, core] = await Promise.all([ping(services, DB_PING_TIMEOUT_MS), services.coreInfo().catch(() => null)]);
  return { database_connected: databaseConnected, core_up: core !== null, core_synced: core?.synced === true };
}

async function ping(services: Pick<ApiServices, 'db'>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([services.db.prisma.$queryRaw`SELECT 1`.then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export function isHealthy(health: Health): boolean {
  return health.database_connected && health.core_up && health.core_synced;
}

export function createHealthHandler(
  services: Pick<ApiServices, 'db' | 'coreInfo'>,
  options: { ttlMs?: number; now?: () => number } = {},
): RequestHandler {
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
