import { Link2, Pencil, SearchX, X } from 'lucide-react';
import { Suspense, lazy, useEffect, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { LINK_MESSAGES, type Link, type ResourceListQuery, type Supercuration, type Topic } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { EmptyState } from '../../components/EmptyState';
import { useOnScreen } from '../../lib/useOnScreen';
import { useSession } from '../../entities/session/useSession';
import { LinkCard, LinkCardSkeleton } from '../../entities/links/LinkCard';
import { NoBrokenLinks } from '../../entities/links/BrokenLinksFilter';
import { useTopicsById } from '../../../shared/queries/topics';
import { useResources } from './queries';
import { ResourceTagChips } from './ResourceTagChips';
import type { ViewMode } from './ViewToggle';
import { ListLoadFailed, ListSkeletons } from '../../components/LoadStates';

// Editors' dialogs, loaded when first opened: visitors of a public collection never need them.
const EditResourceDialog = lazy(() => import('./EditResourceDialog').then((m) => ({ default: m.EditResourceDialog })));
const RemoveResourceDialog = lazy(() => import('./RemoveResourceDialog').then((m) => ({ default: m.RemoveResourceDialog })));

interface ResourceListProps {
  supercuration: Supercuration;
  query: Omit<ResourceListQuery, 'cursor'>;
  view: ViewMode;
  /** Whether a filter narrows the list (for the empty state). */
  filtered: boolean;
  onClearFilters: () => void;
  /** The empty collection's state (without filters). */
  empty: ReactNode;
}

/**
 * A collection's resources as link cards in a grid or a list, 10 a page with infinite scroll and
 * 'Load more'. Editors get Edit (with this collection's tags) and Remove on each card.
 */
export function ResourceList({ supercuration, query, view, filtered, onClearFilters, empty }: ResourceListProps) {
  const resources = useResources(supercuration.id, query);
  // Topics are per user: a visitor has none, and sees a link's topic ids.
  const topicsById = useTopicsById(Boolean(useSession().user));
  const canLoadMore = resources.hasNextPage && !resources.isFetchingNextPage && !resources.isFetchNextPageError;
  const sentinel = useOnScreen<HTMLDivElement>(() => void resources.fetchNextPage(), canLoadMore);
  const gridClass = view === 'grid' ? 'grid gap-4 sm:grid-cols-2 xl:grid-cols-3' : 'grid gap-4';

  useEffect(() => {
    if (resources.isFetchNextPageError) toast.error(LINK_MESSAGES.fetchMoreLinksFailed, { id: 'resources-error' });
  }, [resources.isFetchNextPageError, resources.errorUpdatedAt]);

  if (!resources.data) {
    if (resources.isError) {
      return <ListLoadFailed title={LINK_MESSAGES.fetchLinksFailed} onRetry={() => void resources.refetch()} />;
    }
    return <ListSkeletons className={gridClass} count={3} skeleton={(i) => <LinkCardSkeleton key={i} />} />;
  }

  const links = resources.data.pages.flatMap((page) => page.items);
  if (links.length === 0) {
    if (!filtered) return query.broken ? <NoBrokenLinks /> : <>{empty}</>;
    return (
      <EmptyState icon={SearchX} title="No resources match these filters" description="Try another tag, format or time.">
        <Button variant="outline" onClick={onClearFilters}>
          Clear filters
        </Button>
      </EmptyState>
    );
  }

  return (
    <div className="grid gap-4">
      <ul aria-label="Resources" className={gridClass}>
        {links.map((link, index) => (
          <li key={link.id} className="min-w-0">
            <Resource link={link} supercuration={supercuration} view={view} topicsById={topicsById} priority={index === 0} />
          </li>
        ))}
      </ul>
      <div ref={sentinel} />
      {resources.hasNextPage && (
        <Button
          variant="outline"
          className="justify-self-center"
          disabled={resources.isFetchingNextPage}
          onClick={() => void resources.fetchNextPage()}
        >
          {resources.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </Button>
      )}
    </div>
  );
}

interface ResourceProps {
  link: Link;
  supercuration: Supercuration;
  view: ViewMode;
  topicsById: Map<string, Topic>;
  priority: boolean;
}

function Resource({ link, supercuration, view, topicsById, priority }: ResourceProps) {
  const [dialog, setDialog] = useState<'edit' | 'remove' | null>(null);
  const closeDialog = (open: boolean) => !open && setDialog(null);
  const tags = link.supercurationTags[supercuration.id] ?? [];
  return (
    <>
      <LinkCard
        link={link}
        topicsById={topicsById}
        layout={view}
        priority={priority}
        actions={
          supercuration.canEdit && (
            <>
              <Button variant="ghost" size="icon" className="size-9" aria-label="Edit resource" title="Edit" onClick={() => setDialog('edit')}>
                <Pencil aria-hidden="true" />
              </Button>
              <Button
                variant="ghost"
                size="icon"
                className="size-9 hover:text-destructive"
                aria-label="Remove resource"
                title="Remove from this supercuration"
                onClick={() => setDialog('remove')}
              >
                <X aria-hidden="true" />
              </Button>
            </>
          )
        }
      >
        <ResourceTagChips tags={tags} categories={supercuration.tagCategories} />
      </LinkCard>
      <Suspense fallback={null}>
        {dialog === 'edit' && <EditResourceDialog link={link} supercuration={supercuration} open onOpenChange={closeDialog} />}
        {dialog === 'remove' && <RemoveResourceDialog link={link} supercurationId={supercuration.id} open onOpenChange={closeDialog} />}
      </Suspense>
    </>
  );
}

/** The empty collection: what to do next depends on who looks. */
export function EmptyResources({ action }: { action?: ReactNode }) {
  return (
    <EmptyState
      icon={Link2}
      title="No resources yet"
      description={action ? 'Add saved links or new ones to fill this supercuration.' : 'The curator has not added any links yet.'}
    >
      {action}
    </EmptyState>
  );
}
