import { useSearchParams } from 'react-router';
import { FORMAT_IDS, LINK_SORTS, TIME_WINDOWS, type FormatId, type ResourceListQuery } from '../../../shared/domain';
import type { TimeWindow } from '../../entities/links/feedFilters';
import type { ViewMode } from './ViewToggle';

export type ResourceSort = (typeof LINK_SORTS)[number];

export const SORT_LABELS: Record<ResourceSort, string> = {
  newest: 'Newest First',
  oldest: 'Oldest First',
  most_liked: 'Most Liked',
};

/** What a collection's resource list shows, kept in the page's URL (?tag=&window=&format=&sort=&view=list&broken=1). */
export interface ResourceFilters {
  tag?: string;
  window: TimeWindow;
  format?: FormatId;
  sort: ResourceSort;
  view: ViewMode;
  /** 'Broken links (n)': only the broken links, for the collection's editors. */
  broken: boolean;
}

function oneOf<T extends string>(value: string | null, allowed: readonly T[]): T | undefined {
  return allowed.find((a) => a === value);
}

/** The filters a page URL's query string asks for (also read by the server render). */
export function resourceFiltersFrom(params: URLSearchParams): ResourceFilters {
  return {
    tag: params.get('tag') || undefined,
    window: oneOf(params.get('window'), TIME_WINDOWS) ?? 'all',
    format: oneOf(params.get('format'), FORMAT_IDS),
    sort: oneOf(params.get('sort'), LINK_SORTS) ?? 'newest',
    view: params.get('view') === 'list' ? 'list' : 'grid',
    broken: params.get('broken') === '1',
  };
}

/**
 * The list's query of those filters (the view is not part of it); `broken` only for an editor, as
 * the server answers it to no one else (a visitor's page, server-rendered too, ignores it).
 */
export function resourceListQueryOf({ tag, window, format, sort, broken }: ResourceFilters, editor = false): Omit<ResourceListQuery, 'cursor'> {
  return { tag, window, format, sort, broken: editor && broken ? '1' : undefined };
}

/** The filters and a setter that writes them to the URL (replacing the history entry); `editor`: see resourceListQueryOf. */
export function useResourceFilters(editor = false) {
  const [params, setParams] = useSearchParams();
  const filters = resourceFiltersFrom(params);

  function update(patch: Partial<ResourceFilters>) {
    const next = { ...filters, ...patch };
    const search = new URLSearchParams();
    if (next.tag) search.set('tag', next.tag);
    if (next.window !== 'all') search.set('window', next.window);
    if (next.format) search.set('format', next.format);
    if (next.sort !== 'newest') search.set('sort', next.sort);
    if (next.view === 'list') search.set('view', 'list');
    if (next.broken) search.set('broken', '1');
    setParams(search, { replace: true });
  }

  const query = resourceListQueryOf(filters, editor);
  const filtered = Boolean(filters.tag || filters.format || filters.window !== 'all');
  return { filters, query, filtered, update };
}
