import { infiniteQueryOptions, keepPreviousData, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { DirectoryQuery, ResourceListQuery, SupercurationListQuery } from '../../../shared/domain';
import { api } from '../../lib/api';
import { queryKeys } from '../../../shared/queries/keys';
import { cursorPaging } from '../../lib/paging';
import { brokenCountKeys } from '../../entities/links/useLinkQueries';

/** My Supercurations: own, collaborating and others' public collections. */
export function useSupercurationList(filters: Omit<SupercurationListQuery, 'cursor'>) {
  return useInfiniteQuery({
    queryKey: queryKeys.supercurationList(filters),
    queryFn: ({ pageParam, signal }) => api.listSupercurations({ ...filters, cursor: pageParam }, signal),
    ...cursorPaging,
  });
}

/** /directory: public collections, searched and filtered by focus (also prefetched by the server render). */
export const directoryQuery = (filters: Omit<DirectoryQuery, 'cursor'>) =>
  infiniteQueryOptions({
    queryKey: queryKeys.directory(filters),
    queryFn: ({ pageParam, signal }) => api.directory({ ...filters, cursor: pageParam }, signal),
    ...cursorPaging,
  });

export function useDirectory(filters: Omit<DirectoryQuery, 'cursor'>) {
  return useInfiniteQuery({ ...directoryQuery(filters), placeholderData: keepPreviousData });
}

export function useSupercuration(id: string) {
  return useQuery({ queryKey: queryKeys.supercuration(id), queryFn: ({ signal }) => api.getSupercuration(id, signal) });
}

export const publicSupercurationQuery = (slug: string) =>
  queryOptions({
    queryKey: queryKeys.publicSupercuration(slug),
    queryFn: ({ signal }) => api.getPublicSupercuration(slug, signal),
  });

export function usePublicSupercuration(slug: string) {
  return useQuery(publicSupercurationQuery(slug));
}

/** A collection's resources, 10 a page, with its filters. */
export const resourcesQuery = (id: string, filters: Omit<ResourceListQuery, 'cursor'>) =>
  infiniteQueryOptions({
    queryKey: queryKeys.resources(id, filters),
    queryFn: ({ pageParam, signal }) => api.listResources(id, { ...filters, cursor: pageParam }, signal),
    ...cursorPaging,
  });

/** Reloads when the browser is back online. */
export function useResources(id: string, filters: Omit<ResourceListQuery, 'cursor'>) {
  return useInfiniteQuery({ ...resourcesQuery(id, filters), refetchOnReconnect: 'always' });
}

/** How many of the collection's links the link checker found broken; asked only for its editors. */
export function useSupercurationBrokenCount(id: string, editor: boolean) {
  return useQuery({
    queryKey: brokenCountKeys.collection(id),
    queryFn: ({ signal }) => api.supercurationBrokenCount(id, signal),
    enabled: editor,
  });
}
