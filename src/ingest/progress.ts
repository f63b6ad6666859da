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

/** "[#####-----]  50% ledger 1,234 of 2,000 | 812 ledgers/s | 9,500 ops/s" */
export function progressLine(s: ProgressSnapshot, range?: { from: number; to: number }): string {
  const rates = `${fmt(s.ledgersPerSecond)} ledgers/s | ${fmt(s.operationsPerSecond)} ops/s`;
  if (!range) return `ledger ${fmt(s.ledger)} | ${fmt(s.ledgers)} ledgers, ${fmt(s.operations)} ops | ${rates}`;
  const total = range.to - range.from + 1;
  const done = Math.min(total, Math.max(0, s.ledger - range.from + 1));
  const width = 30;
  const filled = Math.round((done / total) * width);
  const percent = Math.floor((done / total) * 100);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(percent).padStart(3)}% ledger ${fmt(s.ledger)} of ${fmt(range.to)} | ${rates}`;
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
