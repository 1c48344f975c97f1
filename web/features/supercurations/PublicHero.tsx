import { CalendarDays, LogIn, Pencil, Users } from 'lucide-react';
import { Link } from 'react-router';
import type { PublicSupercuration } from '../../../shared/domain';
import { Avatar } from '../../../shared/ui/primitives/avatar';
import { Button } from '../../../shared/ui/primitives/button';
import { longDate } from '../../lib/dates';
import { useSession } from '../../entities/session/useSession';
import { FediverseHandle } from './FediverseHandle';
import { FollowButton, followersText } from './FollowButton';
import { SubscribeBox } from './SubscribeBox';
import { paths } from '../../../shared/domain/paths';

/** The public page's hero: title, description, created date and curator; subscribe box and sign-in. */
export function PublicHero({ supercuration: s }: { supercuration: PublicSupercuration }) {
  const { user } = useSession();
  const created = longDate(s.createdAt);
  return (
    <section className="border-b bg-gradient-to-b from-accent to-background">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 sm:py-14 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
        <div className="grid min-w-0 content-start gap-4">
          <p className="text-sm font-semibold tracking-wide text-primary uppercase">Supercuration</p>
          <h1 className="text-3xl font-bold tracking-tight break-words sm:text-4xl">{s.title}</h1>
          {s.description && <p className="max-w-2xl text-lg break-words whitespace-pre-line text-muted-foreground">{s.description}</p>}
          <div className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm text-muted-foreground">
            <Link
              to={paths.profile(s.user.id)}
              className="flex items-center gap-2 rounded-full font-medium text-foreground outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
            >
              <Avatar src={s.user.avatarUrl} className="size-8" />
              <span>
                <span className="sr-only">Curated by </span>
                {s.user.name}
              </span>
            </Link>
            <span className="flex items-center gap-1.5">
              <CalendarDays aria-hidden="true" className="size-4" />
              Created{' '}
              {/* The server renders in UTC; the reader's time zone may fall on another day. */}
              <time dateTime={s.createdAt} suppressHydrationWarning>
                {created}
              </time>
            </span>
            <span className="flex items-center gap-1.5">
              <Users aria-hidden="true" className="size-4" />
              {followersText(s.followersCount + s.fediverseFollowersCount)}
              {s.fediverseFollowersCount > 0 && ` (${s.fediverseFollowersCount} on the fediverse)`}
            </span>
          </div>
          {s.canEdit && (
            <Button variant="outline" asChild className="justify-self-start">
              <Link to={paths.supercuration(s.id)}>
                <Pencil aria-hidden="true" />
                Edit this supercuration
              </Link>
            </Button>
          )}
        </div>
        <div className="grid gap-3">
          <FollowButton supercuration={s} />
          <SubscribeBox supercurationId={s.id} />
          {s.fediverseHandle && <FediverseHandle handle={s.fediverseHandle} followers={s.fediverseFollowersCount} />}
          {!user && (
            <Button variant="secondary" asChild>
              <Link to="/home">
                <LogIn aria-hidden="true" />
                Sign up or log in
              </Link>
            </Button>
          )}
        </div>
      </div>
    </section>
  );
}
