// How a reingest is split into jobs: Horizon's rules (internal/ingest/parallel.go), with the cases
// of its TestCalculateParallelLedgerBatchSize for a datastore backend (at most 200 checkpoints),
// and what is left of a range once some jobs are done.
import { describe, expect, it } from 'vitest';
import { jobSize, MAX_JOB_LEDGERS, remainingRanges, splitJobs } from '../../src/ingest/parallel_reingest.js';

describe('jobSize (Horizon calculateParallelLedgerBatchSize)', () => {
  it('one worker: the range, rounded down to a checkpoint multiple, between 64 and 12,800 ledgers', () => {
    expect(MAX_JOB_LEDGERS).toBe(12_800);
    expect(jobSize(MAX_JOB_LEDGERS + 10, 1)).toBe(MAX_JOB_LEDGERS);
    expect(jobSize(0, 1)).toBe(64);
    expect(jobSize(10_048, 1)).toBe(10_048); // exact multiple
    expect(jobSize(10_090, 1)).toBe(10_048); // round down
  });

  it('two workers: the range over the workers, at least 64', () => {
    expect(jobSize(60, 2)).toBe(64);
    expect(jobSize(128, 2)).toBe(64);
    expect(jobSize(20_096, 2)).toBe(10_048);
    expect(jobSize(50, 2)).toBe(64);
    expect(jobSize(100, 2)).toBe(64);
  });

  it('a job size asked for is rounded and bounded the same way, unless it leaves a worker idle', () => {
    expect(jobSize(640, 2, 64)).toBe(64);
    expect(jobSize(640, 2, 100)).toBe(64);
    expect(jobSize(100_000, 2, 50_000)).toBe(MAX_JOB_LEDGERS);
    // 640 ledgers in jobs of 640 would keep the second worker idle: 320 each
    expect(jobSize(640, 2, 640)).toBe(320);
  });
});

describe('splitJobs (Horizon enqueueReingestTasks)', () => {
  it('cuts each range into consecutive jobs, the last one shorter, the range end included', () => {
    expect(splitJobs([{ from: 2, to: 200 }], 64)).toEqual([
      { from: 2, to: 65 },
      { from: 66, to: 129 },
      { from: 130, to: 193 },
      { from: 194, to: 200 },
    ]);
    expect(splitJobs([{ from: 5, to: 5 }], 64)).toEqual([{ from: 5, to: 5 }]);
    expect(
      splitJobs(
        [
          { from: 1, to: 64 },
          { from: 129, to: 130 },
        ],
        64,
      ),
    ).toEqual([
      { from: 1, to: 64 },
      { from: 129, to: 130 },
    ]);
  });
});

describe('remainingRanges', () => {
  it('leaves out the finished jobs, in any order, overlapping or beyond the range', () => {
    expect(remainingRanges({ from: 2, to: 641 }, [])).toEqual([{ from: 2, to: 641 }]);
    expect(
      remainingRanges({ from: 2, to: 641 }, [
        { from: 130, to: 193 },
        { from: 2, to: 65 },
        { from: 600, to: 700 },
        { from: 1_000, to: 1_063 },
      ]),
    ).toEqual([
      { from: 66, to: 129 },
      { from: 194, to: 599 },
    ]);
    expect(remainingRanges({ from: 2, to: 65 }, [{ from: 2, to: 65 }])).toEqual([]);
  });
});
