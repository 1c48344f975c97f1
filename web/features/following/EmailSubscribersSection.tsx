import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../shared/ui/primitives/button';
import { api } from '../../lib/api';
import { shortDate } from '../../lib/dates';
import { CollectionGroup } from './CollectionGroup';
import { queryKeys } from '../../../shared/queries/keys';

/**
 * Dashboard: the confirmed e-mail subscribers of the signed-in user's own collections, per
 * collection (GET /api/me/email-subscribers; unconfirmed addresses are not listed).
 */
export function EmailSubscribersSection() {
  const groups = useQuery({ queryKey: queryKeys.emailSubscribers, queryFn: ({ signal }) => api.myEmailSubscribers(signal) });
  return (
    <section aria-labelledby="email-subscribers-heading" className="mt-10 grid gap-4">
      <h2 id="email-subscribers-heading" className="text-lg font-semibold">
        E-mail subscribers
      </h2>
      {groups.isPending ? (
        <p className="text-sm text-muted-foreground">Loading...</p>
      ) : groups.isError ? (
        <div className="flex items-center gap-3 text-sm">
          <span>Failed to fetch e-mail subscribers</span>
          <Button size="sm" variant="outline" onClick={() => void groups.refetch()}>
            Retry
          </Button>
        </div>
      ) : groups.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No confirmed e-mail subscribers yet. Visitors can subscribe by e-mail on your public collections.
        </p>
      ) : (
        groups.data.map((g) => (
          <CollectionGroup key={g.supercurationId} title={g.title} count={g.subscribers.length} noun="subscriber">
            <ul className="grid gap-1 text-sm">
              {g.subscribers.map((s) => (
                <li key={s.email} className="flex flex-wrap justify-between gap-2">
                  <span className="break-all">{s.email}</span>
                  <span className="text-muted-foreground">{shortDate(s.confirmedAt)}</span>
                </li>
              ))}
            </ul>
          </CollectionGroup>
        ))
      )}
    </section>
  );
}
