import { queryOptions, useQuery } from '@tanstack/react-query';
import { CalendarDays, CircleAlert, Globe, MapPin, Rss, UserRoundPen, UserX } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../shared/api/client';
import { displayHost, MSG, type UserProfile } from '../../shared/domain';
import { EmptyState } from '../components/EmptyState';
import { Loading } from '../components/Loading';
import { Avatar } from '../../shared/ui/primitives/avatar';
import { Button } from '../../shared/ui/primitives/button';
import { Card } from '../../shared/ui/primitives/card';
import { useEditProfileDialog } from '../features/auth/useEditProfileDialog';
import { SubscribeButton } from '../features/following/SubscribeButton';
import { FediverseHandle } from '../features/supercurations/FediverseHandle';
import { ProfileSupercurations } from '../features/supercurations/ProfileSupercurations';
import { useSession } from '../entities/session/useSession';
import { api } from '../lib/api';
import { monthAndYear } from '../lib/dates';
import { queryKeys } from '../../shared/queries/keys';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/** A user's profile (also prefetched by the server render). */
export const userQuery = (id: string) => queryOptions({ queryKey: queryKeys.user(id), queryFn: () => api.getUser(id) });

export function ProfilePage() {
  const { id = '' } = useParams();
  const profile = useQuery(userQuery(id));
  useDocumentTitle(profile.data?.name ?? 'Profile');

  if (profile.isPending) return <Loading />;
  if (profile.isError) {
    const notFound = profile.error instanceof ApiError && profile.error.status === 404;
    return (
      <EmptyState
        level={1}
        icon={notFound ? UserX : CircleAlert}
        title={notFound ? MSG.userNotFound : MSG.loadProfileFailed}
      >
        {notFound ? (
          <Button variant="outline" asChild>
            <Link to="/home">Return to Home</Link>
          </Button>
        ) : (
          <Button onClick={() => void profile.refetch()}>Retry</Button>
        )}
      </EmptyState>
    );
  }
  return <Profile user={profile.data} />;
}

function Profile({ user }: { user: UserProfile }) {
  // A visitor (no session) sees the profile without Subscribe or Edit.
  const viewer = useSession().user;
  const isOwn = viewer?.id === user.id;
  const openEditProfile = useEditProfileDialog((s) => s.setOpen);
  const websiteHost = user.website ? displayHost(user.website) : null;
  const joined = monthAndYear(user.createdAt);

  return (
    <>
      <Card className="p-6 sm:p-8">
        <div className="flex flex-col gap-6 sm:flex-row sm:items-start">
          <Avatar src={user.avatarUrl} alt={`${user.name}'s avatar`} className="size-20 sm:size-24" priority />
          <div className="min-w-0 flex-1 space-y-3">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0">
                <h1 className="text-2xl font-bold tracking-tight break-words">{user.name}</h1>
                {user.email && <p className="text-sm break-all text-muted-foreground">{user.email}</p>}
              </div>
              {isOwn ? (
                <Button variant="outline" onClick={() => openEditProfile(true)}>
                  <UserRoundPen aria-hidden="true" />
                  Edit profile
                </Button>
              ) : (
                viewer && <SubscribeButton user={user} viewerId={viewer.id} />
              )}
            </div>
            {user.bio && <p className="whitespace-pre-line">{user.bio}</p>}
            <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm text-muted-foreground">
              {user.location && (
                <li className="flex items-center gap-1.5">
                  <MapPin aria-hidden="true" className="size-4" />
                  {user.location}
                </li>
              )}
              {websiteHost && (
                <li className="flex items-center gap-1.5">
                  <Globe aria-hidden="true" className="size-4" />
                  <a
                    href={user.website ?? undefined}
                    target="_blank"
                    rel="noopener noreferrer nofollow"
                    className="font-medium text-primary underline-offset-4 hover:underline"
                  >
                    {websiteHost}
                  </a>
                </li>
              )}
              <li className="flex items-center gap-1.5">
                <CalendarDays aria-hidden="true" className="size-4" />
                {/* The server renders in UTC; the reader's time zone may fall in another month. */}
                <span suppressHydrationWarning>Joined {joined}</span>
              </li>
              <li className="flex items-center gap-1.5">
                <Rss aria-hidden="true" className="size-4" />
                <a
                  href={api.userFeedUrl(user.id)}
                  type="application/rss+xml"
                  aria-label={`RSS feed of the links ${user.name} shares`}
                  className="font-medium text-primary underline-offset-4 hover:underline"
                >
                  RSS
                </a>
              </li>
            </ul>
            <dl className="flex gap-6 pt-1">
              <div className="flex flex-col-reverse">
                <dt className="text-sm text-muted-foreground">Subscribers</dt>
                <dd className="text-lg font-semibold">{user.subscribersCount}</dd>
              </div>
              <div className="flex flex-col-reverse">
                <dt className="text-sm text-muted-foreground">Subscriptions</dt>
                <dd className="text-lg font-semibold">{user.subscriptionsCount}</dd>
              </div>
            </dl>
            {user.fediverseHandle && (
              <div className="max-w-md">
                <FediverseHandle handle={user.fediverseHandle} />
              </div>
            )}
          </div>
        </div>
      </Card>

      <ProfileSupercurations userId={user.id} />
    </>
  );
}
