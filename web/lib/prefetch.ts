import type { InfiniteData, QueryClient, QueryFunction, QueryKey, SkipToken } from '@tanstack/react-query';

/**
 * How the server render (web/entry-server.tsx) fills its query cache: each query's data read by its
 * own query function, as `fetchQuery` and `fetchInfiniteQuery` would put it (their dehydrated
 * state is the same, so the browser hydrates it alike).
 */

/** What a query's options give to read its data (queryOptions or infiniteQueryOptions). */
interface ReadOptions<T, K extends QueryKey, P = never> {
  queryKey: K;
  queryFn?: QueryFunction<T, K, P> | SkipToken;
}

/** The server render's reads are answered in process (server/http/server-render.ts): nothing is ever aborted. */
const NEVER_ABORTED = new AbortController().signal;

function queryFnOf<T, K extends QueryKey, P>(options: ReadOptions<T, K, P>): QueryFunction<T, K, P> {
  if (typeof options.queryFn !== 'function') throw new Error(`No query function for ${JSON.stringify(options.queryKey)}`);
  return options.queryFn;
}

/**
 * A query's data, read by its own query function and put into the render's cache: what
 * `queryClient.fetchQuery` does, without its fetch machinery (retryer, fetch state). Through that
 * machinery every render's queries and data stayed reachable across young-generation garbage
 * collections and were promoted to the old generation, ~44 kB a render: at 500 pages a second a
 * full collection every ~2 s, each one a burst of late answers (docs/decisions.md).
 */
export async function prefetch<T, K extends QueryKey>(qc: QueryClient, options: ReadOptions<T, K>): Promise<T> {
  const { queryKey } = options;
  const data: T = await queryFnOf(options)({ queryKey, signal: NEVER_ABORTED, meta: undefined, client: qc } as Parameters<QueryFunction<T, K>>[0]);
  qc.setQueryData<T>(queryKey as QueryKey, () => data);
  return data;
}

/** An infinite query's first page, as fetchInfiniteQuery would put it (prefetch's reasons). */
export async function prefetchFirstPage<T, K extends QueryKey, P>(
  qc: QueryClient,
  options: ReadOptions<T, K, P> & { initialPageParam: P },
): Promise<void> {
  const { queryKey, initialPageParam: pageParam } = options;
  const context = { queryKey, pageParam, direction: 'forward', signal: NEVER_ABORTED, meta: undefined, client: qc };
  const page: T = await queryFnOf(options)(context as Parameters<QueryFunction<T, K, P>>[0]);
  // Marked infinite, as fetchInfiniteQuery marks it: the browser hydrates it as one.
  qc.getQueryCache().build(qc, { queryKey, _type: 'infinite' });
  qc.setQueryData<InfiniteData<T, P>>(queryKey as QueryKey, () => ({ pages: [page], pageParams: [pageParam] }));
}
