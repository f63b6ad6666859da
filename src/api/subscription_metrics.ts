// The open GraphQL subscriptions (yoga's at /graphql and graphql-sse's at /graphql/stream both
// subscribe through envelop): counted from the subscription's start to its end, whether the source
// ends or the client leaves.
import type { Plugin } from 'graphql-yoga';
import type { PrometheusMetrics } from '../metrics/prometheus.js';

export function countSubscriptions(metrics: PrometheusMetrics): Plugin {
  return {
    onSubscribe: () => ({
      onSubscribeResult: ({ result }) => {
        // a subscription refused before it ran is a single result, not a stream
        if (!(Symbol.asyncIterator in result)) return undefined;
        return { onEnd: metrics.opened('subscription') };
      },
    }),
  };
}
