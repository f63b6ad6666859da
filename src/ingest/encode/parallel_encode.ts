// Encodes a source's ledgers for a reingest on worker threads, in order. Decoding the meta and
// building rows is most of a reingest's CPU: on worker threads it runs beside the database's work
// instead of taking turns with the main thread, which then only reads the source and talks to the
// database (so a COPY reply never waits for a ledger being built).
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { MetaError } from '../../meta/index.js';
import { siblingModule, startModuleWorker } from '../../support/module_worker.js';
import { ledgerViews, type LedgerSource } from '../sources/ledger_source.js';
import { BufferPool } from './buffer_pool.js';
import { encodeLedger, type EncodedLedger } from './encoded_ledger.js';
import { historyBuffers, recycleHistory } from './history.js';

export type EncodeRequest =
  | { id: number; raw: Uint8Array; network: Uint8Array }
  /** COPY buffers whose rows have been written, for the worker to fill again */
  | { recycle: ArrayBuffer[] };

/** `raw`: the request's buffer, handed back for the next ledger */
export type EncodeReply = { id: number; raw: ArrayBuffer } & ({ ledger: EncodedLedger } | { error: { name: string; message: string } });

/** one thread fewer than the machine has (the main thread and a local database need one), 1 to 4 */
export function defaultEncodeWorkers(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

interface Task {
  resolve: (ledger: EncodedLedger) => void;
  reject: (error: Error) => void;
}

class EncodePool {
  private readonly workers: Worker[];
  private readonly tasks = new Map<number, Task>();
  private readonly spare = new BufferPool();
  private nextId = 0;
  private failure: Error | null = null;
  private closed = false;

  constructor(
    size: number,
    private readonly network: Buffer,
  ) {
    this.workers = Array.from({ length: size }, () => {
      const worker = startModuleWorker(siblingModule('encode_worker', import.meta.url));
      worker.on('message', (reply: EncodeReply) => this.settle(reply));
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => {
        if (code !== 0) this.fail(new Error(`a ledger encoding worker exited with code ${code}`));
      });
      return worker;
    });
  }

  encode(raw: Buffer): Promise<EncodedLedger> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    // a copy of the ledger's bytes, moved to the worker (the source's buffer may hold others)
    const bytes = new Uint8Array(this.spare.take(raw.length), 0, raw.length);
    bytes.set(raw);
    const worker = this.workers[id % this.workers.length]!;
    const request: EncodeRequest = { id, raw: bytes, network: this.network };
    return new Promise<EncodedLedger>((resolve, reject) => {
      this.tasks.set(id, { resolve, reject });
      worker.postMessage(request, [bytes.buffer]);
    }).then((ledger) => {
      // once written, its COPY buffers go back to the worker that filled them
      ledger.recycle = () => {
        if (!this.closed) {
          const buffers = historyBuffers(ledger.history);
          worker.postMessage({ recycle: buffers } satisfies EncodeRequest, buffers);
        }
      };
      return ledger;
    });
  }

  private settle(reply: EncodeReply): void {
    this.spare.give(reply.raw);
    const task = this.tasks.get(reply.id);
    if (!task) return;
    this.tasks.delete(reply.id);
    if ('ledger' in reply) {
      task.resolve(reply.ledger);
    } else {
      const error = reply.error.name === 'MetaError' ? new MetaError(reply.error.message) : new Error(reply.error.message);
      if (reply.error.name !== 'MetaError') error.name = reply.error.name;
      task.reject(error);
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const task of this.tasks.values()) task.reject(error);
    this.tasks.clear();
  }

  async close(): Promise<void> {
    // tasks still running are dropped: their callers have stopped listening
    this.closed = true;
    this.tasks.clear();
    await Promise.all(this.workers.map((w) => w.removeAllListeners('exit').terminate()));
  }
}

export interface EncodeOptions {
  /** worker threads (default defaultEncodeWorkers()); 0 encodes in this thread */
  workers?: number;
  /** the last ledger wanted: no ledger after it is read from the source */
  toSequence?: number;
}

/** The source's ledgers from `fromSequence` on, encoded; on workers when the source has bytes. */
export async function* encodedLedgers(
  source: LedgerSource,
  fromSequence: number,
  network: Buffer,
  options: EncodeOptions = {},
): AsyncGenerator<EncodedLedger> {
  const workers = options.workers ?? defaultEncodeWorkers();
  if (!source.rawLedgers || workers === 0) {
    for await (const view of ledgerViews(source, fromSequence, network)) {
      const ledger = encodeLedger(view);
      ledger.recycle = () => recycleHistory(historyBuffers(ledger.history));
      yield ledger;
    }
    return;
  }
  const pool = new EncodePool(workers, network);
  const raws = source.rawLedgers(fromSequence)[Symbol.asyncIterator]();
  // a source's ledgers come in order without gaps from fromSequence (the caller checks)
  let wanted = options.toSequence === undefined ? Infinity : options.toSequence - fromSequence + 1;
  const pending: Promise<EncodedLedger>[] = [];
  try {
    for (;;) {
      // two ledgers per worker in flight keep every worker busy while results are taken in order
      while (wanted > 0 && pending.length < workers * 2) {
        const next = await raws.next();
        if (next.done) {
          wanted = 0;
          break;
        }
        wanted -= 1;
        const encoded = pending[pending.push(pool.encode(next.value)) - 1]!;
        // handled here too, so one that is never awaited (the caller stopped early) is not "unhandled"
        encoded.catch(() => {});
      }
      const head = pending.shift();
      if (!head) return;
      yield await head;
    }
  } finally {
    await raws.return?.(undefined);
    await pool.close();
  }
}
