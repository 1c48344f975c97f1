import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { DirectoryQuery, Page, ResourceListQuery, SupercurationListQuery } from '../../../shared/domain';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';

/** Cursor paging shared by every list: the next cursor while the server says there is more. */
const paging = {
  initialPageParam: undefined as string | undefined,
  getNextPageParam: <T>(last: Page<T>) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
};

/** My Supercurations: own, collaborating and others' public collections. */
export function useSupercurationList(filters: Omit<SupercurationListQuery, 'cursor'>) {
  return useInfiniteQuery({
    queryKey: queryKeys.supercurationList(filters),
    queryFn: ({ pageParam, signal }) => api.listSupercurations({ ...filters, cursor: pageParam }, signal),
    ...paging,
  });
}

/** /directory: public collections, searched and filtered by focus. */
export function useDirectory(filters: Omit<DirectoryQuery, 'cursor'>) {
  return useInfiniteQuery({
    queryKey: queryKeys.directory(filters),
    queryFn: ({ pageParam, signal }) => api.directory({ ...filters, cursor: pageParam }, signal),
    placeholderData: keepPreviousData,
    ...paging,
  });
}

export function useSupercuration(id: string) {
  return useQuery({ queryKey: queryKeys.supercuration(id), queryFn: ({ signal }) => api.getSupercuration(id, signal) });
}

export function usePublicSupercuration(slug: string) {
  return useQuery({
    queryKey: queryKeys.publicSupercuration(slug),
    queryFn: ({ signal }) => api.getPublicSupercuration(slug, signal),
  });
}

/** A collection's resources, 10 a page, with its filters; reloads when the browser is back online. */
export function useResources(id: string, filters: Omit<ResourceListQuery, 'cursor'>) {
  return useInfiniteQuery({
    queryKey: queryKeys.resources(id, filters),
    queryFn: ({ pageParam, signal }) => api.listResources(id, { ...filters, cursor: pageParam }, signal),
    refetchOnReconnect: 'always',
    ...paging,
  });
}

/**
 * 'Add to Supercurations' in Preview & Share: SPEC §2 offers only the collections the user created
 * (collaborators add links from the collection's own page).
 */
export function useSupercurationOptions() {
  const choices = useQuery({
    queryKey: queryKeys.supercurationChoices,
    queryFn: ({ signal }) => api.mySupercurationChoices(signal),
    staleTime: 60_000,
  });
  return (choices.data ?? []).filter((c) => c.isOwner).map(({ id, title, isPublic }) => ({ id, title, isPublic }));
}
