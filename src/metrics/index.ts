export { Histogram, type HistogramSnapshot } from './histogram.js';
export { Meter, type MeterSnapshot } from './meter.js';
export { MetricsRegistry } from './registry.js';
export { Timer, type TimerSnapshot } from './timer.js';
export { type ConnectionUse, PrometheusMetrics } from './prometheus.js';
