// A meter counts events and keeps their rate per second: the mean over its life and
// exponentially weighted moving averages over 1, 5 and 15 minutes, ticked every 5 seconds as
// go-metrics (Horizon's metrics library) does. Ticks are caught up lazily, so an idle meter costs
// nothing.

const TICK_MS = 5000;

class MovingAverage {
  private rate = 0;
  private uncounted = 0;
  private started = false;
  private readonly alpha: number;

  constructor(minutes: number) {
    this.alpha = 1 - Math.exp(-TICK_MS / 1000 / 60 / minutes);
  }

  add(n: number): void {
    this.uncounted += n;
  }

  tick(): void {
    const instant = this.uncounted / (TICK_MS / 1000);
    this.uncounted = 0;
    if (this.started) this.rate += this.alpha * (instant - this.rate);
    else {
      this.rate = instant;
      this.started = true;
    }
  }

  perSecond(): number {
    return this.rate;
  }
}

export interface MeterSnapshot {
  count: number;
  '1m.rate': number;
  '5m.rate': number;
  '15m.rate': number;
  'mean.rate': number;
}

export class Meter {
  private count = 0;
  private readonly startedAt: number;
  private lastTick: number;
  private readonly averages = [new MovingAverage(1), new MovingAverage(5), new MovingAverage(15)] as const;

  constructor(private readonly now: () => number = Date.now) {
    this.startedAt = now();
    this.lastTick = this.startedAt;
  }

  mark(n = 1): void {
    this.catchUp();
    this.count += n;
    for (const average of this.averages) average.add(n);
  }

  snapshot(): MeterSnapshot {
    this.catchUp();
    const seconds = (this.now() - this.startedAt) / 1000;
    const [m1, m5, m15] = this.averages;
    return {
      count: this.count,
      '1m.rate': m1.perSecond(),
      '5m.rate': m5.perSecond(),
      '15m.rate': m15.perSecond(),
      'mean.rate': seconds > 0 ? this.count / seconds : 0,
    };
  }

  private catchUp(): void {
    const now = this.now();
    while (now - this.lastTick >= TICK_MS) {
      this.lastTick += TICK_MS;
      for (const average of this.averages) average.tick();
    }
  }
}
