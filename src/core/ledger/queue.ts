// Pending transactions in arrival order. An account may queue a chain of consecutive sequence
// numbers; the chain's last sequence number and total fees are what the next submission is
// checked against.
import type { TxFrame } from './tx_frame.js';

interface AccountChain {
  lastSeq: bigint;
  count: number;
}

/** The account paying a transaction's fee and its bid (the outer ones for a fee bump). */
export function feePayer(f: TxFrame): { accountId: string; bid: bigint } {
  return f.feeBump ? { accountId: f.feeBump.feeSourceId, bid: f.feeBump.fee } : { accountId: f.sourceId, bid: f.fee };
}

/** The queue's key of a transaction: its full hash's bytes as latin1 text (as unique as hex, at half its length and cost). */
export const queueKey = (f: TxFrame): string => f.fullHash.toString('latin1');

export class TxQueue {
  private items: TxFrame[] = [];
  /** each item's queueKey, by position */
  private itemKeys: string[] = [];
  private readonly hashes = new Set<string>();
  private readonly chains = new Map<string, AccountChain>();
  private readonly fees = new Map<string, bigint>();
  private ops = 0;

  constructor(readonly maxOps: number) {}

  get length(): number {
    return this.items.length;
  }

  get operationCount(): number {
    return this.ops;
  }

  /** a transaction with this queueKey (the same envelope) is queued */
  has(key: string): boolean {
    return this.hashes.has(key);
  }

  isFull(extraOps: number): boolean {
    return this.ops + Math.max(1, extraOps) > this.maxOps;
  }

  chain(accountId: string): AccountChain | undefined {
    return this.chains.get(accountId);
  }

  /** Fee bids of the queued transactions this account pays for. */
  queuedFees(accountId: string): bigint {
    return this.fees.get(accountId) ?? 0n;
  }

  add(frame: TxFrame, key = queueKey(frame)): void {
    this.items.push(frame);
    this.itemKeys.push(key);
    this.hashes.add(key);
    this.ops += Math.max(1, frame.ops.length);
    this.track(frame);
  }

  private track(frame: TxFrame): void {
    const c = this.chains.get(frame.sourceId);
    if (c) {
      c.lastSeq = frame.seqNum;
      c.count += 1;
    } else {
      this.chains.set(frame.sourceId, { lastSeq: frame.seqNum, count: 1 });
    }
    const payer = feePayer(frame);
    this.fees.set(payer.accountId, (this.fees.get(payer.accountId) ?? 0n) + payer.bid);
  }

  /** Removes and returns the oldest transactions holding at most `maxOps` operations. */
  take(maxOps: number): TxFrame[] {
    let ops = 0;
    let n = 0;
    while (n < this.items.length) {
      const k = Math.max(1, this.items[n]!.ops.length);
      if (ops + k > maxOps) break;
      ops += k;
      n++;
    }
    const taken = this.items.slice(0, n);
    this.items = this.items.slice(n);
    for (let i = 0; i < n; i++) this.hashes.delete(this.itemKeys[i]!);
    this.itemKeys = this.itemKeys.slice(n);
    this.ops -= ops;
    this.rebuildChains();
    return taken;
  }

  /** Drops queued transactions that can no longer apply (e.g. after a sequence bump). */
  filter(keep: (f: TxFrame) => boolean): TxFrame[] {
    const dropped: TxFrame[] = [];
    const items: TxFrame[] = [];
    const keys: string[] = [];
    this.items.forEach((f, i) => {
      const key = this.itemKeys[i]!;
      if (keep(f)) {
        items.push(f);
        keys.push(key);
        return;
      }
      dropped.push(f);
      this.hashes.delete(key);
      this.ops -= Math.max(1, f.ops.length);
    });
    this.items = items;
    this.itemKeys = keys;
    this.rebuildChains();
    return dropped;
  }

  private rebuildChains(): void {
    this.chains.clear();
    this.fees.clear();
    for (const f of this.items) this.track(f);
  }
}
