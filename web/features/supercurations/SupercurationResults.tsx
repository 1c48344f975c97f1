import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { SUPERCURATION_MESSAGES, type Page, type SupercurationSummary } from '../../../shared/domain';
import { cn } from '../../../shared/ui/cn';
import { Button } from '../../../shared/ui/primitives/button';
import { SupercurationCardSkeleton } from './SupercurationCard';
import type { ViewMode } from './ViewToggle';
import { ListLoadFailed, ListSkeletons } from '../../components/LoadStates';

type Results = UseInfiniteQueryResult<InfiniteData<Page<SupercurationSummary>, unknown>>;

interface SupercurationResultsProps {
  query: Results;
  /** Skeleton cards while the first page loads. */
  skeletons: number;
  /** What to show when there is none. */
  empty: ReactNode;
  /** `index` is the card's place in the list (0: the first, whose picture may get priority). */
  renderCard: (supercuration: SupercurationSummary, index: number) => ReactNode;
  layout?: ViewMode;
  /** Accessible name of the list. */
  label: string;
  className?: string;
}

/**
 * A list of collection cards from a cursor-paged query: skeletons while loading, an error with
 * Retry ('Failed to fetch supercurations'), the empty state, the cards, and 'Load more'.
 */
export function SupercurationResults({
  query,
  skeletons,
  empty,
  renderCard,
  layout = 'grid',
  label,
  className,
}: SupercurationResultsProps) {
  const gridClass = cn(
    layout === 'grid' ? 'grid gap-4 sm:grid-cols-2 xl:grid-cols-3' : 'grid gap-3',
    className,
  );
  if (!query.data) {
    if (query.isError) {
      return <ListLoadFailed title={SUPERCURATION_MESSAGES.fetchFailed} onRetry={() => void query.refetch()} />;
    }
    return <ListSkeletons className={gridClass} count={skeletons} skeleton={(i) => <SupercurationCardSkeleton key={i} layout={layout} />} />;
  }

  const items = query.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <>{empty}</>;
  return (
    <div className={cn('grid gap-6', query.isPlaceholderData && 'opacity-60 transition-opacity')} aria-busy={query.isFetching}>
      <ul aria-label={label} className={gridClass}>
        {items.map((s, index) => (
          <li key={s.id} className="min-w-0">
            {renderCard(s, index)}
          </li>
        ))}
      </ul>
      {query.isFetchNextPageError && (
        <p role="alert" className="text-center text-sm text-destructive">
          {SUPERCURATION_MESSAGES.fetchFailed}
        </p>
      )}
      {query.hasNextPage && (
        <Button
          variant="outline"
          className="justify-self-center"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {query.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </Button>
      )}
    </div>
  );
}
