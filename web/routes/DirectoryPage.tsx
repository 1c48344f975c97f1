import { Search, SearchX } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { FOCUS_CATEGORIES } from '../../shared/domain';
import { EmptyState } from '../components/EmptyState';
import { Input } from '../../shared/ui/primitives/input';
import { Label } from '../../shared/ui/primitives/label';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { cn } from '../../shared/ui/cn';

/** Public supercurations, searchable and filtered by focus; the filters live in the URL. */
export function DirectoryPage() {
  useDocumentTitle('Directory');
  const [params, setParams] = useSearchParams();
  // The box keeps its own state: URL updates are asynchronous and would make a controlled input lag.
  const [query, setQuery] = useState(() => params.get('q') ?? '');
  const focus = params.get('focus');

  function update(key: 'q' | 'focus', value: string | null) {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  }

  return (
    <>
      <section className="bg-gradient-to-b from-accent to-background">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Directory</h1>
          <p className="mt-2 text-lg text-muted-foreground">Discover supercurations</p>
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
                onChange={(e) => {
                  setQuery(e.target.value);
                  update('q', e.target.value.trim() || null);
                }}
              />
            </div>
          </form>
        </div>
      </section>

      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[14rem_1fr]">
        <section aria-labelledby="focus-heading">
          <h2 id="focus-heading" className="mb-3 text-sm font-semibold tracking-wide text-muted-foreground uppercase">
            Focus
          </h2>
          <ul className="flex flex-wrap gap-2 lg:flex-col lg:items-start">
            {FOCUS_CATEGORIES.map((category) => {
              const pressed = focus === category;
              return (
                <li key={category}>
                  <button
                    type="button"
                    aria-pressed={pressed}
                    onClick={() => update('focus', pressed ? null : category)}
                    className={cn(
                      'rounded-full border px-3 py-1 text-sm transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2',
                      pressed
                        ? 'border-primary bg-primary text-primary-foreground'
                        : 'bg-card text-foreground hover:bg-muted',
                    )}
                  >
                    {category}
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
        <section aria-label="Supercurations">
          <EmptyState
            icon={SearchX}
            title="No supercurations found"
            description={
              query || focus
                ? 'Try another search or focus.'
                : 'Public supercurations will appear here once curators publish them.'
            }
          />
        </section>
      </div>
    </>
  );
}
