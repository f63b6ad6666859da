// Live throughput of an ingestion: ledgers/s and operations/s over a sliding window, rendered as a
// one-line progress bar on a terminal (or as a plain line for logs).

export interface ProgressSnapshot {
  ledger: number;
  ledgers: number;
  operations: number;
  ledgersPerSecond: number;
  operationsPerSecond: number;
}

export class ProgressMeter {
  private ledgers = 0;
  private operations = 0;
  private last = 0;
  private readonly window: { at: number; ledgers: number; operations: number }[] = [];

  constructor(private readonly windowMs = 5_000) {
    // the start counts as a point: a range written in one batch still has a rate
    this.window.push({ at: performance.now(), ledgers: 0, operations: 0 });
  }

  record(ledger: number, operations: number, ledgers = 1): ProgressSnapshot {
    this.ledgers += ledgers;
    this.operations += operations;
    this.last = ledger;
    const now = performance.now();
    this.window.push({ at: now, ledgers: this.ledgers, operations: this.operations });
    while (this.window.length > 2 && now - this.window[0]!.at > this.windowMs) this.window.shift();
    return this.snapshot();
  }

  snapshot(): ProgressSnapshot {
    const first = this.window[0];
    const latest = this.window[this.window.length - 1];
    const seconds = first && latest ? (latest.at - first.at) / 1000 : 0;
    const rate = (a: number, b: number) => (seconds > 0 ? (b - a) / seconds : 0);
    return {
      ledger: this.last,
      ledgers: this.ledgers,
      operations: this.operations,
      ledgersPerSecond: first && latest ? rate(first.ledgers, latest.ledgers) : 0,
      operationsPerSecond: first && latest ? rate(first.operations, latest.operations) : 0,
    };
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** "ledger 1,234 | 1,234 ledgers, 9,500 ops | 812 ledgers/s | 9,500 ops/s": a follow without an end */
export function progressLine(s: ProgressSnapshot): string {
  return `ledger ${fmt(s.ledger)} | ${fmt(s.ledgers)} ledgers, ${fmt(s.operations)} ops | ${rates(s)}`;
}

/**
 * "[#####-----]  50% 1,500 of 3,000 ledgers | 2 of 5 jobs, 2 workers | 812 ledgers/s | 9,500 ops/s | ETA 0:02":
 * a reingest's `done` ledgers of `total`; the time left at the current rate
 */
export function rangeProgressLine(s: ProgressSnapshot, work: { done: number; total: number; detail?: string }): string {
  const { total } = work;
  const done = Math.min(total, Math.max(0, work.done));
  const width = 30;
  const filled = total > 0 ? Math.round((done / total) * width) : width;
  const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
  const left = total - done;
  const eta = left === 0 ? '0:00' : s.ledgersPerSecond > 0 ? duration(left / s.ledgersPerSecond) : '--:--';
  const detail = work.detail ? ` | ${work.detail}` : '';
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(percent).padStart(3)}% ${fmt(done)} of ${fmt(total)} ledgers${detail} | ${rates(s)} | ETA ${eta}`;
}

function rates(s: ProgressSnapshot): string {
  return `${fmt(s.ledgersPerSecond)} ledgers/s | ${fmt(s.operationsPerSecond)} ops/s`;
}

/** 75 → "1:15", 3725 → "1:02:05" */
function duration(seconds: number): string {
  const whole = Math.ceil(seconds);
  const [h, m, sec] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

/** Redraws one line on a terminal; elsewhere prints a line at most every `intervalMs`. */
export class ProgressBar {
  private lastDraw = Number.NEGATIVE_INFINITY;
  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly intervalMs = stream.isTTY ? 100 : 5_000,
  ) {}

  update(line: string, force = false): void {
    const now = performance.now();
    if (!force && now - this.lastDraw < this.intervalMs) return;
    this.lastDraw = now;
    if (this.stream.isTTY)
      this.stream.write(`\r${line.padEnd(this.stream.columns ? this.stream.columns - 1 : 100).slice(0, (this.stream.columns ?? 101) - 1)}`);
    else this.stream.write(`${line}\n`);
  }

  done(line: string): void {
    this.update(line, true);
    if (this.stream.isTTY) this.stream.write('\n');
  }
}
