import { FolderX, Rss, SlidersHorizontal } from 'lucide-react';
import { Suspense, lazy, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../shared/api/client';
import { LINK_SORTS, paths, type PublicSupercuration, SUPERCURATION_MESSAGES } from '../../shared/domain';
import { Button } from '../../shared/ui/primitives/button';
import { EmptyState } from '../components/EmptyState';
import { FilterSelect } from '../components/FilterSelect';
import { Loading } from '../components/Loading';
import { FormatFilter } from '../features/links/FormatFilter';
import { TimeFilter } from '../features/links/TimeFilter';
import { PublicHero } from '../features/supercurations/PublicHero';
import { usePublicSupercuration } from '../features/supercurations/queries';
import { SORT_LABELS, useResourceFilters } from '../features/supercurations/resourceFilters';
import { EmptyResources, ResourceList } from '../features/supercurations/ResourceList';
import { ResourcesHeading } from '../features/supercurations/ResourcesHeading';
import { withTags } from '../features/supercurations/TagCategoryGroup';
import { TagFilter } from '../features/supercurations/TagFilter';
import { ViewToggle } from '../features/supercurations/ViewToggle';
import { useDocumentTitle } from '../lib/useDocumentTitle';

// The small screens' tag drawer, loaded when first opened.
const TagSheet = lazy(() => import('../features/supercurations/TagSheet').then((m) => ({ default: m.TagSheet })));

/** /supercurations/public/{slug}: a public collection for everyone; missing or private ones are a 404. */
export function PublicSupercurationPage() {
  const { slug = '' } = useParams();
  const supercuration = usePublicSupercuration(slug);
  useDocumentTitle(supercuration.data?.title ?? (supercuration.isError ? SUPERCURATION_MESSAGES.publicNotFound : undefined));

  if (supercuration.data) return <PublicCollection supercuration={supercuration.data} />;
  if (!supercuration.isError) return <Loading />;
  // SPEC §8: every failure shows the 404 text here; only a failure that may pass gets a Retry.
  const clientError = supercuration.error instanceof ApiError && supercuration.error.status >= 400 && supercuration.error.status < 500;
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <EmptyState level={1} icon={FolderX} title={SUPERCURATION_MESSAGES.publicNotFound}>
        {!clientError && <Button onClick={() => void supercuration.refetch()}>Retry</Button>}
        <Button variant="outline" asChild>
          <Link to="/directory">Browse the directory</Link>
        </Button>
      </EmptyState>
    </div>
  );
}

function PublicCollection({ supercuration: s }: { supercuration: PublicSupercuration }) {
  const { filters, query, filtered, update } = useResourceFilters();
  const [tagsOpen, setTagsOpen] = useState(false);
  const hasTags = withTags(s.tagCategories).length > 0;
  const clearFilters = () => update({ tag: undefined, window: 'all', format: undefined });

  return (
    <>
      <PublicHero supercuration={s} />
      <div className={hasTags ? 'mx-auto grid max-w-6xl gap-8 px-4 py-8 sm:px-6 lg:grid-cols-[14rem_minmax(0,1fr)]' : 'mx-auto max-w-6xl px-4 py-8 sm:px-6'}>
        {hasTags && (
          <aside aria-label="Tags" className="hidden lg:block">
            <h2 className="mb-3 text-sm font-semibold tracking-wide text-muted-foreground uppercase">Filter by tag</h2>
            <TagFilter categories={s.tagCategories} value={filters.tag} onChange={(tag) => update({ tag })} layout="column" />
          </aside>
        )}
        <section aria-labelledby="resources-heading" className="grid min-w-0 content-start gap-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <ResourcesHeading count={s.linksCount} />
            <div className="flex flex-wrap items-center gap-2">
              {hasTags && (
                <Button
                  variant="outline"
                  size="icon"
                  className="lg:hidden"
                  aria-label="Filter by tag"
                  title="Filter by tag"
                  onClick={() => setTagsOpen(true)}
                >
                  <SlidersHorizontal aria-hidden="true" />
                </Button>
              )}
              {s.slug && (
                <Button variant="outline" size="sm" asChild>
                  <a href={paths.collectionFeed(s.slug)} type="application/rss+xml" aria-label={`RSS feed of ${s.title}`}>
                    <Rss aria-hidden="true" />
                    RSS
                  </a>
                </Button>
              )}
              <ViewToggle value={filters.view} onChange={(view) => update({ view })} />
            </div>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <TimeFilter value={filters.window} onChange={(window) => update({ window })} />
            <FilterSelect
              id="resource-sort"
              label="Sort"
              value={filters.sort}
              options={LINK_SORTS}
              labels={SORT_LABELS}
              onChange={(sort) => update({ sort })}
            />
          </div>
          <FormatFilter value={filters.format} onChange={(format) => update({ format })} />
          <ResourceList
            supercuration={s}
            query={query}
            view={filters.view}
            filtered={filtered}
            onClearFilters={clearFilters}
            empty={<EmptyResources />}
          />
        </section>
      </div>
      {tagsOpen && (
        <Suspense fallback={null}>
          <TagSheet
            categories={s.tagCategories}
            value={filters.tag}
            onChange={(tag) => {
              update({ tag });
              setTagsOpen(false);
            }}
            onClose={() => setTagsOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}
