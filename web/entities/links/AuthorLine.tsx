import { Link as RouterLink } from 'react-router';
import type { Link } from '../../../shared/domain';
import { cn } from '../../../shared/ui/cn';
import { Avatar } from '../../../shared/ui/primitives/avatar';
import { fullDateTime, relativeTime } from '../../lib/dates';
import { paths } from '../../../shared/domain/paths';

/** The author (linking to their profile) and when the link was shared. */
export function AuthorLine({ link, large = false, className }: { link: Link; large?: boolean; className?: string }) {
  return (
    <div className={cn('flex min-w-0 items-center gap-2 text-sm', className)}>
      <Avatar src={link.user.avatarUrl} className={large ? 'size-10' : 'size-6'} />
      <div className={cn('flex min-w-0', large ? 'flex-col' : 'items-center gap-1.5')}>
        <RouterLink
          to={paths.profile(link.user.id)}
          className="truncate font-medium underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          {link.user.name}
        </RouterLink>
        {!large && <span aria-hidden="true" className="text-muted-foreground">·</span>}
        {/* The server render's clock and time zone may differ from the reader's by a little. */}
        <time
          dateTime={link.createdAt}
          title={fullDateTime(link.createdAt)}
          className="shrink-0 text-muted-foreground"
          suppressHydrationWarning
        >
          {relativeTime(link.createdAt)}
        </time>
      </div>
    </div>
  );
}
