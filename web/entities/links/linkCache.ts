import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { FollowingItem, Link, Page } from '../../../shared/domain';
import { linkListFiltersOf, queryKeys } from '../../../shared/queries/keys';
import type { FeedFilters } from './feedFilters';
import { brokenCountKeys } from './useLinkQueries';

export type FeedData = InfiniteData<Page<Link>, string | undefined>;

function mapFeeds(queryClient: QueryClient, map: (items: Link[], filters: FeedFilters, pageIndex: number) => Link[]) {
  for (const [key, data] of queryClient.getQueriesData<FeedData>({ queryKey: queryKeys.feeds })) {
    if (!data) continue;
    const filters = key[2] as FeedFilters;
    queryClient.setQueryData<FeedData>(key, {
      ...data,
      pages: data.pages.map((page, i) => ({ ...page, items: map(page.items, filters, i) })),
    });
  }
}

type FollowingData = InfiniteData<Page<FollowingItem>, string | undefined>;

/** The Following feeds' items, changed by `map`. */
function mapFollowing(queryClient: QueryClient, map: (items: FollowingItem[]) => FollowingItem[]) {
  queryClient.setQueriesData<FollowingData>({ queryKey: queryKeys.followingFeeds }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, items: map(page.items) })) } : data,
  );
}

/** Changes a link wherever it is cached (feeds, the Following feed and its detail page). */
export function patchLink(queryClient: QueryClient, id: string, patch: (link: Link) => Link) {
  mapFeeds(queryClient, (items) => items.map((l) => (l.id === id ? patch(l) : l)));
  mapFollowing(queryClient, (items) => items.map((i) => (i.link.id === id ? { ...i, link: patch(i.link) } : i)));
  queryClient.setQueryData<Link>(queryKeys.link(id), (prev) => (prev ? patch(prev) : prev));
}

/** Drops a deleted link from every cache. */
export function removeLink(queryClient: QueryClient, id: string) {
  mapFeeds(queryClient, (items) => items.filter((l) => l.id !== id));
  mapFollowing(queryClient, (items) => items.filter((i) => i.link.id !== id));
  queryClient.removeQueries({ queryKey: queryKeys.link(id), exact: true });
}

/** Drops a link removed from a collection from that collection's loaded resource lists at once. */
export function dropFromCollection(queryClient: QueryClient, supercurationId: string, linkId: string) {
  mapFeeds(queryClient, (items, filters) =>
    'supercurationId' in filters && filters.supercurationId === supercurationId ? items.filter((l) => l.id !== linkId) : items,
  );
}

/** Puts a link just shared at the top of each loaded 'Shared by me' list it belongs in (SPEC §4). */
export function prependLink(queryClient: QueryClient, link: Link) {
  mapFeeds(queryClient, (items, filters, pageIndex) => {
    const belongs =
      pageIndex === 0 &&
      link.inMainFeed &&
      !filters.broken &&
      filters.scope === 'mine' &&
      (!filters.format || filters.format === link.format) &&
      (!filters.topic || link.topicIds.includes(filters.topic));
    return belongs ? [link, ...items.filter((l) => l.id !== link.id)] : items;
  });
  queryClient.setQueryData(queryKeys.link(link.id), link);
}

/**
 * After a link joined or left collections: their counts (of links, and of broken links) and their
 * resource lists (kept under the feeds' key with a supercurationId) are reloaded.
 */
export function refreshCollections(queryClient: QueryClient, ids: readonly string[]) {
  if (ids.length === 0) return;
  void queryClient.invalidateQueries({ queryKey: queryKeys.supercurations });
  void queryClient.invalidateQueries({
    queryKey: queryKeys.feeds,
    predicate: (q) => ids.includes(linkListFiltersOf(q.queryKey)?.supercurationId ?? ''),
  });
  for (const id of ids) void queryClient.invalidateQueries({ queryKey: brokenCountKeys.collection(id) });
}

/**
 * After a link may have stopped being broken (marked as fine, given a new URL, deleted): the
 * 'Broken links (n)' counts and lists are reloaded.
 */
export function refreshBrokenLinks(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: brokenCountKeys.all });
  void queryClient.invalidateQueries({ queryKey: queryKeys.feeds, predicate: (q) => Boolean(linkListFiltersOf(q.queryKey)?.broken) });
}
