import { Link2, Pencil, Share2, Trash2 } from 'lucide-react';
import { Suspense, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { type Link, paths, type Topic, TRUNCATE_LENGTH } from '../../../shared/domain';
import { cn } from '../../../shared/ui/cn';
import { Button } from '../../../shared/ui/primitives/button';
import { Checkbox } from '../../../shared/ui/primitives/checkbox';
import { Thumbnail } from '../../../shared/ui/Thumbnail';
import { CARD_GRID_IMAGE_SIZES } from '../../lib/imageSizes';
import { truncate } from '../../lib/text';
import { AuthorLine } from './AuthorLine';
import { BrokenLinkNotice } from './BrokenLinkNotice';
import { ExpandableText } from './ExpandableText';
import { DeleteLinkDialog, EditLinkDialog, ShareLinkDialog } from './lazyDialogs';
import { formatOf, LinkTags } from './LinkTags';
import { LikeButton } from './LikeButton';
import { Publisher, publisherText } from './Publisher';

interface LinkCardProps {
  link: Link;
  topicsById: Map<string, Topic>;
  /** With onSelectedChange, the card has a selection checkbox (My Feed). */
  selected?: boolean;
  onSelectedChange?: (selected: boolean) => void;
  /** 'list' (default): picture on the side; 'grid': picture on top, for a grid of cards. */
  layout?: 'list' | 'grid';
  /** Replaces the Edit and Delete buttons (e.g. a collection's edit and remove). */
  actions?: ReactNode;
  /** Shown below the description (e.g. the link's tags in a collection). */
  children?: ReactNode;
  /** The first card of the page: its picture is fetched at once, with high priority (see Thumbnail). */
  priority?: boolean;
}

/** A link card: picture, title, description, tags, author and time, its health, and its actions. */
export function LinkCard({
  link,
  topicsById,
  selected = false,
  onSelectedChange,
  layout = 'list',
  actions,
  children,
  priority = false,
}: LinkCardProps) {
  const [dialog, setDialog] = useState<'share' | 'edit' | 'delete' | null>(null);
  const titleId = `link-${link.id}-title`;
  const title = truncate(link.title, TRUNCATE_LENGTH);
  const publisher = publisherText(link);
  const closeDialog = (open: boolean) => !open && setDialog(null);
  const grid = layout === 'grid';

  const heading = (
    <div className="min-w-0 space-y-1.5">
      <LinkTags link={link} topicsById={topicsById} />
      <h3
        id={titleId}
        lang={link.lang ?? undefined}
        className="leading-snug font-semibold break-words"
        title={title.cut ? link.title : undefined}
      >
        <RouterLink
          to={paths.link(link.id)}
          className="rounded-sm outline-none hover:text-primary focus-visible:ring-2 focus-visible:ring-ring"
        >
          {title.text}
        </RouterLink>
      </h3>
      {publisher && link.url && (
        <a
          href={link.url}
          target="_blank"
          rel="noopener noreferrer nofollow"
          title={publisher.name ? `${publisher.name} · ${publisher.host}` : undefined}
          className="flex w-fit max-w-full items-center gap-1.5 text-xs text-muted-foreground hover:text-foreground hover:underline"
        >
          <Publisher facts={link} />
        </a>
      )}
      <BrokenLinkNotice link={link} />
    </div>
  );
  const picture = (
    <RouterLink
      to={paths.link(link.id)}
      tabIndex={-1}
      aria-hidden="true"
      className={grid ? 'block' : 'self-start sm:row-span-2'}
    >
      <Thumbnail
        src={link.thumbnailUrl}
        className={grid ? 'aspect-[1.91/1] w-full border-b' : 'size-16 rounded-lg border sm:h-24 sm:w-36'}
        sizes={grid ? CARD_GRID_IMAGE_SIZES : '(min-width: 640px) 144px, 64px'}
        width={grid ? 382 : 144}
        height={grid ? 200 : 96}
        priority={priority}
        fallback={<ThumbnailFallback link={link} className={grid ? 'aspect-[1.91/1] h-auto w-full rounded-none border-0 border-b sm:h-auto sm:w-full' : undefined} />}
      />
    </RouterLink>
  );
  const footer = (
    <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
      <AuthorLine link={link} />
      <div className="-mr-2 flex items-center">
        <LikeButton link={link} />
        <Button variant="ghost" size="icon" className="size-9" aria-label="Share" title="Share" onClick={() => setDialog('share')}>
          <Share2 aria-hidden="true" />
        </Button>
        {actions ?? (
          <>
            {link.canEdit && (
              <Button variant="ghost" size="icon" className="size-9" aria-label="Edit" title="Edit" onClick={() => setDialog('edit')}>
                <Pencil aria-hidden="true" />
              </Button>
            )}
            {link.canDelete && (
              <Button
                variant="ghost"
                size="icon"
                className="size-9 hover:text-destructive"
                aria-label="Delete"
                title="Delete"
                onClick={() => setDialog('delete')}
              >
                <Trash2 aria-hidden="true" />
              </Button>
            )}
          </>
        )}
      </div>
    </div>
  );
  const dialogs = (
    <Suspense fallback={null}>
      {dialog === 'share' && <ShareLinkDialog link={link} open onOpenChange={closeDialog} />}
      {dialog === 'edit' && <EditLinkDialog link={link} open onOpenChange={closeDialog} />}
      {dialog === 'delete' && <DeleteLinkDialog link={link} open onOpenChange={closeDialog} />}
    </Suspense>
  );
  const frame = cn(
    'rounded-xl border bg-card shadow-sm',
    selected && 'border-primary ring-2 ring-primary/30',
  );

  if (grid) {
    return (
      <article aria-labelledby={titleId} className={cn(frame, 'flex h-full flex-col overflow-hidden')}>
        {picture}
        <div className="flex flex-1 flex-col gap-3 p-4">
          {heading}
          <ExpandableText text={link.description} lang={link.lang} />
          {children}
          <div className="mt-auto">{footer}</div>
        </div>
        {dialogs}
      </article>
    );
  }
  return (
    <article
      aria-labelledby={titleId}
      className={cn(
        frame,
        'grid gap-x-3 gap-y-3 p-4 sm:gap-x-4',
        onSelectedChange ? 'grid-cols-[auto_minmax(0,1fr)_auto]' : 'grid-cols-[minmax(0,1fr)_auto]',
      )}
    >
      {onSelectedChange && (
        <Checkbox
          aria-label={`Select ${link.title}`}
          checked={selected}
          onChange={(e) => onSelectedChange(e.target.checked)}
          className="mt-1"
        />
      )}
      {heading}
      {picture}
      {/* Explicit start/end lines: a `col-span` shorthand would override `col-start` in the cascade. */}
      <div className={cn('-mt-1', onSelectedChange ? 'col-start-2 col-end-4 sm:col-end-3' : 'col-start-1 col-end-3 sm:col-end-2')}>
        <ExpandableText text={link.description} lang={link.lang} />
        {children && <div className="mt-3">{children}</div>}
      </div>
      <div className={onSelectedChange ? 'col-start-2 col-end-4' : 'col-start-1 col-end-3'}>{footer}</div>
      {dialogs}
    </article>
  );
}

/** The format's emoji (or a link icon) where there is no picture. */
export function ThumbnailFallback({ link, className }: { link: Link; className?: string }) {
  const format = formatOf(link);
  return (
    <div
      className={cn(
        'flex size-16 items-center justify-center rounded-lg border bg-gradient-to-br from-accent to-muted text-2xl sm:h-24 sm:w-36 sm:text-3xl',
        className,
      )}
    >
      {format ? <span aria-hidden="true">{format.emoji}</span> : <Link2 aria-hidden="true" className="size-7 text-primary/60" />}
    </div>
  );
}

export function LinkCardSkeleton() {
  return (
    <div
      aria-hidden="true"
      className="grid animate-pulse grid-cols-[auto_minmax(0,1fr)_auto] gap-x-3 gap-y-3 rounded-xl border bg-card p-4 shadow-sm sm:gap-x-4"
    >
      <div className="mt-1 size-4 rounded bg-muted" />
      <div className="space-y-2">
        <div className="h-4 w-20 rounded-full bg-muted" />
        <div className="h-5 w-3/4 rounded bg-muted" />
        <div className="h-3 w-24 rounded bg-muted" />
      </div>
      <div className="size-16 rounded-lg bg-muted sm:row-span-2 sm:h-24 sm:w-36" />
      <div className="col-start-2 col-end-4 h-3 rounded bg-muted sm:col-end-3" />
      <div className="col-start-2 col-end-4 flex justify-between">
        <div className="h-6 w-40 rounded-full bg-muted" />
        <div className="h-6 w-28 rounded bg-muted" />
      </div>
    </div>
  );
}
