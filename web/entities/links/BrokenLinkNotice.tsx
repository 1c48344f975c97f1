import { BookOpen, Check, Link2Off } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { LINK_HEALTH_MESSAGES, READABLE_MESSAGES, type Link, paths } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { useMarkLinkFine } from './useLinkMutations';

/**
 * Link health (issue 19) on a link's card and page: 'Broken link' when the link checker found it
 * dead, and for whoever may edit it 'Mark as fine' and the saved copy (issue 23: the editors are
 * who may read it). Nothing for a healthy link.
 */
export function BrokenLinkNotice({ link }: { link: Link }) {
  if (!link.broken) return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="inline-flex items-center gap-1 rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-800 ring-1 ring-red-200 dark:bg-red-950/40 dark:text-red-200 dark:ring-red-800">
        <Link2Off aria-hidden="true" className="size-3" />
        {LINK_HEALTH_MESSAGES.badge}
      </span>
      {link.canEdit && (
        <>
          <MarkFineButton link={link} />
          <Button variant="outline" size="sm" asChild>
            <RouterLink to={paths.readableCopy(link.id)}>
              <BookOpen aria-hidden="true" />
              {READABLE_MESSAGES.readSavedCopy}
            </RouterLink>
          </Button>
        </>
      )}
    </div>
  );
}

function MarkFineButton({ link }: { link: Link }) {
  const markFine = useMarkLinkFine(link);
  return (
    <Button variant="outline" size="sm" disabled={markFine.isPending} onClick={() => markFine.mutate()}>
      <Check aria-hidden="true" />
      {LINK_HEALTH_MESSAGES.markFine}
    </Button>
  );
}
