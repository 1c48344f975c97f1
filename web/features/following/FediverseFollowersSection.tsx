import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { UserMinus } from 'lucide-react';
import toast from 'react-hot-toast';
import { SUPERCURATION_MESSAGES } from '../../../shared/domain';
import { queryKeys } from '../../../shared/queries/keys';
import { Button } from '../../../shared/ui/primitives/button';
import { api } from '../../lib/api';
import { shortDate } from '../../lib/dates';
import { CollectionGroup } from './CollectionGroup';

/**
 * Dashboard: who follows the signed-in user (as a curator) and their collections from Mastodon and
 * other fediverse servers (GET /api/me/fediverse-followers), with a way to remove one (its server
 * is sent a Reject). Shown once there is someone to list, or a failure to say.
 */
export function FediverseFollowersSection() {
  const queryClient = useQueryClient();
  const followers = useQuery({ queryKey: queryKeys.fediverseFollowers, queryFn: ({ signal }) => api.myFediverseFollowers(signal) });
  const remove = useMutation({
    // supercurationId null: a follower of the curator themself.
    mutationFn: ({ supercurationId, actor }: { supercurationId: string | null; actor: string }) =>
      supercurationId ? api.removeFediverseFollower(supercurationId, actor) : api.removeMyFediverseFollower(actor),
    onSuccess: () => toast.success('Follower removed'),
    onError: (err) => toast.error(err instanceof Error ? err.message : SUPERCURATION_MESSAGES.removeFediverseFollowerFailed),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.fediverseFollowers }),
  });
  const groups = followers.data
    ? [
        ...(followers.data.profile.length > 0 ? [{ supercurationId: null, title: 'You, as a curator', followers: followers.data.profile }] : []),
        ...followers.data.collections,
      ]
    : [];
  if (followers.isPending || (followers.data && groups.length === 0)) return null;
  return (
    <section aria-labelledby="fediverse-followers-heading" className="mt-10 grid gap-4">
      <h2 id="fediverse-followers-heading" className="text-lg font-semibold">
        Fediverse followers
      </h2>
      {followers.isError ? (
        <div className="flex items-center gap-3 text-sm">
          <span>{SUPERCURATION_MESSAGES.fetchFediverseFollowersFailed}</span>
          <Button size="sm" variant="outline" onClick={() => void followers.refetch()}>
            Retry
          </Button>
        </div>
      ) : (
        groups.map((g) => (
          <CollectionGroup key={g.supercurationId ?? 'profile'} title={g.title} count={g.followers.length} noun="follower">
            <ul className="grid gap-2 text-sm">
              {g.followers.map((f) => (
                <li key={f.actorUri} className="flex flex-wrap items-center justify-between gap-2">
                  <a href={f.actorUri} rel="noopener noreferrer nofollow" target="_blank" className="min-w-0 break-all hover:underline">
                    {f.actorUri}
                  </a>
                  <span className="flex items-center gap-3 text-muted-foreground">
                    {shortDate(f.followedAt)}
                    <Button
                      size="sm"
                      variant="outline"
                      aria-label={`Remove follower ${f.actorUri}`}
                      disabled={remove.isPending && remove.variables?.actor === f.actorUri}
                      onClick={() => remove.mutate({ supercurationId: g.supercurationId, actor: f.actorUri })}
                    >
                      <UserMinus aria-hidden="true" />
                      Remove
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
          </CollectionGroup>
        ))
      )}
    </section>
  );
}
