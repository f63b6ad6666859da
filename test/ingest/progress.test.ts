// The live rates: measured from the meter's start until the window has slid past it, so a range
// that arrives in one piece (a short reingest) still shows how fast it went.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProgressBar, ProgressMeter, rangeProgressLine } from '../../src/ingest/progress.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ProgressMeter', () => {
  it('has a rate after a single record', () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    const meter = new ProgressMeter();
    now.mockReturnValue(1_500);
    const snapshot = meter.record(999, 31, 3);
    expect(snapshot).toMatchObject({ ledger: 999, ledgers: 3, operations: 31, ledgersPerSecond: 6, operationsPerSecond: 62 });
    expect(rangeProgressLine(snapshot, { done: 3, total: 3 })).toBe(
      '[##############################] 100% 3 of 3 ledgers | 6 ledgers/s | 62 ops/s | ETA 0:00',
    );
  });

  it('shows the time left at the current rate, and the jobs', () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(0);
    const meter = new ProgressMeter();
    now.mockReturnValue(2_000);
    // 100 ledgers in 2 s: 2,900 more take 58 s
    const snapshot = meter.record(164, 1_000, 100);
    expect(rangeProgressLine(snapshot, { done: 100, total: 3_000, detail: '1 of 3 jobs, 2 workers' })).toBe(
      `[#${'-'.repeat(29)}]   3% 100 of 3,000 ledgers | 1 of 3 jobs, 2 workers | 50 ledgers/s | 500 ops/s | ETA 0:58`,
    );
    expect(rangeProgressLine(meter.snapshot(), { done: 0, total: 200_000 })).toMatch(/ETA 1:06:40$/);
  });

  it('forgets what is older than its window', () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(0);
    const meter = new ProgressMeter(5_000);
    for (let second = 1; second <= 10; second++) {
      now.mockReturnValue(second * 1_000);
      // 1 ledger a second for 5 s, then 10 a second
      meter.record(second, second <= 5 ? 100 : 1_000, second <= 5 ? 1 : 10);
    }
    expect(meter.snapshot().ledgersPerSecond).toBe(10);
    expect(meter.snapshot().operationsPerSecond).toBe(1_000);
  });
});

describe('ProgressBar', () => {
  const stream = (isTTY: boolean) => {
    const written: string[] = [];
    return { written, stream: { isTTY, columns: 40, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream };
  };

  it('redraws one line on a terminal, and ends it when done', () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(0);
    const { written, stream: tty } = stream(true);
    const bar = new ProgressBar(tty);
    bar.update('first');
    now.mockReturnValue(50);
    bar.update('too soon');
    now.mockReturnValue(200);
    bar.update('second');
    bar.done('last');
    expect(written).toEqual([`\rfirst${' '.repeat(34)}`, `\rsecond${' '.repeat(33)}`, `\rlast${' '.repeat(35)}`, '\n']);
  });

  it('prints plain lines elsewhere, at most one per interval, and the last one', () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(0);
    const { written, stream: file } = stream(false);
    const bar = new ProgressBar(file);
    bar.update('first');
    now.mockReturnValue(1_000);
    bar.update('skipped');
    now.mockReturnValue(5_000);
    bar.update('second');
    bar.done('last');
    expect(written).toEqual(['first\n', 'second\n', 'last\n']);
  });
});
