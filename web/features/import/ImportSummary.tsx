import { useQueryClient } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { Link } from 'react-router';
import {
  type BookmarkImportSummary,
  bookmarkSummaryText,
  flattenedFoldersText,
  invalidRowsText,
  MAX_TOPICS_PER_LINK,
  paths,
  tagsDroppedText,
} from '../../../shared/domain';
import { queryKeys } from '../../../shared/queries/keys';

/** An import's progress bar (percent) with its status line. */
export function ImportProgress({ percent, label, text }: { percent: number; label: string; text: string }) {
  return (
    <div className="grid gap-2">
      <progress className="h-2 w-full overflow-hidden rounded-full accent-primary" max={100} value={percent} aria-label={label} />
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
        {text}
      </p>
    </div>
  );
}

/** What an import (file or feed) did: counts, skipped rows, dropped tags, and its collections as links. */
export function ImportSummary({ summary }: { summary: BookmarkImportSummary }) {
  return (
    <div role="status" className="grid gap-2 rounded-md border bg-muted/40 p-3 text-sm">
      <p className="font-medium">{bookmarkSummaryText(summary)}</p>
      {summary.flattenedFolders > 0 && <p>{flattenedFoldersText(summary.flattenedFolders)}.</p>}
      {summary.skipped.invalid > 0 && <p>{invalidRowsText(summary)}.</p>}
      {summary.tagsDropped > 0 && <p>{tagsDroppedText(summary.tagsDropped, MAX_TOPICS_PER_LINK)}.</p>}
      {summary.liked > 0 && (
        <p>
          {summary.liked.toLocaleString('en-US')} {summary.liked === 1 ? 'favourite' : 'favourites'} liked.
        </p>
      )}
      {summary.collections.length > 0 && (
        <ul className="grid gap-1">
          {summary.collections.map((c) => (
            <li key={c.id} className="min-w-0 break-words">
              <Link to={paths.supercuration(c.id)} className="text-primary underline-offset-2 hover:underline">
                {c.title}
              </Link>{' '}
              <span className="text-muted-foreground">
                ({c.count.toLocaleString('en-US')} {c.count === 1 ? 'link' : 'links'}
                {c.created ? ', new private supercuration' : ''})
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What to call when an import is done: the lists its links, collections and topics appear in are refetched. */
export function useAfterImport(): () => void {
  const queryClient = useQueryClient();
  return () => {
    for (const queryKey of [queryKeys.supercurations, queryKeys.supercurationChoices, queryKeys.feeds, queryKeys.topics]) void queryClient.invalidateQueries({ queryKey });
  };
}
