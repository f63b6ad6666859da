// A histogram of values: exact count, min, max, mean and standard deviation over all values, and
// percentiles from a uniform random sample of at most 1028 of them (go-metrics' reservoir size).

const RESERVOIR_SIZE = 1028;

export interface HistogramSnapshot {
  count: number;
  min: number;
  max: number;
  mean: number;
  stddev: number;
  median: number;
  '75%': number;
  '95%': number;
  '99%': number;
  '99.9%': number;
}

export class Histogram {
  private count = 0;
  private min = 0;
  private max = 0;
  private sum = 0;
  private sumOfSquares = 0;
  private readonly sample: number[] = [];

  constructor(private readonly random: () => number = Math.random) {}

  update(value: number): void {
    this.count++;
    this.min = this.count === 1 ? value : Math.min(this.min, value);
    this.max = this.count === 1 ? value : Math.max(this.max, value);
    this.sum += value;
    this.sumOfSquares += value * value;
    // reservoir sampling (Vitter's algorithm R): every value has the same chance to be kept
    if (this.sample.length < RESERVOIR_SIZE) this.sample.push(value);
    else {
      const slot = Math.floor(this.random() * this.count);
      if (slot < RESERVOIR_SIZE) this.sample[slot] = value;
    }
  }

  snapshot(): HistogramSnapshot {
    const sorted = [...this.sample].sort((a, b) => a - b);
    const mean = this.count ? this.sum / this.count : 0;
    const variance = this.count > 1 ? (this.sumOfSquares - this.count * mean * mean) / (this.count - 1) : 0;
    return {
      count: this.count,
      min: this.min,
      max: this.max,
      mean,
      stddev: Math.sqrt(Math.max(0, variance)),
      median: percentile(sorted, 0.5),
      '75%': percentile(sorted, 0.75),
      '95%': percentile(sorted, 0.95),
      '99%': percentile(sorted, 0.99),
      '99.9%': percentile(sorted, 0.999),
    };
  }
}

/** go-metrics' percentile: linear interpolation at position p × (n + 1). */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const position = p * (sorted.length + 1);
  if (position < 1) return sorted[0] ?? 0;
  if (position >= sorted.length) return sorted[sorted.length - 1] ?? 0;
  const lower = sorted[Math.floor(position) - 1] ?? 0;
  const upper = sorted[Math.floor(position)] ?? 0;
  return lower + (position - Math.floor(position)) * (upper - lower);
}
