import { Search, SearchX } from 'lucide-react';
import { useEffect, useState } from 'react';
import { DIRECTORY_SKELETON_COUNT, type FocusCategory, paths, SUPERCURATION_MESSAGES } from '../../shared/domain';
import { Input } from '../../shared/ui/primitives/input';
import { Label } from '../../shared/ui/primitives/label';
import { useDebouncedValue } from '../../shared/ui/useDebouncedValue';
import { EmptyState } from '../components/EmptyState';
import { DirectoryHeroNote } from '../features/supercurations/DirectoryHeroNote';
import { directoryFiltersFrom } from '../features/supercurations/directoryFilters';
import { FocusFilter } from '../features/supercurations/FocusFilter';
import { useDirectory } from '../features/supercurations/queries';
import { SupercurationCard } from '../features/supercurations/SupercurationCard';
import { SupercurationResults } from '../features/supercurations/SupercurationResults';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { useQueryParams } from '../lib/useQueryParams';

const SEARCH_DEBOUNCE_MS = 300;

/** Public supercurations, searchable and filtered by focus; the filters live in the URL (?q=&focus=). */
export function DirectoryPage() {
  useDocumentTitle('Directory');
  const [params, setParam] = useQueryParams();
  // The box keeps its own state: URL updates are asynchronous and would make a controlled input lag.
  const [query, setQuery] = useState(() => params.get('q') ?? '');
  const q = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS);
  const { focus } = directoryFiltersFrom(params);
  const results = useDirectory({ q: q || undefined, focus });

  // The settled search goes to the URL, so it survives a reload and can be shared.
  useEffect(() => {
    setParam('q', q);
  }, [q, setParam]);

  return (
    <>
      <section className="border-b bg-gradient-to-b from-accent to-background">
        <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:px-6 sm:py-14 lg:grid-cols-[1fr_20rem] lg:items-end">
          <div>
            <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Directory</h1>
            <p className="mt-2 text-lg text-muted-foreground">Discover supercurations: collections of links hand-picked by curators.</p>
            <form role="search" className="mt-8 grid max-w-xl gap-2" onSubmit={(e) => e.preventDefault()}>
              <Label htmlFor="directory-search">Search supercurations</Label>
              <div className="relative">
                <Search
                  aria-hidden="true"
                  className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
                />
                <Input
                  id="directory-search"
                  type="search"
                  placeholder="Search by title or description"
                  className="pl-9"
                  value={query}
                  onChange={(e) => setQuery(e.target.value)}
                />
              </div>
            </form>
          </div>
          <DirectoryHeroNote />
        </div>
      </section>

      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[14rem_minmax(0,1fr)]">
        <FocusFilter value={focus} onChange={(f?: FocusCategory) => setParam('focus', f)} />
        <section aria-label="Results" className="min-w-0">
          <SupercurationResults
            query={results}
            label="Supercurations"
            skeletons={DIRECTORY_SKELETON_COUNT}
            renderCard={(s, index) => (
              <SupercurationCard supercuration={s} to={s.slug ? paths.shortSupercuration(s.slug) : '/directory'} priority={index === 0} />
            )}
            empty={
              <EmptyState
                icon={SearchX}
                title={SUPERCURATION_MESSAGES.noneFound}
                description={
                  q || focus ? 'Try another search or focus.' : 'Public supercurations will appear here once curators publish them.'
                }
              />
            }
          />
        </section>
      </div>
    </>
  );
}
