import { useInfiniteQuery } from '@tanstack/react-query';
import type { FollowingQuery } from '../../../shared/domain';
import { queryKeys } from '../../../shared/queries/keys';
import { api } from '../../lib/api';
import { cursorPaging } from '../../lib/paging';

/** The Following feed with My Feed's window and format filters, a page at a time; reloads when back online. */
export function useFollowingFeed(filters: Omit<FollowingQuery, 'cursor'>) {
  return useInfiniteQuery({
    queryKey: queryKeys.following(filters),
    queryFn: ({ pageParam, signal }) => api.following({ ...filters, cursor: pageParam }, signal),
    ...cursorPaging,
    refetchOnReconnect: 'always',
    // What the people I follow publish arrives while I'm elsewhere: read it again when the page opens.
    staleTime: 0,
  });
}
