// The page's only ways to the server: GraphQL over POST /graphql, subscriptions over graphql-sse
// at /graphql/stream (one connection each), and the friendbot. Every failure becomes an ApiError
// whose message is fit to show: the server's own reason for a refused argument, "not found", a
// rate limit, or the network being unreachable.
import { createClient, type Client } from 'graphql-sse';

interface GraphQLError {
  message: string;
  extensions?: { code?: string; extras?: { reason?: string; result_codes?: { transaction?: string; operations?: string[] } } };
}

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: GraphQLError[];
}

export class ApiError extends Error {
  constructor(
    message: string,
    /** the server's code (bad_request, not_found, rate_limit_exceeded, transaction_failed …) or `network` */
    readonly code: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A document of web/explorer/queries/ (sent whole) and the operation of it to run. */
export interface Operation {
  document: string;
  name: string;
}

export const operation = (document: string, name: string): Operation => ({ document, name });

function errorOf(errors: readonly GraphQLError[]): ApiError {
  const first = errors[0]!;
  const code = first.extensions?.code ?? 'error';
  const results = first.extensions?.extras?.result_codes;
  if (results) {
    const codes = [results.transaction, ...(results.operations ?? [])].filter(Boolean).join(', ');
    return new ApiError(`${first.message} (${codes})`, code);
  }
  if (code === 'rate_limit_exceeded') return new ApiError('Too many requests from this address for now: try again later.', code);
  return new ApiError(first.message, code);
}

/** Runs a query or mutation; its data, or an ApiError. */
export async function request<T>(op: Operation, variables: Record<string, unknown> = {}, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      // application/json: GraphQL's refusals come as errors in a 200, which the page shows
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ query: op.document, operationName: op.name, variables }),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('The server cannot be reached.', 'network');
  }
  let body: GraphQLResponse<T>;
  try {
    body = (await response.json()) as GraphQLResponse<T>;
  } catch {
    throw new ApiError(`The server answered ${response.status} without GraphQL.`, 'network');
  }
  if (body.errors?.length) throw errorOf(body.errors);
  if (!body.data) throw new ApiError(`The server answered ${response.status} without data.`, 'network');
  return body.data;
}

let client: Client | null = null;

/**
 * Follows a subscription: `next` for each event, `failed` once if it ends in an error. Answers
 * the function that ends it (when the page leaves the view).
 */
export function subscribe<T>(
  op: Operation,
  variables: Record<string, unknown>,
  next: (data: T) => void,
  failed: (error: ApiError) => void,
): () => void {
  // no retries of its own: a refusal (a cap on streams) would only be repeated; the view offers to reconnect
  client ??= createClient({ url: '/graphql/stream', retryAttempts: 0 });
  let ended = false;
  const dispose = client.subscribe<T>(
    { query: op.document, operationName: op.name, variables },
    {
      next(result) {
        if (ended) return;
        if (result.errors?.length) {
          ended = true;
          failed(errorOf(result.errors as unknown as readonly GraphQLError[]));
        } else if (result.data) next(result.data);
      },
      error(error) {
        if (ended) return;
        ended = true;
        failed(
          Array.isArray(error)
            ? errorOf(error as readonly GraphQLError[])
            : new ApiError(`Live updates stopped: ${error instanceof Error ? error.message : 'the connection closed'}.`, 'network'),
        );
      },
      complete() {
        if (ended) return;
        ended = true;
        failed(new ApiError('Live updates stopped: the server ended them.', 'complete'));
      },
    },
  );
  return () => {
    ended = true;
    dispose();
  };
}

/** the server's config, from the page's <meta> tags (src/api/explorer.ts) */
function meta(name: string): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
}

/** /friendbot, when this is a private network that has one */
export const friendbotUrl = (): string => meta('zenith-friendbot');
export const networkPassphrase = (): string => meta('zenith-network-passphrase');

/** Asks the friendbot for lumens for `address`; the funding transaction's hash. */
export async function fund(address: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`${friendbotUrl()}?addr=${encodeURIComponent(address)}`);
  } catch {
    throw new ApiError('The friendbot cannot be reached.', 'network');
  }
  const body = (await response.json().catch(() => ({}))) as { hash?: string; detail?: string; extras?: { reason?: string } };
  if (!response.ok || !body.hash) {
    throw new ApiError(body.extras?.reason ?? body.detail ?? `The friendbot answered ${response.status}.`, 'friendbot');
  }
  return body.hash;
}
