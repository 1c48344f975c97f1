import { Link as RouterLink } from 'react-router';
import { FOLLOWING_VERBS, type FollowingItem, paths } from '../../../shared/domain';
import { Avatar } from '../../../shared/ui/primitives/avatar';
import { fullDateTime, relativeTime } from '../../lib/dates';

const linkClass = 'font-medium text-foreground underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring';

/** Who did it and where: "Ada shared", "Ada reposted", "Ada added to *Climate Tech Weekly*", and when. */
export function FollowingItemHeader({ item }: { item: FollowingItem }) {
  const { actor, supercuration } = item;
  return (
    <p className="mb-2 flex min-w-0 flex-wrap items-center gap-x-1.5 gap-y-1 text-sm text-muted-foreground">
      <Avatar src={actor.avatarUrl} className="size-5" />
      <RouterLink to={paths.profile(actor.id)} className={linkClass}>
        {actor.name}
      </RouterLink>
      <span>{FOLLOWING_VERBS[item.kind]}</span>
      {supercuration && (
        <RouterLink
          to={supercuration.slug ? paths.publicSupercuration(supercuration.slug) : paths.supercuration(supercuration.id)}
          className={`${linkClass} italic`}
        >
          {supercuration.title}
        </RouterLink>
      )}
      <span aria-hidden="true">·</span>
      <time dateTime={item.at} title={fullDateTime(item.at)}>
        {relativeTime(item.at)}
      </time>
    </p>
  );
}
