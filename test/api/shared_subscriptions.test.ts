// Subscriptions of one document and variables that receive the same event object execute it once;
// other variables, or other objects, execute their own; the result is graphql-js's; a subscription
// that ends stops its source at once, also while that source waits for an event.
import {
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
  subscribe,
  type ExecutionResult,
} from 'graphql';
import { createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { sharedSubscriptionExecution } from '../../src/api/shared_subscriptions.js';

/**
 * One event source for every subscription: each `emit` hands all of them the same object. Its
 * iterators end at once when returned, also while waiting, as the follow engine's do.
 */
function eventSource() {
  const waiting = new Map<object, (step: IteratorResult<object>) => void>();
  let stopped = 0;
  return {
    emit(event: object) {
      for (const resolve of [...waiting.values()]) resolve({ value: event, done: false });
      waiting.clear();
    },
    get stopped() {
      return stopped;
    },
    get listening() {
      return waiting.size;
    },
    events(): AsyncIterableIterator<object> {
      const iterator: AsyncIterableIterator<object> = {
        next: () => new Promise((resolve) => waiting.set(iterator, resolve)),
        return: async () => {
          stopped++;
          waiting.get(iterator)?.({ value: undefined, done: true });
          waiting.delete(iterator);
          return { value: undefined, done: true };
        },
        [Symbol.asyncIterator]: () => iterator,
      };
      return iterator;
    },
  };
}

function schemaOver(source: ReturnType<typeof eventSource>, executions: { count: number }) {
  const Event = new GraphQLObjectType({
    name: 'Event',
    fields: {
      n: { type: new GraphQLNonNull(GraphQLInt) },
      label: {
        type: GraphQLString,
        args: { prefix: { type: GraphQLString } },
        resolve: (event: { n: number }, args: { prefix?: string }) => {
          executions.count++;
          return `${args.prefix ?? ''}${event.n}`;
        },
      },
    },
  });
  const Query = new GraphQLObjectType({ name: 'Query', fields: { n: { type: GraphQLInt } } });
  const Subscription = new GraphQLObjectType({
    name: 'Subscription',
    fields: { events: { type: Event, subscribe: () => source.events(), resolve: (event: unknown) => event } },
  });
  return new GraphQLSchema({ query: Query, subscription: Subscription });
}

const DOCUMENT = parse('subscription($p: String) { events { n label(prefix: $p) } }');

async function setUp() {
  const source = eventSource();
  const executions = { count: 0 };
  const schema = schemaOver(source, executions);
  const yoga = createYoga({ schema, plugins: [sharedSubscriptionExecution()] });
  const open = async (variableValues: Record<string, unknown>) => {
    const enveloped = yoga.getEnveloped({});
    const stream = await enveloped.subscribe({ schema: enveloped.schema, document: DOCUMENT, variableValues, contextValue: {} });
    return (stream as AsyncIterableIterator<ExecutionResult>)[Symbol.asyncIterator]();
  };
  /** waits until `count` subscriptions wait for the next event */
  const listening = async (count: number) => {
    while (source.listening < count) await new Promise((resolve) => setTimeout(resolve, 1));
  };
  return { source, executions, schema, open, listening };
}

describe('shared subscription execution', () => {
  it('executes an event once for the subscriptions of one document and variables, with graphql-js’s result', async () => {
    const { source, executions, schema, open, listening } = await setUp();
    const [a, b, c] = [await open({ p: '#' }), await open({ p: '#' }), await open({ p: '$' })];
    const reference = (await subscribe({
      schema,
      document: DOCUMENT,
      variableValues: { p: '#' },
    })) as AsyncIterableIterator<ExecutionResult>;
    const next = () => Promise.all([a.next(), b.next(), c.next(), reference.next()]);
    for (const n of [1, 2]) {
      const results = next();
      await listening(4);
      source.emit({ n });
      const [ra, rb, rc, expected] = await results;
      expect(ra.value).toEqual(expected.value);
      expect(rb.value).toBe(ra.value);
      expect(rc.value).toEqual({ data: { events: { n, label: `$${n}` } } });
    }
    // per event: one execution for a and b, one for c, one for graphql-js's own
    expect(executions.count).toBe(2 * 3);
    await Promise.all([a.return?.(), b.return?.(), c.return?.(), reference.return?.()]);
  });

  it('executes again for an event that is another object, even an equal one', async () => {
    const { source, executions, open, listening } = await setUp();
    const a = await open({});
    const b = await open({});
    const first = Promise.all([a.next(), b.next()]);
    await listening(2);
    source.emit({ n: 1 });
    await first;
    const again = a.next();
    await listening(1);
    source.emit({ n: 1 });
    expect((await again).value).toEqual({ data: { events: { n: 1, label: '1' } } });
    expect(executions.count).toBe(2);
    await Promise.all([a.return?.(), b.return?.()]);
  });

  it('stops the source at once when a subscription ends while it waits for an event', async () => {
    const { source, open, listening } = await setUp();
    const a = await open({});
    const waiting = a.next();
    await listening(1);
    await a.return?.();
    expect(source.stopped).toBe(1);
    expect(await waiting).toEqual({ done: true, value: undefined });
  });
});
