import { Link2, Repeat2, SearchX } from 'lucide-react';
import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { LINK_MESSAGES } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { EmptyState } from '../../components/EmptyState';
import { useOnScreen } from '../../lib/useOnScreen';
import { useTopicsById } from '../../../shared/queries/topics';
import { isFiltered, type FeedFilters } from '../../entities/links/feedFilters';
import { LinkCard, LinkCardSkeleton } from '../../entities/links/LinkCard';
import { NoBrokenLinks } from '../../entities/links/BrokenLinksFilter';
import { useLinkFeed } from '../../entities/links/useLinkQueries';
import { ListLoadFailed, ListSkeletons } from '../../components/LoadStates';

/**
 * One tab of My Feed: skeletons, then the cards with infinite scroll and 'Load more'; empty and
 * error states. Failures are also toasted with the texts of SPEC §8.
 */
export function FeedList({ filters, onClearFilters }: { filters: FeedFilters; onClearFilters: () => void }) {
  const feed = useLinkFeed(filters);
  const topicsById = useTopicsById();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const canLoadMore = feed.hasNextPage && !feed.isFetchingNextPage && !feed.isFetchNextPageError;
  const sentinel = useOnScreen<HTMLDivElement>(() => void feed.fetchNextPage(), canLoadMore);

  useEffect(() => {
    if (!feed.error) return;
    toast.error(feed.isFetchNextPageError ? LINK_MESSAGES.fetchMoreLinksFailed : LINK_MESSAGES.loadLinksFailed, {
      id: 'feed-error',
    });
  }, [feed.error, feed.errorUpdatedAt, feed.isFetchNextPageError]);

  if (!feed.data) {
    if (feed.isError) {
      return <ListLoadFailed title={LINK_MESSAGES.loadLinksFailed} onRetry={() => void feed.refetch()} />;
    }
    return <ListSkeletons className="grid gap-4" count={3} skeleton={(i) => <LinkCardSkeleton key={i} />} />;
  }

  const links = feed.data.pages.flatMap((page) => page.items);
  if (links.length === 0) {
    if (isFiltered(filters)) {
      return (
        <EmptyState icon={SearchX} title="No links match these filters" description="Try another format, topic or time.">
          <Button variant="outline" onClick={onClearFilters}>
            Clear filters
          </Button>
        </EmptyState>
      );
    }
    if (filters.broken) return <NoBrokenLinks />;
    return filters.scope === 'reposts' ? (
      <EmptyState icon={Repeat2} title="No reposts yet" description="Links you repost from other curators will appear here." />
    ) : (
      <EmptyState
        icon={Link2}
        title="You haven't shared any links yet"
        description="Paste a link above to share your first one."
      />
    );
  }

  const selectedHere = links.filter((l) => selected.has(l.id)).length;
  const select = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <div className="grid gap-4">
      <div aria-live="polite">
        {selectedHere > 0 && (
          <div className="flex items-center justify-between gap-2 rounded-lg border bg-accent px-4 py-2 text-sm text-accent-foreground">
            <span className="font-medium">{selectedHere} selected</span>
            <Button variant="ghost" size="sm" onClick={() => setSelected(new Set())}>
              Clear selection
            </Button>
          </div>
        )}
      </div>
      <ul className="grid gap-4">
        {links.map((link) => (
          <li key={link.id}>
            <LinkCard
              link={link}
              topicsById={topicsById}
              selected={selected.has(link.id)}
              onSelectedChange={(on) => select(link.id, on)}
            />
          </li>
        ))}
      </ul>
      <div ref={sentinel} />
      {feed.hasNextPage && (
        <Button
          variant="outline"
          className="justify-self-center"
          disabled={feed.isFetchingNextPage}
          onClick={() => void feed.fetchNextPage()}
        >
          {feed.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </Button>
      )}
    </div>
  );
}
