import { FOLLOWING_MESSAGES } from '../../shared/domain';
import { OfflineBanner } from '../components/OfflineBanner';
import { PageHeader } from '../components/PageHeader';
import { useFeedFilters } from '../entities/links/feedFilters';
import { FollowingFeed } from '../features/following/FollowingFeed';
import { FormatFilter } from '../features/links/FormatFilter';
import { TimeFilter } from '../features/links/TimeFilter';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/** /following: what the curators and collections I follow publish, with My Feed's time and format filters (?window=&format=). */
export function FollowingPage() {
  useDocumentTitle(FOLLOWING_MESSAGES.title);
  const { filters, update } = useFeedFilters();
  const query = { window: filters.window, format: filters.format };
  return (
    <>
      <PageHeader
        title={FOLLOWING_MESSAGES.title}
        description={FOLLOWING_MESSAGES.description}
        actions={<TimeFilter value={filters.window} onChange={(window) => update({ window })} />}
      />
      <OfflineBanner>the feed will reload when the connection is back.</OfflineBanner>
      <div className="mb-4">
        <FormatFilter value={filters.format} onChange={(format) => update({ format })} />
      </div>
      <FollowingFeed
        key={JSON.stringify(query)}
        filters={query}
        filtered={filters.window !== 'all' || filters.format !== undefined}
        onClearFilters={() => update({ window: 'all', format: undefined })}
      />
    </>
  );
}
