import { BookOpen, CalendarDays, ExternalLink, Globe, Heart, Languages, PenLine, Pencil, Repeat2, Share2 } from 'lucide-react';
import { Suspense, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { DEFAULT_LINK_TEXT, READABLE_MESSAGES, isHttpUrl, type Link, paths } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { Thumbnail } from '../../../shared/ui/Thumbnail';
import { useTopicsById } from '../../../shared/queries/topics';
import { AuthorLine } from '../../entities/links/AuthorLine';
import { EditLinkDialog, ShareLinkDialog } from '../../entities/links/lazyDialogs';
import { BrokenLinkNotice } from '../../entities/links/BrokenLinkNotice';
import { LinkTags } from '../../entities/links/LinkTags';
import { Publisher, publisherText } from '../../entities/links/Publisher';
import { useRepost } from '../../entities/links/useLinkMutations';
import { utcLongDate } from '../../lib/dates';
import { languageName } from '../../lib/languages';

/** The body of /links/{id}. `viewerId` is the signed-in user's id, or null for a visitor. */
export function LinkDetail({ link, viewerId }: { link: Link; viewerId: string | null }) {
  const [dialog, setDialog] = useState<'share' | 'edit' | null>(null);
  const topicsById = useTopicsById(viewerId !== null);
  const closeDialog = (open: boolean) => !open && setDialog(null);
  const canRepost = viewerId !== null && viewerId !== link.user.id;

  return (
    <article className="overflow-hidden rounded-xl border bg-card shadow-sm">
      {/* The page's main picture: at most 720 px wide (max-w-3xl less the padding). */}
      <Thumbnail
        src={link.thumbnailUrl}
        className="aspect-[1.91/1] max-h-96 w-full border-b"
        fallback={null}
        sizes="(min-width: 768px) 720px, 100vw"
        width={720}
        height={377}
        priority
      />
      <div className="space-y-5 p-5 sm:p-8">
        <AuthorLine link={link} large />
        <div className="space-y-3">
          <LinkTags link={link} topicsById={topicsById} />
          <h1 lang={link.lang ?? undefined} className="text-2xl font-bold tracking-tight break-words sm:text-3xl">
            {link.title}
          </h1>
          <PageFacts link={link} />
          <BrokenLinkNotice link={link} />
          <p lang={link.lang ?? undefined} className="break-words whitespace-pre-line text-muted-foreground">
            {link.description}
          </p>
        </div>
        <p className="flex gap-4 text-sm text-muted-foreground">
          <span className="inline-flex items-center gap-1.5">
            <Heart aria-hidden="true" className="size-4" />
            {link.likes} {link.likes === 1 ? 'like' : 'likes'}
          </span>
          <span className="inline-flex items-center gap-1.5">
            <Repeat2 aria-hidden="true" className="size-4" />
            {link.repostsCount} {link.repostsCount === 1 ? 'repost' : 'reposts'}
          </span>
        </p>
        <div className="flex flex-wrap gap-2 border-t pt-5">
          {link.url && isHttpUrl(link.url) && (
            <Button asChild>
              <a href={link.url} target="_blank" rel="noopener noreferrer nofollow">
                {link.linkText || DEFAULT_LINK_TEXT}
                <ExternalLink aria-hidden="true" />
              </a>
            </Button>
          )}
          <Button variant="outline" onClick={() => setDialog('share')}>
            <Share2 aria-hidden="true" />
            Share
          </Button>
          {link.canEdit && (
            <Button variant="outline" onClick={() => setDialog('edit')}>
              <Pencil aria-hidden="true" />
              Edit
            </Button>
          )}
          {canRepost && <RepostButton link={link} />}
          {/* A broken link offers its copy in its notice, more prominently. */}
          {link.canEdit && link.url && !link.broken && (
            <Button variant="ghost" asChild>
              <RouterLink to={paths.readableCopy(link.id)}>
                <BookOpen aria-hidden="true" />
                {READABLE_MESSAGES.readableCopy}
              </RouterLink>
            </Button>
          )}
        </div>
      </div>
      <Suspense fallback={null}>
        {dialog === 'share' && <ShareLinkDialog link={link} open onOpenChange={closeDialog} />}
        {dialog === 'edit' && <EditLinkDialog link={link} open onOpenChange={closeDialog} />}
      </Suspense>
    </article>
  );
}

/** What the page says of itself, where known: its publisher, author, publication date and language. */
function PageFacts({ link }: { link: Link }) {
  const language = link.lang ? languageName(link.lang) : null;
  const item = 'flex min-w-0 max-w-full items-center gap-1.5';
  const icon = 'size-4 shrink-0';
  const hasPublisher = publisherText(link) !== null;
  if (!hasPublisher && !link.author && !link.publishedAt && !language) return null;
  return (
    <ul aria-label="About the page" className="flex flex-wrap items-center gap-x-4 gap-y-1.5 text-sm text-muted-foreground">
      {hasPublisher && (
        <li className={item}>
          <Publisher facts={link} iconFallback={<Globe aria-hidden="true" className={icon} />} />
        </li>
      )}
      {link.author && (
        <li className={item}>
          <PenLine aria-hidden="true" className={icon} />
          <span className="truncate">{`By ${link.author}`}</span>
        </li>
      )}
      {link.publishedAt && (
        <li className={item}>
          <CalendarDays aria-hidden="true" className={icon} />
          <time dateTime={link.publishedAt}>{utcLongDate(link.publishedAt)}</time>
        </li>
      )}
      {language && (
        <li className={item}>
          <Languages aria-hidden="true" className={icon} />
          {/* Node's and the browser's language names may differ for a rare tag. */}
          <span suppressHydrationWarning>{language}</span>
        </li>
      )}
    </ul>
  );
}

function RepostButton({ link }: { link: Link }) {
  const repost = useRepost(link);
  return (
    <Button variant="outline" disabled={repost.isPending || repost.isSuccess} onClick={() => repost.mutate()}>
      <Repeat2 aria-hidden="true" />
      {repost.isPending ? 'Reposting...' : repost.isSuccess ? 'Reposted' : 'Repost'}
    </Button>
  );
}
