// A view's data: one request when it opens (useQuery), the further pages of a Relay connection
// ("load more", usePages), and a subscription that lives as long as the view (useSubscription).
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Operation, request, subscribe } from './api.js';

export type Loaded<T> = { state: 'loading' } | { state: 'failed'; error: ApiError } | { state: 'done'; data: T };

/** an error as a view shows it: ours as it is, anything else (a bug) by its message */
export const asApiError = (error: unknown): ApiError =>
  error instanceof ApiError ? error : new ApiError(error instanceof Error ? error.message : String(error), 'error');

/** Runs `op` once when the view opens (and again when `key` changes); null variables: nothing to run. */
export function useQuery<T>(op: Operation, variables: Record<string, unknown> | null, key: string): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  // sent as soon as the view is in the document, not after the next frame as useEffect would
  useLayoutEffect(() => {
    if (variables === null) return;
    const abort = new AbortController();
    setLoaded({ state: 'loading' });
    request<T>(op, variables, abort.signal).then(
      (data) => setLoaded({ state: 'done', data }),
      (error: unknown) => {
        if (!abort.signal.aborted) setLoaded({ state: 'failed', error: asApiError(error) });
      },
    );
    return () => abort.abort();
  }, [key]);
  return loaded;
}

export interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface Connection<N> {
  edges: { node: N }[];
  pageInfo: PageInfo;
}

export interface Pages<N> {
  nodes: N[];
  hasMore: boolean;
  loading: boolean;
  error: ApiError | null;
  loadMore(): void;
  /** a node that arrived live, put first */
  prepend(node: N): void;
}

/** A connection's first page (from the view's query) and the pages `more` reads after a cursor. */
export function usePages<N>(first: Connection<N> | undefined, more: (after: string) => Promise<Connection<N> | null>): Pages<N> {
  const [nodes, setNodes] = useState<N[]>(() => first?.edges.map((edge) => edge.node) ?? []);
  const [pageInfo, setPageInfo] = useState<PageInfo>(first?.pageInfo ?? { hasNextPage: false, endCursor: null });
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const loadMore = useCallback(() => {
    const after = pageInfo.endCursor;
    if (!after || loading) return;
    setLoading(true);
    setError(null);
    more(after).then(
      (page) => {
        setLoading(false);
        if (!page) return;
        setNodes((shown) => [...shown, ...page.edges.map((edge) => edge.node)]);
        setPageInfo(page.pageInfo);
      },
      (failure: unknown) => {
        setLoading(false);
        setError(asApiError(failure));
      },
    );
  }, [pageInfo, loading]);
  const prepend = useCallback((node: N) => setNodes((shown) => [node, ...shown]), []);
  return { nodes, hasMore: pageInfo.hasNextPage, loading, error, loadMore, prepend };
}

/**
 * Follows `op` while the view is open: each event to `onEvent`. `variables` are read at each
 * start, so a restart (after the error that ended it) goes on from the cursor of the last event
 * seen rather than replaying what is shown. Answers that error, if any, and the restart.
 */
export function useSubscription<T>(
  op: Operation,
  variables: () => Record<string, unknown>,
  onEvent: (data: T) => void,
): { error: ApiError | null; restart(): void } {
  const [error, setError] = useState<ApiError | null>(null);
  const [round, setRound] = useState(0);
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    setError(null);
    return subscribe<T>(op, variables(), (data) => handler.current(data), setError);
  }, [round]);
  return { error, restart: () => setRound((value) => value + 1) };
}
