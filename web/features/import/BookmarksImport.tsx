import { useQueryClient } from '@tanstack/react-query';
import { Download, FileUp, LoaderCircle } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  BOOKMARK_MESSAGES,
  BOOKMARKS_MAX_BYTES,
  type BookmarkImportSummary,
  bookmarkSummaryText,
  importingBookmarks,
} from '../../../shared/domain';
import { cn } from '../../../shared/ui/cn';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Label } from '../../../shared/ui/primitives/label';
import { queryKeys } from '../../lib/queryKeys';

type State =
  | { stage: 'idle' }
  | { stage: 'uploading'; percent: number }
  | { stage: 'importing' }
  | { stage: 'done'; summary: BookmarkImportSummary }
  | { stage: 'error'; message: string };

/**
 * POST /api/import/bookmarks through XMLHttpRequest: fetch reports no upload progress.
 * Resolves with the summary; rejects with the server's message.
 */
function uploadBookmarks(file: File, onProgress: (percent: number) => void): Promise<BookmarkImportSummary> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/import/bookmarks');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress((e.loaded / e.total) * 100);
    };
    xhr.upload.onload = () => onProgress(100);
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body) resolve(body as BookmarkImportSummary);
      else reject(new Error((body as { error?: string } | null)?.error ?? BOOKMARK_MESSAGES.importFailed));
    };
    xhr.onerror = () => reject(new Error(BOOKMARK_MESSAGES.importFailed));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/** The 'Bookmarks file' tab of the import panel: upload a browser's export; export ours. */
export function BookmarksImport() {
  const [state, setState] = useState<State>({ stage: 'idle' });
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const busy = state.stage === 'uploading' || state.stage === 'importing';

  async function importFile(file: File | null | undefined) {
    if (!file) return;
    if (file.size > BOOKMARKS_MAX_BYTES) {
      setState({ stage: 'error', message: BOOKMARK_MESSAGES.tooLarge });
      return;
    }
    setState({ stage: 'uploading', percent: 0 });
    try {
      const summary = await uploadBookmarks(file, (percent) =>
        setState(percent >= 100 ? { stage: 'importing' } : { stage: 'uploading', percent }),
      );
      setState({ stage: 'done', summary });
      void queryClient.invalidateQueries({ queryKey: queryKeys.supercurations });
      void queryClient.invalidateQueries({ queryKey: queryKeys.feeds });
    } catch (err) {
      setState({ stage: 'error', message: err instanceof Error ? err.message : BOOKMARK_MESSAGES.importFailed });
    }
  }

  const percent = state.stage === 'uploading' ? Math.round(state.percent) : state.stage === 'importing' ? 100 : 0;

  return (
    <div className="grid min-w-0 grid-cols-1 gap-3">
      <p id="import-bookmarks-hint" className="text-sm text-muted-foreground">
        Upload the bookmarks file (.html) exported by your browser, Pocket, Raindrop or Pinboard, up to 20 MB. Folders
        become private supercurations; links you already saved are not duplicated.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <input
          ref={input}
          id="import-bookmarks"
          type="file"
          accept=".html,.htm,text/html"
          className="peer sr-only"
          disabled={busy}
          aria-describedby="import-bookmarks-hint"
          onChange={(e) => {
            void importFile(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <Label
          htmlFor="import-bookmarks"
          className={cn(
            'inline-flex h-10 cursor-pointer items-center gap-2 rounded-md bg-primary px-4 text-sm text-primary-foreground shadow-sm transition-colors peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2 hover:bg-primary/90',
            busy && 'pointer-events-none opacity-50',
          )}
        >
          <FileUp aria-hidden="true" className="size-4" />
          {BOOKMARK_MESSAGES.fileLabel}
        </Label>
        <a
          href="/api/export/bookmarks"
          download
          className="inline-flex h-10 items-center gap-2 rounded-md border border-input px-4 text-sm outline-none hover:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring"
        >
          <Download aria-hidden="true" className="size-4" />
          {BOOKMARK_MESSAGES.exportLabel}
        </a>
      </div>

      {busy && (
        <div className="grid gap-2">
          <progress
            className="h-2 w-full overflow-hidden rounded-full accent-primary"
            max={100}
            value={percent}
            aria-label={state.stage === 'uploading' ? 'Upload progress' : 'Import progress'}
          />
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            {state.stage === 'uploading' ? `Uploading... ${percent}%` : importingBookmarks()}
          </p>
        </div>
      )}
      {state.stage === 'error' && <FormError message={state.message} />}
      {state.stage === 'done' && (
        <div role="status" className="grid gap-2 rounded-md border bg-muted/40 p-3 text-sm">
          <p className="font-medium">{bookmarkSummaryText(state.summary)}</p>
          {state.summary.collections.length > 0 && (
            <ul className="grid gap-1">
              {state.summary.collections.map((c) => (
                <li key={c.id} className="min-w-0 break-words">
                  <Link to={`/supercurations/${c.id}`} className="text-primary underline-offset-2 hover:underline">
                    {c.title}
                  </Link>{' '}
                  <span className="text-muted-foreground">
                    ({c.count} {c.count === 1 ? 'link' : 'links'}
                    {c.created ? ', new private supercuration' : ''})
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
