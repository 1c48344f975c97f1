import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, Download, Users } from 'lucide-react';
import { useEffect } from 'react';
import { SUBSCRIPTION_MESSAGES, type UserProfile } from '../../shared/domain';
import { Button } from '../../shared/ui/primitives/button';
import { EmptyState } from '../components/EmptyState';
import { Loading } from '../components/Loading';
import { PageHeader } from '../components/PageHeader';
import { EmailSubscribersSection } from '../features/following/EmailSubscribersSection';
import { FediverseFollowersSection } from '../features/following/FediverseFollowersSection';
import { SubscribersTable } from '../features/following/SubscribersTable';
import { useSubscribers } from '../features/following/useFollowing';
import { useCurrentUser } from '../entities/session/currentUser';
import { api } from '../lib/api';
import { queryKeys } from '../../shared/queries/keys';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/** 'n Subscribers' (SPEC §2), '1 Subscriber' for one. */
function subscriberCount(n: number): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'Subscriber' : 'Subscribers'}`;
}

/** Subscriber Dashboard ('My Subscribers'): the signed-in user's own subscribers and the CSV export. */
export function DashboardPage() {
  useDocumentTitle('Subscriber Dashboard');
  const me = useCurrentUser();
  const subscribers = useSubscribers(me.id);
  const queryClient = useQueryClient();
  const total = subscribers.data?.pages[0]?.total;

  // The list's total is the fresh count: put it wherever else the user's own count is shown.
  useEffect(() => {
    if (total === undefined) return;
    const withTotal = (prev: UserProfile | null | undefined) => (prev ? { ...prev, subscribersCount: total } : prev);
    queryClient.setQueryData<UserProfile | null>(queryKeys.session, withTotal);
    queryClient.setQueryData<UserProfile>(queryKeys.user(me.id), (prev) => withTotal(prev) ?? undefined);
  }, [total, me.id, queryClient]);

  const items = subscribers.data?.pages.flatMap((p) => p.items) ?? [];
  const count = total ?? me.subscribersCount;

  return (
    <>
      <PageHeader
        title="Subscriber Dashboard"
        description="The people who subscribed to your updates."
        actions={
          <Button variant="outline" asChild>
            {/* A plain same-origin link: the browser downloads the file with the session cookie. */}
            <a href={api.subscribersCsvUrl()} download>
              <Download aria-hidden="true" />
              Export CSV
            </a>
          </Button>
        }
      />
      {subscribers.isPending ? (
        <Loading />
      ) : subscribers.isError ? (
        <EmptyState icon={CircleAlert} title={SUBSCRIPTION_MESSAGES.fetchSubscriptionsFailed}>
          <Button onClick={() => void subscribers.refetch()}>Retry</Button>
        </EmptyState>
      ) : (
        <>
          <p className="mb-4 text-lg font-semibold" aria-live="polite">
            {subscriberCount(count)}
          </p>
          {items.length === 0 ? (
            <EmptyState
              icon={Users}
              title={SUBSCRIPTION_MESSAGES.noSubscribers}
              description="When people subscribe to you, they will be listed here."
            />
          ) : (
            <SubscribersTable
              subscribers={items}
              hasMore={subscribers.hasNextPage}
              loadingMore={subscribers.isFetchingNextPage}
              loadMoreFailed={subscribers.isFetchNextPageError}
              onLoadMore={() => void subscribers.fetchNextPage()}
            />
          )}
        </>
      )}
      <EmailSubscribersSection />
      <FediverseFollowersSection />
    </>
  );
}
