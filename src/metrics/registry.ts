// The named metrics of one process, rendered as the JSON object of GET /metrics: gauges as
// {value}, meters as rates and count, timers as rates, count and the distribution. Its
// `prometheus` side is what the admin port serves.
import { Meter } from './meter.js';
import { PrometheusMetrics } from './prometheus.js';
import { Timer } from './timer.js';

type Gauge = () => number | Promise<number>;

export class MetricsRegistry {
  private readonly gauges = new Map<string, Gauge>();
  private readonly meters = new Map<string, Meter>();
  private readonly timers = new Map<string, Timer>();
  /** the same process in Prometheus' terms (the admin port), fed where this registry is */
  readonly prometheus = new PrometheusMetrics();

  gauge(name: string, read: Gauge): void {
    this.gauges.set(name, read);
  }

  meter(name: string): Meter {
    let meter = this.meters.get(name);
    if (!meter) this.meters.set(name, (meter = new Meter()));
    return meter;
  }

  timer(name: string): Timer {
    let timer = this.timers.get(name);
    if (!timer) this.timers.set(name, (timer = new Timer()));
    return timer;
  }

  /** every metric by name, sorted; a gauge whose reading fails shows 0 */
  async snapshot(): Promise<Record<string, object>> {
    const entries: Array<[string, object]> = [];
    for (const [name, read] of this.gauges) {
      let value = 0;
      try {
        value = await read();
      } catch {
        value = 0;
      }
      entries.push([name, { value }]);
    }
    for (const [name, meter] of this.meters) entries.push([name, meter.snapshot()]);
    for (const [name, timer] of this.timers) entries.push([name, timer.snapshot()]);
    return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
  }
}
