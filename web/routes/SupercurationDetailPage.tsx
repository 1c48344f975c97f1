import { CircleAlert, FolderX, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../shared/api/client';
import { SUPERCURATION_MESSAGES, type Supercuration } from '../../shared/domain';
import { Button } from '../../shared/ui/primitives/button';
import { EmptyState } from '../components/EmptyState';
import { Loading } from '../components/Loading';
import { OfflineBanner } from '../components/OfflineBanner';
import { BrokenLinksFilter } from '../entities/links/BrokenLinksFilter';
import { AddResourceDialog } from '../features/supercurations/AddResourceDialog';
import { PreviewsLeft } from '../features/supercurations/PreviewsLeft';
import { useSupercuration, useSupercurationBrokenCount } from '../features/supercurations/queries';
import { useResourceFilters } from '../features/supercurations/resourceFilters';
import { EmptyResources, ResourceList } from '../features/supercurations/ResourceList';
import { ResourcesHeading } from '../features/supercurations/ResourcesHeading';
import { SupercurationHeader } from '../features/supercurations/SupercurationHeader';
import { TagFilter } from '../features/supercurations/TagFilter';
import { ViewToggle } from '../features/supercurations/ViewToggle';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/** /supercurations/{id}: a collection its editors manage; others may look at a public one. */
export function SupercurationDetailPage() {
  const { id = '' } = useParams();
  const supercuration = useSupercuration(id);
  // 404 for a missing or hidden collection; 403 would only tell a stranger that it exists.
  const notFound = supercuration.error instanceof ApiError && [403, 404].includes(supercuration.error.status);
  useDocumentTitle(
    supercuration.data?.title ??
      (supercuration.isError ? (notFound ? SUPERCURATION_MESSAGES.notFound : SUPERCURATION_MESSAGES.loadFailed) : undefined),
  );

  if (supercuration.data) return <Detail supercuration={supercuration.data} />;
  if (!supercuration.isError) return <Loading />;
  return notFound ? (
    <EmptyState
      level={1}
      icon={FolderX}
      title={SUPERCURATION_MESSAGES.notFound}
      description="It may have been deleted, or you may not have access to it."
    >
      <Button variant="outline" asChild>
        <Link to="/supercurations">Back to your supercurations</Link>
      </Button>
    </EmptyState>
  ) : (
    <EmptyState level={1} icon={CircleAlert} title={SUPERCURATION_MESSAGES.loadFailed} description="Check your connection and try again.">
      <Button onClick={() => void supercuration.refetch()}>Retry</Button>
    </EmptyState>
  );
}

function Detail({ supercuration: s }: { supercuration: Supercuration }) {
  const { filters, query, filtered, update } = useResourceFilters(s.canEdit);
  const broken = useSupercurationBrokenCount(s.id, s.canEdit);
  const [adding, setAdding] = useState(false);
  const addButton = s.canEdit && (
    <Button onClick={() => setAdding(true)}>
      <Plus aria-hidden="true" />
      Add New Resource
    </Button>
  );

  return (
    <>
      <SupercurationHeader supercuration={s} />
      <OfflineBanner>the list will reload when the connection is back.</OfflineBanner>
      <section aria-labelledby="resources-heading" className="grid gap-4 border-t pt-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <ResourcesHeading count={s.linksCount} />
          <div className="flex items-center gap-2">
            <ViewToggle value={filters.view} onChange={(view) => update({ view })} />
            {addButton}
          </div>
        </div>
        {s.canEdit && <PreviewsLeft supercurationId={s.id} />}
        <TagFilter categories={s.tagCategories} value={filters.tag} onChange={(tag) => update({ tag })} />
        {s.canEdit && (
          <BrokenLinksFilter count={broken.data?.count ?? 0} pressed={filters.broken} onPressedChange={(on) => update({ broken: on })} />
        )}
        <ResourceList
          supercuration={s}
          query={query}
          view={filters.view}
          filtered={filtered}
          onClearFilters={() => update({ tag: undefined, window: 'all', format: undefined })}
          empty={<EmptyResources action={addButton || undefined} />}
        />
      </section>
      {s.canEdit && <AddResourceDialog supercuration={s} open={adding} onOpenChange={setAdding} />}
    </>
  );
}
