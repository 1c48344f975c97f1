import { Link } from 'react-router';
import { paths, type Subscriber, SUBSCRIPTION_MESSAGES } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { fullDateTime, shortDate } from '../../lib/dates';

interface Props {
  subscribers: Subscriber[];
  hasMore: boolean;
  loadingMore: boolean;
  loadMoreFailed: boolean;
  onLoadMore(): void;
}

/** Name (linking to the profile), e-mail and subscribed date of each subscriber, newest first. */
export function SubscribersTable({ subscribers, hasMore, loadingMore, loadMoreFailed, onLoadMore }: Props) {
  return (
    <div className="space-y-4">
      <div className="overflow-x-auto rounded-xl border bg-card">
        <table className="w-full text-left text-sm">
          <thead className="border-b bg-muted/50 text-muted-foreground">
            <tr>
              <th scope="col" className="px-4 py-3 font-medium">
                Name
              </th>
              <th scope="col" className="hidden px-4 py-3 font-medium sm:table-cell">
                Email
              </th>
              <th scope="col" className="px-4 py-3 font-medium whitespace-nowrap">
                Subscribed Date
              </th>
            </tr>
          </thead>
          <tbody>
            {subscribers.map((s) => (
              <tr key={s.id} className="border-b last:border-b-0">
                <td className="px-4 py-3">
                  <Link
                    to={paths.profile(s.id)}
                    className="font-medium [overflow-wrap:anywhere] underline-offset-4 hover:underline"
                  >
                    {s.name}
                  </Link>
                  {/* Small screens: the e-mail under the name instead of a column of its own. */}
                  <span className="block text-muted-foreground [overflow-wrap:anywhere] sm:hidden">{s.email}</span>
                </td>
                <td className="hidden px-4 py-3 [overflow-wrap:anywhere] sm:table-cell">
                  <a href={`mailto:${s.email}`} className="underline-offset-4 hover:underline">
                    {s.email}
                  </a>
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-muted-foreground">
                  <time dateTime={s.subscribedAt} title={fullDateTime(s.subscribedAt)}>
                    {shortDate(s.subscribedAt)}
                  </time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {hasMore && (
        <div className="flex flex-col items-center gap-2">
          {loadMoreFailed && (
            <p role="alert" className="text-sm text-destructive">
              {SUBSCRIPTION_MESSAGES.fetchSubscriptionsFailed}
            </p>
          )}
          <Button variant="outline" disabled={loadingMore} onClick={onLoadMore}>
            {loadingMore ? 'Loading...' : 'Load more'}
          </Button>
        </div>
      )}
    </div>
  );
}
