// A timer is a meter of events and a histogram of their durations, in nanoseconds as go-metrics
// reports them.
import { Histogram, type HistogramSnapshot } from './histogram.js';
import { Meter, type MeterSnapshot } from './meter.js';

export type TimerSnapshot = MeterSnapshot & HistogramSnapshot;

export class Timer {
  private readonly meter: Meter;
  private readonly histogram = new Histogram();

  constructor(now: () => number = Date.now) {
    this.meter = new Meter(now);
  }

  /** records one event that took this many nanoseconds */
  update(nanoseconds: number): void {
    this.meter.mark();
    this.histogram.update(nanoseconds);
  }

  /** times the work and records it, whether it succeeds or throws */
  async time<T>(work: () => Promise<T>): Promise<T> {
    const started = process.hrtime.bigint();
    try {
      return await work();
    } finally {
      this.update(Number(process.hrtime.bigint() - started));
    }
  }

  snapshot(): TimerSnapshot {
    return { ...this.histogram.snapshot(), ...this.meter.snapshot() };
  }
}
