// Load shedding over real HTTP (src/api/admission.ts): requests held in their handler fill the
// slots, one more waits in the queue, and past the queue or its wait the answer is a 503 problem
// with Retry-After, never a hang; a client that leaves while it waits frees its place.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAdmission, type Admission } from '../../src/api/admission.js';

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = null;
});

/** A server whose every request, once admitted, waits until `release()`. */
async function heldServer(limits: { maxConcurrentRequests: number; maxQueuedRequests: number; maxRequestWaitMs: number }) {
  const admission: Admission = createAdmission(limits);
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  server = createServer((_req, res) => {
    void admission.run(res, async () => {
      await gate;
      res.end('served');
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
  return { admission, url, release };
}

const answer = async (response: Response) => ({
  status: response.status,
  retryAfter: response.headers.get('retry-after'),
  body: await response.text(),
});

describe('admission', () => {
  it('answers 503 with Retry-After once the slots and the queue are full, and serves the rest when freed', async () => {
    const { admission, url, release } = await heldServer({ maxConcurrentRequests: 1, maxQueuedRequests: 1, maxRequestWaitMs: 60_000 });
    const running = fetch(url).then(answer);
    await vi.waitFor(() => expect(admission.running).toBe(1));
    const queued = fetch(url).then(answer);
    await vi.waitFor(() => expect(admission.waiting).toBe(1));

    const shed = await answer(await fetch(url));
    expect(shed.status).toBe(503);
    expect(shed.retryAfter).toBe('1');
    expect(JSON.parse(shed.body)).toMatchObject({ type: 'https://stellar.org/horizon-errors/service_unavailable', status: 503 });

    release();
    expect(await running).toMatchObject({ status: 200, body: 'served' });
    expect(await queued).toMatchObject({ status: 200, body: 'served' });
  });

  it('answers 503 with Retry-After to a request that waited its longest', async () => {
    const { admission, url, release } = await heldServer({ maxConcurrentRequests: 1, maxQueuedRequests: 10, maxRequestWaitMs: 50 });
    const running = fetch(url).then(answer);
    await vi.waitFor(() => expect(admission.running).toBe(1));
    const waited = await answer(await fetch(url));
    expect(waited.status).toBe(503);
    expect(waited.retryAfter).toBe('1');
    expect(JSON.parse(waited.body).detail).toMatch(/waited 50 ms/);
    expect(admission.waiting).toBe(0);
    release();
    expect(await running).toMatchObject({ status: 200 });
  });

  it('drops a waiting request whose client left, so the next one takes its place', async () => {
    const { admission, url, release } = await heldServer({ maxConcurrentRequests: 1, maxQueuedRequests: 1, maxRequestWaitMs: 60_000 });
    const running = fetch(url).then(answer);
    await vi.waitFor(() => expect(admission.running).toBe(1));
    const leaving = new AbortController();
    const left = fetch(url, { signal: leaving.signal }).catch((error: unknown) => error);
    await vi.waitFor(() => expect(admission.waiting).toBe(1));
    leaving.abort();
    await left;
    await vi.waitFor(() => expect(admission.waiting).toBe(0));

    const next = fetch(url).then(answer);
    await vi.waitFor(() => expect(admission.waiting).toBe(1));
    release();
    expect(await running).toMatchObject({ status: 200 });
    expect(await next).toMatchObject({ status: 200, body: 'served' });
  });
});
