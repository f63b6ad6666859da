// Runs the real `zenith` command line (TypeScript sources through tsx's loader) as a child process,
// and drives what it serves without counting on time: a manually closed ledger is waited for as an
// event of a stream, a process by the line it logs.
import { fileURLToPath } from 'node:url';
import { type Account, type Keypair, TransactionBuilder, type xdr } from '@stellar/stellar-sdk/base';
import { expect } from 'vitest';
import { type ProcessResult, spawnProcess, type TestProcess, type WaitOptions } from './processes.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export type CliResult = ProcessResult;
export type { TestProcess } from './processes.js';

/**
 * `zenith <args>` in a process group of its own. Node runs src/main.ts itself (tsx as a loader,
 * not the tsx command that would run it as a second process): a signal sent to the group reaches
 * zenith once, and its exit code and signal are the child's own.
 */
export function spawnZenith(args: string[], env: NodeJS.ProcessEnv = {}): TestProcess {
  return spawnProcess(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
  });
}

/**
 * `zenith start` with ledgers closed only on /manualclose, on free ports (the API's and the core's),
 * its core in `dataDir` and its history in the PostgreSQL database of `databaseUrl` (empty: PGlite in `dataDir`).
 */
export function spawnManualStart(dataDir: string, databaseUrl: string, ...flags: string[]): TestProcess {
  return spawnZenith([
    'start',
    '--port',
    '0',
    '--core-port',
    '0',
    '--manual-close',
    '--data-dir',
    dataDir,
    ...(databaseUrl ? ['--database-url', databaseUrl] : []),
    ...flags,
  ]);
}

export function runZenith(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return spawnZenith(args, env).done;
}

/** The whole output and the exit, once the process is gone. */
export function collect(child: TestProcess): Promise<CliResult> {
  return child.done;
}

/** The first stdout line (already written or to come) that matches; rejects if the process exits first. */
export function waitForLine(child: TestProcess, pattern: RegExp, options: WaitOptions = {}): Promise<string> {
  return child.waitForLine(pattern, options);
}

/** The port in a "Zenith is serving" log line, once the process logged it. */
export async function servingPort(child: TestProcess): Promise<number> {
  return (JSON.parse(await child.waitForLine(/Zenith is serving/)) as { port: number }).port;
}

/** The embedded core's command port, once `zenith start` or `zenith core` logged it. */
export async function corePort(child: TestProcess): Promise<number> {
  return (JSON.parse(await child.waitForLine(/core commands on/)) as { corePort: number }).corePort;
}

/** GET /manualclose on a core started with --manual-close; the sequence of the ledger it closed. */
export async function closeLedger(corePortNumber: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${corePortNumber}/manualclose`);
  const text = await response.text();
  const sequence = /sequence number (\d+)/.exec(text)?.[1];
  if (!response.ok || sequence === undefined) throw new Error(`/manualclose answered ${response.status}: ${text}`);
  return Number(sequence);
}

/**
 * One transaction of `operations` from `source` (its sequence number advanced), signed by `signer`,
 * handed to a core's /tx, which must take it (PENDING): it is in the next ledger the core closes.
 */
export async function submitToCore(
  corePortNumber: number,
  networkPassphrase: string,
  source: Account,
  signer: Keypair,
  operations: xdr.Operation[],
): Promise<void> {
  const builder = new TransactionBuilder(source, { fee: '100', networkPassphrase }).setTimeout(0);
  for (const operation of operations) builder.addOperation(operation);
  const tx = builder.build();
  tx.sign(signer);
  const answer = await fetch(`http://127.0.0.1:${corePortNumber}/tx?blob=${encodeURIComponent(tx.toXDR())}`);
  expect(((await answer.json()) as { status: string }).status).toBe('PENDING');
}

/**
 * Closes ledgers one at a time until `pending` settles, each close followed by the wait for its
 * ledger on `ledgers` (a /ledgers stream of the API that answers `pending`: once the ledger is
 * there, the API has heard of it). Whatever `pending` waits for (a submission that reaches the
 * core some time after its request) is in the next ledger closed after it arrived. Returns the
 * settled value and the ledgers closed.
 */
export async function closeLedgersUntil<T>(
  pending: Promise<T>,
  corePortNumber: number,
  ledgers: EventStream,
): Promise<{ value: T; closed: number[] }> {
  let settled = false;
  const watched = pending.finally(() => {
    settled = true;
  });
  watched.catch(() => {}); // its rejection is the caller's, through `await watched` below
  const closed: number[] = [];
  while (!settled) {
    const sequence = await closeLedger(corePortNumber);
    closed.push(sequence);
    await ledgers.next((ledger) => ledger.sequence === sequence);
  }
  return { value: await watched, closed };
}

export type EventData = Record<string, unknown>;

/**
 * A server-sent event stream read in the background: every event's data is kept, and `next` finds
 * the first one (received or to come) that matches. Opened once the response's headers came
 * (for `cursor=now`, the server has fixed where the stream starts by then).
 */
export class EventStream {
  readonly events: EventData[] = [];
  private readonly controller = new AbortController();
  private ended: Error | null = null;
  private readonly watchers = new Set<() => void>();

  private constructor() {}

  static async open(url: string): Promise<EventStream> {
    const stream = new EventStream();
    const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: stream.controller.signal });
    if (response.status !== 200 || !response.body) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
    void stream.read(response.body);
    return stream;
  }

  /** The first event whose data matches (already received or to come); rejects if the stream ends first. */
  next(matches: (data: EventData) => boolean = () => true): Promise<EventData> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.events.find(matches);
        if (found) {
          this.watchers.delete(check);
          resolve(found);
        } else if (this.ended) {
          this.watchers.delete(check);
          reject(this.ended);
        }
      };
      this.watchers.add(check);
      check();
    });
  }

  close(): void {
    this.controller.abort();
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        buffer += decoder.decode(chunk.value, { stream: true });
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (data && !/^event: open$/m.test(block)) this.events.push(JSON.parse(data.slice(6)) as EventData);
        }
        this.notify();
      }
      this.ended = new Error('the stream ended');
    } catch (error) {
      this.ended = error instanceof Error ? error : new Error(String(error));
    }
    this.notify();
  }

  private notify(): void {
    for (const watcher of [...this.watchers]) watcher();
  }
}

/** Ctrl-C to each process at once: each must exit 0 by itself (SIGKILL after the grace period would show as `forced`). */
export async function stopCleanly(...children: TestProcess[]): Promise<void> {
  const results = await Promise.all(children.map((child) => child.stop('SIGINT')));
  for (const result of results) expect({ code: result.code, forced: result.forced }, result.stderr).toEqual({ code: 0, forced: false });
}
