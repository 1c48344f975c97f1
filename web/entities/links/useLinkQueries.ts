import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { LinkListQuery } from '../../../shared/domain';
import { api } from '../../lib/api';
import { queryKeys } from '../../../shared/queries/keys';
import type { FeedFilters } from './feedFilters';
import { cursorPaging } from '../../lib/paging';

/** A list of my links (My Feed's tabs and filters), one cursor page (FEED_PAGE_SIZE links) at a time. */
export const linkFeedQuery = (filters: Omit<LinkListQuery, 'cursor'>) =>
  infiniteQueryOptions({
    queryKey: queryKeys.feed(filters),
    queryFn: ({ pageParam, signal }) => api.listLinks({ ...filters, cursor: pageParam }, signal),
    ...cursorPaging,
  });

/** A My Feed list; reloads when the browser is back online. */
export function useLinkFeed(filters: FeedFilters) {
  return useInfiniteQuery({ ...linkFeedQuery(filters), refetchOnReconnect: 'always' });
}

/**
 * The 'Broken links (n)' counts, under the links' key (what reloads every link reloads them too):
 * My Feed's, and each collection's for its editors.
 */
const BROKEN_COUNTS = [...queryKeys.links, 'broken-count'] as const;
export const brokenCountKeys = {
  all: BROKEN_COUNTS,
  mine: [...BROKEN_COUNTS, 'mine'] as const,
  collection: (supercurationId: string) => [...BROKEN_COUNTS, 'collection', supercurationId] as const,
};

/** How many of the viewer's own links the link checker found broken (My Feed's 'Broken links (n)'). */
export function useBrokenLinkCount() {
  return useQuery({ queryKey: brokenCountKeys.mine, queryFn: ({ signal }) => api.brokenLinkCount(signal) });
}

export const linkQuery = (id: string) => queryOptions({ queryKey: queryKeys.link(id), queryFn: ({ signal }) => api.getLink(id, signal) });

export function useLink(id: string) {
  return useQuery(linkQuery(id));
}

/** A URL's link preview (none asked while `url` is null), kept an hour; a failure is not retried. */
export function useLinkPreview(url: string | null) {
  return useQuery({
    queryKey: queryKeys.preview(url ?? ''),
    queryFn: ({ signal }) => api.preview(url ?? '', signal),
    enabled: url !== null,
    staleTime: 60 * 60_000,
    retry: false,
  });
}
