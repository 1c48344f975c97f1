import { Compass, SearchX } from 'lucide-react';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { Link as RouterLink } from 'react-router';
import { FOLLOWING_MESSAGES, type FollowingQuery, paths } from '../../../shared/domain';
import { useTopicsById } from '../../../shared/queries/topics';
import { Button } from '../../../shared/ui/primitives/button';
import { EmptyState } from '../../components/EmptyState';
import { ListLoadFailed, ListSkeletons } from '../../components/LoadStates';
import { LinkCard, LinkCardSkeleton } from '../../entities/links/LinkCard';
import { useOnScreen } from '../../lib/useOnScreen';
import { FollowingItemHeader } from './FollowingItemHeader';
import { useFollowingFeed } from './useFollowingFeed';

interface FollowingFeedProps {
  filters: Omit<FollowingQuery, 'cursor'>;
  /** Whether a filter narrows the list (for the empty state). */
  filtered: boolean;
  onClearFilters: () => void;
}

/**
 * The Following feed: skeletons, then each item's who-and-where above its link card, with
 * infinite scroll and 'Load more'; empty (with the way to the directory) and error states.
 */
export function FollowingFeed({ filters, filtered, onClearFilters }: FollowingFeedProps) {
  const feed = useFollowingFeed(filters);
  const topicsById = useTopicsById();
  const more = feed.hasNextPage && !feed.isFetchingNextPage && !feed.isFetchNextPageError;
  const sentinel = useOnScreen<HTMLDivElement>(() => void feed.fetchNextPage(), more);

  useEffect(() => {
    if (feed.isFetchNextPageError) toast.error(FOLLOWING_MESSAGES.loadMoreFailed, { id: 'following-error' });
  }, [feed.isFetchNextPageError, feed.errorUpdatedAt]);

  if (!feed.data) {
    return feed.isError ? (
      <ListLoadFailed title={FOLLOWING_MESSAGES.loadFailed} onRetry={() => void feed.refetch()} />
    ) : (
      <ListSkeletons className="grid gap-4" count={3} skeleton={(i) => <LinkCardSkeleton key={i} />} />
    );
  }

  const items = feed.data.pages.flatMap((page) => page.items);
  if (items.length === 0 && !feed.hasNextPage) {
    return filtered ? (
      <EmptyState icon={SearchX} title={FOLLOWING_MESSAGES.noMatch} description="Try another format or time.">
        <Button variant="outline" onClick={onClearFilters}>
          Clear filters
        </Button>
      </EmptyState>
    ) : (
      <EmptyState icon={Compass} title={FOLLOWING_MESSAGES.empty} description={FOLLOWING_MESSAGES.emptyHint}>
        <Button asChild>
          <RouterLink to={paths.directory}>{FOLLOWING_MESSAGES.discover}</RouterLink>
        </Button>
      </EmptyState>
    );
  }

  return (
    <div className="grid gap-4">
      <ul aria-label={FOLLOWING_MESSAGES.title} className="grid gap-6">
        {items.map((item, index) => (
          <li key={`${item.at} ${item.supercuration?.id ?? ''} ${item.link.id}`} className="min-w-0">
            <FollowingItemHeader item={item} />
            <LinkCard link={item.link} topicsById={topicsById} priority={index === 0} />
          </li>
        ))}
      </ul>
      <div ref={sentinel} />
      {feed.hasNextPage && (
        <Button variant="outline" className="justify-self-center" disabled={feed.isFetchingNextPage} onClick={() => void feed.fetchNextPage()}>
          {feed.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </Button>
      )}
    </div>
  );
}
