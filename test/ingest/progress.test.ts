// The live rates: measured from the meter's start until the window has slid past it, so a range
// that arrives in one piece (a short reingest) still shows how fast it went.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProgressMeter, progressLine } from '../../src/ingest/progress.js';

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
    expect(progressLine(snapshot, { from: 997, to: 999 })).toBe(
      '[##############################] 100% ledger 999 of 999 | 6 ledgers/s | 62 ops/s',
    );
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
