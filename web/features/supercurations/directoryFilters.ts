import { FOCUS_CATEGORIES, type DirectoryQuery } from '../../../shared/domain';

/** What a /directory URL asks for (?q=&focus=), as the page's first query (also read by the server render). */
export function directoryFiltersFrom(params: URLSearchParams): Omit<DirectoryQuery, 'cursor'> {
  const q = params.get('q')?.trim();
  return { q: q || undefined, focus: FOCUS_CATEGORIES.find((f) => f === params.get('focus')) };
}
