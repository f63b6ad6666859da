// What subscriptions that follow the same thing share. After a ledger, every subscription of the
// same field, arguments and position receives the same rows: SharedReads answers their reads with
// one, and their pages are the same rows (schema/follow.ts). The same document with the same
// variables makes the same result of a row, so each event is executed once for all of them, where
// graphql-js's subscribe executes it once per subscriber. A result depends on the document, the
// variables and the event alone: resolvers read the database and per-event loaders through the
// context, never the client's request.
import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';

type Executed = ExecutionResult | Promise<ExecutionResult>;

/** the subscriptions of one document with the same variables: how many are open, their results by event */
interface Shared {
  open: number;
  results: WeakMap<object, Executed>;
}

/**
 * Subscriptions through yoga's envelop run graphql-js's subscribe with the per-event execution
 * shared: by document (yoga's parser cache gives one object per query text), variables and
 * operation name, while any of those subscriptions is open.
 */
export function sharedSubscriptionExecution(): Plugin {
  const byDocument = new WeakMap<DocumentNode, Map<string, Shared>>();
  const subscribe = async (args: ExecutionArgs) => {
    const source = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in source)) return source;
    const key = `${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? null)}`;
    let sharing = byDocument.get(args.document);
    if (!sharing) byDocument.set(args.document, (sharing = new Map()));
    let shared = sharing.get(key);
    if (!shared) sharing.set(key, (shared = { open: 0, results: new WeakMap() }));
    shared.open++;
    const { results } = shared;
    const close = () => {
      if (--shared.open === 0) sharing.delete(key);
    };
    return mapEvents(
      source,
      (payload) => {
        if (typeof payload !== 'object' || payload === null) return execute({ ...args, rootValue: payload });
        let result = results.get(payload);
        if (!result) results.set(payload, (result = execute({ ...args, rootValue: payload })));
        return result;
      },
      close,
    );
  };
  return {
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(subscribe as Parameters<typeof setSubscribeFn>[0]);
    },
  };
}

/**
 * The events of `source` executed, as graphql-js's mapAsyncIterator maps them (a private module):
 * `return` and `throw` go to the source at once, also while it waits for a ledger, and an
 * execution that fails ends the source. `closed` is called once, when the stream ends.
 */
function mapEvents(
  events: AsyncIterable<unknown>,
  executeEvent: (payload: unknown) => Executed,
  closed: () => void,
): AsyncIterableIterator<ExecutionResult> {
  const source = events[Symbol.asyncIterator]();
  let open = true;
  const end = () => {
    if (!open) return;
    open = false;
    closed();
  };
  const map = async (step: IteratorResult<unknown>): Promise<IteratorResult<ExecutionResult>> => {
    if (step.done) {
      end();
      return { value: undefined, done: true };
    }
    try {
      return { value: await executeEvent(step.value), done: false };
    } catch (error) {
      end();
      try {
        await source.return?.();
      } catch {
        // (the execution's error is the one to report)
      }
      throw error;
    }
  };
  const ended = (error: unknown): never => {
    end();
    throw error;
  };
  return {
    next: () => source.next().then(map, ended),
    return: async () => {
      end();
      return source.return ? map(await source.return()) : { value: undefined, done: true };
    },
    throw: async (error: unknown) => {
      end();
      if (source.throw) return map(await source.throw(error));
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
