import { queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import type { FeedFilters } from './feedFilters';

/** A My Feed list, one cursor page (FEED_PAGE_SIZE links) at a time; reloads when the browser is back online. */
export function useLinkFeed(filters: FeedFilters) {
  return useInfiniteQuery({
    queryKey: queryKeys.feed(filters),
    queryFn: ({ pageParam, signal }) => api.listLinks({ ...filters, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
    refetchOnReconnect: 'always',
  });
}

export const linkQuery = (id: string) => queryOptions({ queryKey: queryKeys.link(id), queryFn: ({ signal }) => api.getLink(id, signal) });

export function useLink(id: string) {
  return useQuery(linkQuery(id));
}
