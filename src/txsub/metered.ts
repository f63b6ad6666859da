// Feeds the txsub entries of the metrics table: every submission is timed (txsub.total) and counted
// as succeeded or failed, as Horizon's submission system does; buffered and open are read live.
import type { MetricsRegistry } from '../metrics/registry.js';
import { isAccepted, SubmissionSystem, type SubmissionOptions, type SubmissionOutcome } from './submission_system.js';

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
    return outcome;
  }
}
