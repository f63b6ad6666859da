// `zenith start` under a burst it cannot serve (issue 19, overload): with one request served at a
// time and two waiting, bursts of concurrent reads get 503 problems with Retry-After, every request
// is answered (no timeout, no reset), /health answers 200 throughout and the embedded core keeps
// closing ledgers that the ingester keeps committing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EventStream, servingPort, spawnZenith, stopCleanly } from '../support/cli.js';
import { stopAllProcesses } from '../support/processes.js';

const dataDir = mkdtempSync(join(tmpdir(), 'zenith-overload-'));
afterAll(async () => {
  await stopAllProcesses();
  rmSync(dataDir, { recursive: true, force: true });
});

// generous: a bound on a hang, not a measure of speed (the machine may be loaded)
const ANSWER_WITHIN_MS = 30_000;
const BURST = 40;

describe('zenith start under overload', () => {
  it('sheds a burst with 503 + Retry-After while /health answers and ledgers keep closing', { timeout: 180_000 }, async () => {
    const child = spawnZenith([
      'start',
      '--port=0',
      '--core-port=0',
      `--data-dir=${dataDir}`,
      '--close-interval=1000',
      '--per-hour-rate-limit=0',
      '--max-concurrent-requests=1',
      '--max-queued-requests=2',
      '--max-request-wait=10000',
    ]);
    const url = `http://127.0.0.1:${await servingPort(child)}`;
    // a stream is not queued: it sees every ledger the ingester commits during the bursts
    const ledgers = await EventStream.open(`${url}/ledgers?cursor=now`);
    const first = Number((await ledgers.next()).sequence);

    const answers: { status: number; retryAfter: string | null; type?: string }[] = [];
    const health: number[] = [];
    let bursting = true;
    const get = async (path: string) => {
      const response = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
      const body = (await response.json()) as { type?: string };
      return { status: response.status, retryAfter: response.headers.get('retry-after'), type: body.type };
    };
    const bursts = (async () => {
      while (bursting) {
        answers.push(...(await Promise.all(Array.from({ length: BURST }, () => get('/ledgers?order=desc&limit=200')))));
      }
    })();
    const probes = (async () => {
      while (bursting) {
        health.push((await get('/health')).status);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    // three more ledgers closed and ingested while the bursts go on
    await ledgers.next((ledger) => Number(ledger.sequence) >= first + 3);
    bursting = false;
    await Promise.all([bursts, probes]);
    ledgers.close();

    const shed = answers.filter((a) => a.status === 503);
    expect(shed.length).toBeGreaterThan(0);
    for (const a of shed)
      expect(a).toEqual({ status: 503, retryAfter: '1', type: 'https://stellar.org/horizon-errors/service_unavailable' });
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((status) => status === 200)).toBe(true);
    await stopCleanly(child);
  });
});
