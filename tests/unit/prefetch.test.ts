import { type DehydratedState, QueryClient, dehydrate, infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { prefetch, prefetchFirstPage } from '../../web/lib/prefetch';
import { createQueryClient } from '../../web/lib/queryClient';

interface Page {
  items: string[];
  nextCursor: string | null;
}

/** A dehydrated state without the times it was made at (they differ between two runs). */
const timeless = (state: DehydratedState) =>
  state.queries.map(({ dehydratedAt: _at, state: { dataUpdatedAt: _updated, ...rest }, ...query }) => ({ ...query, state: rest }));

const collection = queryOptions({
  queryKey: ['supercurations', 'public', 'reading-list'] as const,
  queryFn: async ({ queryKey }) => ({ id: 'c1', slug: queryKey[2], title: 'Reading list' }),
});
const pages = infiniteQueryOptions({
  queryKey: ['resources', 'c1', { sort: 'newest' }] as const,
  queryFn: async ({ pageParam }): Promise<Page> => ({ items: [`first after ${String(pageParam)}`], nextCursor: 'c2' }),
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last: Page) => last.nextCursor ?? undefined,
});

describe("the server render's prefetch", () => {
  it('puts a query into the cache as fetchQuery and fetchInfiniteQuery do, so the browser hydrates the same state', async () => {
    const fetched = createQueryClient({ server: true });
    await fetched.fetchQuery(collection);
    await fetched.fetchInfiniteQuery(pages);

    const prefetched = createQueryClient({ server: true });
    await expect(prefetch(prefetched, collection)).resolves.toEqual({ id: 'c1', slug: 'reading-list', title: 'Reading list' });
    await prefetchFirstPage(prefetched, pages);

    expect(timeless(dehydrate(prefetched))).toEqual(timeless(dehydrate(fetched)));
    expect(prefetched.getQueryData(pages.queryKey)).toEqual({
      pages: [{ items: ['first after undefined'], nextCursor: 'c2' }],
      pageParams: [undefined],
    });
  });

  it('fails as the read fails, and caches nothing (the page then goes out as the app shell)', async () => {
    const qc = new QueryClient();
    const missing = queryOptions({
      queryKey: ['supercurations', 'public', 'gone'] as const,
      queryFn: async (): Promise<{ id: string }> => {
        throw new Error('This supercuration does not exist or is private');
      },
    });
    await expect(prefetch(qc, missing)).rejects.toThrow('does not exist or is private');
    expect(qc.getQueryCache().getAll()).toHaveLength(0);
  });
});
