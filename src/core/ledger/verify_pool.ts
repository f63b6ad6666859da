// ed25519 verification on worker threads, ahead of validation. A submission's likely signature
// checks (validate.ts, likelyChecks) are verified here as it arrives, and their results go into
// the frame's memo, where the SignatureChecker looks first: the checks themselves, their order and
// their outcome stay the main thread's, and any check not done here is done there, as before.
// stellar-core verifies in the background the same way, into the cache its checker reads.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { siblingModule, startModuleWorker } from '../../support/module_worker.js';
import type { PendingCheck } from './signature_checker.js';

/** a batch of checks, packed: per check a u32 message length, the key (32), the signature (64), the message */
export interface VerifyRequest {
  id: number;
  count: number;
  checks: ArrayBuffer;
}

/** one byte per check, 1 when the signature is valid */
export interface VerifyReply {
  id: number;
  results: Uint8Array;
}

/** one thread fewer than the machine has (the main thread applies the ledgers), 1 to 4 */
export function defaultVerifyThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

// checks per message: results come back while the workers go on with the next ones
const CHUNK = 128;

interface Batch {
  checks: PendingCheck[];
  resolve: () => void;
}

interface Slot {
  worker: Worker;
  outstanding: number;
}

export class VerifyPool {
  private readonly slots: Slot[];
  private readonly inFlight = new Map<number, { slot: Slot; batches: Batch[] }>();
  private waiting: Batch[] = [];
  private waitingChecks = 0;
  private flushScheduled = false;
  private nextId = 0;
  private failed = false;

  constructor(threads: number) {
    this.slots = Array.from({ length: threads }, () => {
      const worker = startModuleWorker(siblingModule('verify_worker', import.meta.url));
      const slot: Slot = { worker, outstanding: 0 };
      worker.on('message', (reply: VerifyReply) => this.settle(reply));
      worker.on('error', () => this.fail());
      worker.on('exit', () => this.fail());
      // an idle pool does not keep the process alive
      worker.unref();
      return slot;
    });
  }

  /**
   * Verifies the checks and writes each result into its memo. Resolves when done; checks a failed
   * pool cannot do are left out of the memo, for the main thread to do.
   */
  verify(checks: PendingCheck[]): Promise<void> {
    if (checks.length === 0 || this.failed) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiting.push({ checks, resolve });
      this.waitingChecks += checks.length;
      // a full chunk leaves at once, so the workers start while submissions still arrive; the rest
      // when the code submitting them yields
      if (this.waitingChecks >= CHUNK) this.flush();
      else if (!this.flushScheduled) {
        this.flushScheduled = true;
        queueMicrotask(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.waiting.length === 0) return;
    const batches = this.waiting;
    this.send(batches, this.waitingChecks);
    this.waiting = [];
    this.waitingChecks = 0;
  }

  private send(batches: Batch[], count: number): void {
    if (this.failed) {
      for (const b of batches) b.resolve();
      return;
    }
    let size = 0;
    for (const b of batches) for (const c of b.checks) size += 4 + 32 + 64 + c.message.length;
    const bytes = Buffer.allocUnsafeSlow(size);
    let pos = 0;
    for (const b of batches) {
      for (const c of b.checks) {
        pos = bytes.writeUInt32BE(c.message.length, pos);
        bytes.set(c.publicKey, pos);
        bytes.set(c.signature, pos + 32);
        bytes.set(c.message, pos + 96);
        pos += 96 + c.message.length;
      }
    }
    const slot = this.slots.reduce((a, b) => (b.outstanding < a.outstanding ? b : a));
    if (slot.outstanding++ === 0) slot.worker.ref();
    const id = this.nextId++;
    this.inFlight.set(id, { slot, batches });
    const request: VerifyRequest = { id, count, checks: bytes.buffer as ArrayBuffer };
    slot.worker.postMessage(request, [request.checks]);
  }

  private settle(reply: VerifyReply): void {
    const task = this.inFlight.get(reply.id);
    if (!task) return;
    this.inFlight.delete(reply.id);
    if (--task.slot.outstanding === 0) task.slot.worker.unref();
    let i = 0;
    for (const b of task.batches) {
      for (const c of b.checks) c.verified.set(c.memo, reply.results[i++] === 1);
      b.resolve();
    }
  }

  // a worker that fails leaves its checks to the main thread, and so do the next submissions
  private fail(): void {
    if (this.failed) return;
    this.failed = true;
    for (const task of this.inFlight.values()) for (const b of task.batches) b.resolve();
    this.inFlight.clear();
    for (const b of this.waiting) b.resolve();
    this.waiting = [];
    this.waitingChecks = 0;
  }

  async close(): Promise<void> {
    this.fail();
    await Promise.all(this.slots.map((s) => s.worker.removeAllListeners('exit').terminate()));
  }
}
