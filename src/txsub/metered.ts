// Feeds the txsub entries of the metrics table: every submission is timed (txsub.total) and counted
// as succeeded or failed, as Horizon's submission system does; buffered and open are read live.
// Prometheus counts both endpoints' submissions by outcome.
import type { MetricsRegistry } from '../metrics/registry.js';
import {
  type AsyncSubmissionOutcome,
  isAccepted,
  SubmissionSystem,
  type SubmissionOptions,
  type SubmissionOutcome,
} from './submission_system.js';

export class MeteredSubmissionSystem extends SubmissionSystem {
  constructor(
    options: SubmissionOptions,
    private readonly metrics: MetricsRegistry,
  ) {
    super(options);
    metrics.gauge('txsub.buffered', () => this.buffered);
    metrics.gauge('txsub.open', () => this.open);
  }

  override async submit(envelopeXdr: string): Promise<SubmissionOutcome> {
    const outcome = await this.metrics.timer('txsub.total').time(() => super.submit(envelopeXdr));
    this.metrics.meter(isAccepted(outcome) ? 'txsub.succeeded' : 'txsub.failed').mark();
    const result = outcome.kind === 'ingested' ? (outcome.transaction.successful ? 'success' : 'failed') : outcome.kind;
    this.metrics.prometheus.submission('sync', result);
    return outcome;
  }

  override async submitAsync(envelopeXdr: string, coreSynced: () => Promise<boolean>): Promise<AsyncSubmissionOutcome> {
    const outcome = await super.submitAsync(envelopeXdr, coreSynced);
    // the core's status (pending, duplicate, error, try_again_later) or why there is none
    this.metrics.prometheus.submission('async', outcome.kind === 'status' ? outcome.status.status.toLowerCase() : outcome.kind);
    return outcome;
  }
}
