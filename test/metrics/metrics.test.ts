import { describe, expect, it } from 'vitest';
import { Histogram } from '../../src/metrics/histogram.js';
import { Meter } from '../../src/metrics/meter.js';
import { MetricsRegistry } from '../../src/metrics/registry.js';
import { Timer } from '../../src/metrics/timer.js';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('Meter', () => {
  it('counts, and its rates follow a steady load and decay when it stops', () => {
    const time = clock();
    const meter = new Meter(time.now);
    // 10 events per second for 15 minutes
    for (let second = 0; second < 900; second++) {
      meter.mark(10);
      time.advance(1000);
    }
    const busy = meter.snapshot();
    expect(busy.count).toBe(9000);
    expect(busy['mean.rate']).toBeCloseTo(10, 5);
    expect(busy['1m.rate']).toBeCloseTo(10, 1);
    expect(busy['5m.rate']).toBeGreaterThan(9.5);
    expect(busy['15m.rate']).toBeGreaterThan(6);
    time.advance(5 * 60_000);
    const idle = meter.snapshot();
    expect(idle['1m.rate']).toBeLessThan(0.1);
    expect(idle['5m.rate']).toBeLessThan(busy['5m.rate'] / 2);
    expect(idle['15m.rate']).toBeGreaterThan(idle['5m.rate']);
    expect(idle.count).toBe(9000);
  });

  it('shows zero rates before its first tick', () => {
    const time = clock();
    const meter = new Meter(time.now);
    meter.mark();
    expect(meter.snapshot()).toMatchObject({ count: 1, '1m.rate': 0, '5m.rate': 0, '15m.rate': 0 });
  });
});

describe('Histogram', () => {
  it('gives exact moments and sample percentiles', () => {
    const histogram = new Histogram();
    for (let v = 1; v <= 100; v++) histogram.update(v);
    const s = histogram.snapshot();
    expect(s).toMatchObject({ count: 100, min: 1, max: 100, mean: 50.5 });
    expect(s.stddev).toBeCloseTo(29.011, 3);
    expect(s.median).toBeCloseTo(50.5, 5);
    expect(s['75%']).toBeCloseTo(75.75, 5);
    expect(s['99%']).toBeCloseTo(99.99, 5);
    expect(s['99.9%']).toBe(100);
  });

  it('keeps a bounded sample of a long stream that still describes it', () => {
    const histogram = new Histogram();
    for (let i = 0; i < 100_000; i++) histogram.update(i % 1000);
    const s = histogram.snapshot();
    expect(s.count).toBe(100_000);
    expect(s.median).toBeGreaterThan(400);
    expect(s.median).toBeLessThan(600);
  });

  it('is all zeros when empty', () => {
    expect(new Histogram().snapshot()).toMatchObject({ count: 0, min: 0, max: 0, mean: 0, stddev: 0, median: 0 });
  });
});

describe('Timer and registry', () => {
  it('times work, including work that throws', async () => {
    const timer = new Timer();
    await timer.time(async () => new Promise((resolve) => setTimeout(resolve, 5)));
    await expect(timer.time(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const s = timer.snapshot();
    expect(s.count).toBe(2);
    expect(s.max).toBeGreaterThan(4_000_000);
  });

  it('renders gauges, meters and timers by name', async () => {
    const registry = new MetricsRegistry();
    registry.gauge('history.latest_ledger', async () => 7);
    registry.gauge('broken', () => {
      throw new Error('no database');
    });
    registry.meter('requests.failed').mark(2);
    registry.timer('requests.total').update(1000);
    const json = await registry.snapshot();
    expect(Object.keys(json)).toEqual(['broken', 'history.latest_ledger', 'requests.failed', 'requests.total']);
    expect(json['history.latest_ledger']).toEqual({ value: 7 });
    expect(json.broken).toEqual({ value: 0 });
    expect(json['requests.failed']).toMatchObject({ count: 2 });
    expect(Object.keys(json['requests.total'] ?? {}).sort()).toEqual(
      [
        '15m.rate',
        '1m.rate',
        '5m.rate',
        '75%',
        '95%',
        '99%',
        '99.9%',
        'count',
        'max',
        'mean',
        'mean.rate',
        'median',
        'min',
        'stddev',
      ].sort(),
    );
  });
});
