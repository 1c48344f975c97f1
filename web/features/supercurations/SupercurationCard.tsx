import { Eye, Layers, Pencil } from 'lucide-react';
import { Link } from 'react-router';
import type { SupercurationSummary } from '../../../shared/domain';
import { cn } from '../../../shared/ui/cn';
import { Avatar } from '../../../shared/ui/primitives/avatar';
import { Button } from '../../../shared/ui/primitives/button';
import { Thumbnail } from '../../../shared/ui/Thumbnail';
import { TopicChip } from '../../../shared/ui/TopicChip';
import { CARD_GRID_IMAGE_SIZES } from '../../lib/imageSizes';
import { FollowButton } from './FollowButton';
import { VisibilityBadge } from './VisibilityBadge';
import type { ViewMode } from './ViewToggle';
import { paths } from '../../../shared/domain/paths';

const MAX_TOPICS = 3;

interface SupercurationCardProps {
  supercuration: SupercurationSummary;
  /** Where the card leads. */
  to: string;
  /** Public/Private badge, Preview and Edit (My Supercurations). */
  manage?: boolean;
  layout?: ViewMode;
  /** The first card of the page: its picture is fetched at once, with high priority (see Thumbnail). */
  priority?: boolean;
}

function linkCountText(count: number): string {
  return `${count} ${count === 1 ? 'link' : 'links'}`;
}

/** A collection: picture, title, description, topics, curator and link count; the whole card is a link. */
export function SupercurationCard({ supercuration: s, to, manage = false, layout = 'grid', priority = false }: SupercurationCardProps) {
  const titleId = `supercuration-${s.id}-title`;
  const list = layout === 'list';
  const preview = manage && s.isPublic && s.slug ? paths.publicSupercuration(s.slug) : null;
  const topics = s.topicDetails.slice(0, MAX_TOPICS);

  return (
    <article
      aria-labelledby={titleId}
      className={cn(
        'group relative flex overflow-hidden rounded-xl border bg-card shadow-sm transition-shadow focus-within:ring-2 focus-within:ring-ring hover:shadow-md',
        list ? 'flex-row' : 'h-full flex-col',
      )}
    >
      <Thumbnail
        src={s.thumbnailUrl}
        className={list ? 'w-24 shrink-0 self-stretch sm:w-36' : 'aspect-[2/1] w-full'}
        // The list's picture is as tall as the card (no ratio to give); the grid's is 2:1.
        sizes={list ? '(min-width: 640px) 144px, 96px' : CARD_GRID_IMAGE_SIZES}
        width={list ? undefined : 400}
        height={list ? undefined : 200}
        priority={priority}
        fallback={<CoverFallback title={s.title} className={list ? 'w-24 shrink-0 sm:w-36' : 'aspect-[2/1] w-full'} />}
      />
      <div className="flex min-w-0 flex-1 flex-col gap-2 p-4">
        <div className="flex items-start justify-between gap-2">
          <h3 id={titleId} className="min-w-0 leading-snug font-semibold break-words">
            <Link
              to={to}
              className="outline-none group-hover:text-primary after:absolute after:inset-0 after:content-['']"
            >
              {s.title}
            </Link>
          </h3>
          {manage && <VisibilityBadge isPublic={s.isPublic} />}
        </div>
        {s.description && <p className="line-clamp-2 text-sm break-words text-muted-foreground">{s.description}</p>}
        {topics.length > 0 && (
          <ul aria-label="Topics" className="flex flex-wrap gap-1.5">
            {topics.map((t) => (
              <li key={t.id} className="max-w-full">
                <TopicChip name={t.name} color={t.color} />
              </li>
            ))}
            {s.topicDetails.length > MAX_TOPICS && (
              <li className="text-xs text-muted-foreground">+{s.topicDetails.length - MAX_TOPICS}</li>
            )}
          </ul>
        )}
        <div className="mt-auto flex flex-wrap items-center justify-between gap-x-3 gap-y-2 pt-1 text-sm">
          <span className="flex min-w-0 items-center gap-2 text-muted-foreground">
            <Avatar src={s.user.avatarUrl} className="size-5" />
            <span className="truncate">{s.user.name}</span>
            <span aria-hidden="true">·</span>
            <span className="shrink-0">{linkCountText(s.linksCount)}</span>
          </span>
          {!manage && (
            <span className="relative z-10">
              <FollowButton supercuration={s} size="sm" />
            </span>
          )}
          {manage && (preview || s.canEdit) && (
            <span className="relative z-10 flex gap-1.5">
              {preview && (
                <Button variant="outline" size="sm" asChild>
                  <Link to={preview} aria-label={`Preview ${s.title}`}>
                    <Eye aria-hidden="true" />
                    Preview
                  </Link>
                </Button>
              )}
              {s.canEdit && (
                <Button variant="outline" size="sm" asChild>
                  <Link to={paths.supercuration(s.id)} aria-label={`Edit ${s.title}`}>
                    <Pencil aria-hidden="true" />
                    Edit
                  </Link>
                </Button>
              )}
            </span>
          )}
        </div>
      </div>
    </article>
  );
}

/** A cover for collections without a picture: the first letter on a soft gradient. */
function CoverFallback({ title, className }: { title: string; className?: string }) {
  const letter = Array.from(title.trim())[0]?.toUpperCase();
  return (
    <div
      aria-hidden="true"
      className={cn(
        'flex items-center justify-center bg-gradient-to-br from-blue-100 via-accent to-indigo-100 text-3xl font-bold text-primary/70',
        className,
      )}
    >
      {letter ?? <Layers className="size-7" />}
    </div>
  );
}

export function SupercurationCardSkeleton({ layout = 'grid' }: { layout?: ViewMode }) {
  const list = layout === 'list';
  return (
    <div
      aria-hidden="true"
      className={cn('flex animate-pulse overflow-hidden rounded-xl border bg-card shadow-sm', list ? 'flex-row' : 'flex-col')}
    >
      <div className={cn('bg-muted', list ? 'w-24 shrink-0 sm:w-36' : 'aspect-[2/1] w-full')} />
      <div className="flex-1 space-y-3 p-4">
        <div className="h-5 w-3/4 rounded bg-muted" />
        <div className="h-3 w-full rounded bg-muted" />
        <div className="h-3 w-2/3 rounded bg-muted" />
        <div className="h-5 w-1/2 rounded-full bg-muted" />
      </div>
    </div>
  );
}
