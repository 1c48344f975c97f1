import { Repeat2 } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { DEFAULT_TOPIC_COLOR, FORMATS, type Link, paths, type Topic } from '../../../shared/domain';
import { cn } from '../../../shared/ui/cn';
import { TopicChip } from '../../../shared/ui/TopicChip';

export function formatOf(link: Link) {
  return FORMATS.find((f) => f.id === link.format);
}

/**
 * ORIGINAL and repost badges, the format (emoji and label) and the topics of a link. Topics the
 * viewer doesn't have (another curator's, or any for a visitor) show their id.
 */
export function LinkTags({ link, topicsById, className }: { link: Link; topicsById: Map<string, Topic>; className?: string }) {
  const format = formatOf(link);
  if (!link.isOriginalContent && !link.originalPostId && !format && link.topicIds.length === 0) return null;
  return (
    <ul aria-label="Tags" className={cn('flex flex-wrap items-center gap-1.5', className)}>
      {link.isOriginalContent && (
        <li className="rounded-md bg-amber-100 px-1.5 py-0.5 text-[11px] font-bold tracking-wide text-amber-900">
          ORIGINAL
        </li>
      )}
      {link.originalPostId && (
        <li>
          <RouterLink
            to={paths.link(link.originalPostId)}
            className="inline-flex items-center gap-1 rounded-md bg-secondary px-1.5 py-0.5 text-xs font-medium hover:bg-secondary/80"
          >
            <Repeat2 aria-hidden="true" className="size-3.5" />
            Repost
          </RouterLink>
        </li>
      )}
      {format && (
        <li className="inline-flex items-center gap-1 rounded-full bg-secondary px-2.5 py-0.5 text-xs font-medium">
          <span aria-hidden="true">{format.emoji}</span>
          {format.label}
        </li>
      )}
      {link.topicIds.map((id) => {
        const topic = topicsById.get(id);
        return (
          <li key={id} className="max-w-full">
            <TopicChip name={topic?.name ?? `#${id}`} color={topic?.color ?? DEFAULT_TOPIC_COLOR} />
          </li>
        );
      })}
    </ul>
  );
}
