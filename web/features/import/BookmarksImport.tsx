import { useQuery } from '@tanstack/react-query';
import { Download, FileUp, LoaderCircle } from 'lucide-react';
import { useRef, useState } from 'react';
import {
  BOOKMARK_MESSAGES,
  bookmarkImportForm,
  type BookmarkFilePreview,
  type BookmarkImportSummary,
  bookmarkProgressText,
  BOOKMARKS_MAX_BYTES,
  BOOKMARKS_NDJSON,
  flattenedFoldersText,
  type FolderMapping,
  type FolderTarget,
  IMPORT_FILE_ACCEPT,
  IMPORT_FORMATS_TEXT,
  importingBookmarks,
  readImportEvents,
  type SupercurationChoice,
} from '../../../shared/domain';
import { Checkbox } from '../../../shared/ui/primitives/checkbox';
import { cn } from '../../../shared/ui/cn';
import { Button } from '../../../shared/ui/primitives/button';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Label } from '../../../shared/ui/primitives/label';
import { api } from '../../lib/api';
import { queryKeys } from '../../../shared/queries/keys';
import { Select } from '../../../shared/ui/primitives/select';
import { ImportProgress, ImportSummary, useAfterImport } from './ImportSummary';

type State =
  | { stage: 'idle' }
  | { stage: 'reading' }
  | { stage: 'mapping'; file: File; preview: BookmarkFilePreview }
  | { stage: 'uploading'; percent: number }
  | { stage: 'importing'; done: number; total: number }
  | { stage: 'done'; summary: BookmarkImportSummary }
  | { stage: 'error'; message: string };

/** A folder's choice in the mapping step: 'new', 'none' or an existing collection's id. */
type Choice = 'new' | 'none' | `id:${string}`;

const toTarget = (choice: Choice): FolderTarget =>
  choice === 'new' || choice === 'none' ? { type: choice } : { type: 'collection', id: choice.slice(3) };

/**
 * POST /api/import/bookmarks through XMLHttpRequest (fetch reports no upload progress), asking
 * for the NDJSON progress stream: upload percent, then (done, total) while the links are written.
 * Resolves with the summary; rejects with the server's message.
 */
function uploadBookmarks(
  file: File,
  settings: { mapping: FolderMapping; inMainFeed: boolean },
  onUpload: (percent: number) => void,
  onProgress: (done: number, total: number) => void,
): Promise<BookmarkImportSummary> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let offset = 0;
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      reject(new Error(message));
    };
    /** Reads the lines that arrived since last time. */
    const read = (final: boolean) => {
      const { events, next } = readImportEvents(final ? `${xhr.responseText}\n` : xhr.responseText, offset);
      offset = next;
      for (const event of events) {
        if (settled) return;
        if (event.type === 'progress') onProgress(event.done, event.total);
        else if (event.type === 'summary') {
          settled = true;
          resolve(event.summary);
        } else fail(event.error);
      }
    };
    xhr.open('POST', '/api/import/bookmarks');
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', BOOKMARKS_NDJSON);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onUpload((e.loaded / e.total) * 100);
    };
    xhr.upload.onload = () => onUpload(100);
    xhr.onprogress = () => {
      if (xhr.status >= 200 && xhr.status < 300) read(false);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        read(true);
        fail(BOOKMARK_MESSAGES.importFailed);
        return;
      }
      let body: { error?: string } | null = null;
      try {
        body = JSON.parse(xhr.responseText) as { error?: string };
      } catch {
        body = null;
      }
      fail(body?.error ?? BOOKMARK_MESSAGES.importFailed);
    };
    xhr.onerror = () => fail(BOOKMARK_MESSAGES.importFailed);
    xhr.send(bookmarkImportForm(file, file.name, settings));
  });
}

/** The 'Import file' tab of the import panel: upload a browser's or a read-later service's export; export ours. */
export function BookmarksImport() {
  const [state, setState] = useState<State>({ stage: 'idle' });
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [inMainFeed, setInMainFeed] = useState(false);
  const afterImport = useAfterImport();
  const input = useRef<HTMLInputElement>(null);
  const busy = state.stage === 'reading' || state.stage === 'uploading' || state.stage === 'importing';

  const collections = useQuery({
    queryKey: queryKeys.supercurationChoices,
    queryFn: ({ signal }) => api.mySupercurationChoices(signal),
    staleTime: 60_000,
    retry: false,
  });

  async function chooseFile(file: File | null | undefined) {
    if (!file) return;
    if (file.size > BOOKMARKS_MAX_BYTES) {
      setState({ stage: 'error', message: BOOKMARK_MESSAGES.tooLarge });
      return;
    }
    setState({ stage: 'reading' });
    try {
      const [preview, own] = await Promise.all([
        api.previewBookmarks(file, file.name),
        collections.data ? Promise.resolve(collections.data) : collections.refetch().then((r) => r.data ?? []),
      ]);
      // A folder whose title is one of the user's own collections goes there (a re-import); others to a new one.
      const byTitle = new Map<string, string>();
      for (const c of own) if (c.isOwner && !byTitle.has(c.title)) byTitle.set(c.title, c.id);
      const initial: Record<string, Choice> = {};
      for (const f of preview.folders) {
        const id = byTitle.get(f.title);
        initial[f.title] = id ? `id:${id}` : 'new';
      }
      setChoices(initial);
      setInMainFeed(false);
      setState({ stage: 'mapping', file, preview });
    } catch (err) {
      setState({ stage: 'error', message: err instanceof Error ? err.message : BOOKMARK_MESSAGES.previewFailed });
    }
  }

  async function importFile(file: File) {
    const mapping: FolderMapping = {};
    for (const [title, choice] of Object.entries(choices)) mapping[title] = toTarget(choice);
    setState({ stage: 'uploading', percent: 0 });
    try {
      const summary = await uploadBookmarks(
        file,
        { mapping, inMainFeed },
        (percent) => setState((s) => (s.stage === 'uploading' ? { stage: 'uploading', percent } : s)),
        (done, total) => setState({ stage: 'importing', done, total }),
      );
      setState({ stage: 'done', summary });
      afterImport();
    } catch (err) {
      setState({ stage: 'error', message: err instanceof Error ? err.message : BOOKMARK_MESSAGES.importFailed });
    }
  }

  const percent =
    state.stage === 'uploading'
      ? Math.round(state.percent)
      : state.stage === 'importing'
        ? Math.round((100 * state.done) / Math.max(1, state.total))
        : 0;

  return (
    <div className="grid min-w-0 grid-cols-1 gap-3">
      <p id="import-bookmarks-hint" className="text-sm text-muted-foreground">
        Upload an export of up to 50 MB: {IMPORT_FORMATS_TEXT}. Folders, lists and collections become private
        supercurations (or choose where each goes); links you already saved are not duplicated, and nothing is shared on
        your main feed unless you ask.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <input
          ref={input}
          id="import-bookmarks"
          type="file"
          accept={IMPORT_FILE_ACCEPT}
          className="peer sr-only"
          disabled={busy}
          aria-describedby="import-bookmarks-hint"
          onChange={(e) => {
            void chooseFile(e.target.files?.[0]);
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

      {state.stage === 'reading' && (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          Reading the file...
        </p>
      )}
      {state.stage === 'mapping' && (
        <FolderMappingForm
          preview={state.preview}
          fileName={state.file.name}
          choices={choices}
          collections={collections.data ?? []}
          onChange={(title, choice) => setChoices((c) => ({ ...c, [title]: choice }))}
          inMainFeed={inMainFeed}
          onInMainFeedChange={setInMainFeed}
          onImport={() => void importFile(state.file)}
          onCancel={() => setState({ stage: 'idle' })}
        />
      )}
      {(state.stage === 'uploading' || state.stage === 'importing') && (
        <ImportProgress
          percent={percent}
          label={state.stage === 'uploading' ? 'Upload progress' : 'Import progress'}
          text={
            state.stage === 'uploading'
              ? percent >= 100
                ? importingBookmarks()
                : `Uploading... ${percent}%`
              : bookmarkProgressText(state.done, state.total)
          }
        />
      )}
      {state.stage === 'error' && <FormError message={state.message} />}
      {state.stage === 'done' && <ImportSummary summary={state.summary} />}
    </div>
  );
}

interface FolderMappingFormProps {
  preview: BookmarkFilePreview;
  fileName: string;
  choices: Record<string, Choice>;
  collections: SupercurationChoice[];
  onChange: (title: string, choice: Choice) => void;
  inMainFeed: boolean;
  onInMainFeedChange: (checked: boolean) => void;
  onImport: () => void;
  onCancel: () => void;
}

/** The file's folders, each with where its bookmarks go; then 'Import n bookmarks'. */
function FolderMappingForm({ preview, fileName, choices, collections, onChange, inMainFeed, onInMainFeedChange, onImport, onCancel }: FolderMappingFormProps) {
  const n = preview.bookmarks;
  return (
    <form
      className="grid gap-3 rounded-md border p-3"
      aria-label="Bookmark folders"
      onSubmit={(e) => {
        e.preventDefault();
        onImport();
      }}
    >
      <p className="text-sm">
        <span className="font-medium break-all">{fileName}</span>: {n.toLocaleString('en-US')} {n === 1 ? 'bookmark' : 'bookmarks'}
        {preview.folders.length > 0 ? ` in ${preview.folders.length} ${preview.folders.length === 1 ? 'folder' : 'folders'}` : ''}
        {preview.loose > 0 ? ` (${preview.loose.toLocaleString('en-US')} in no folder)` : ''}.
      </p>
      {preview.flattenedFolders > 0 && <p className="text-sm text-muted-foreground">{flattenedFoldersText(preview.flattenedFolders)}.</p>}
      {preview.folders.length > 0 && (
        <ul className="grid max-h-80 gap-2 overflow-y-auto">
          {preview.folders.map((f, i) => (
            <li key={f.title} className="grid gap-1 sm:grid-cols-[minmax(0,1fr)_minmax(0,16rem)] sm:items-center sm:gap-3">
              <label htmlFor={`bookmark-folder-${i}`} className="min-w-0 text-sm break-words">
                {f.title} <span className="text-muted-foreground">({f.count.toLocaleString('en-US')})</span>
              </label>
              <Select
                id={`bookmark-folder-${i}`}
                value={choices[f.title] ?? 'new'}
                onChange={(e) => onChange(f.title, e.target.value as Choice)}
              >
                <option value="new">New private supercuration</option>
                <option value="none">No supercuration</option>
                {collections.length > 0 && (
                  <optgroup label="Add to my supercuration">
                    {collections.map((c) => (
                      <option key={c.id} value={`id:${c.id}`}>
                        {c.title}
                      </option>
                    ))}
                  </optgroup>
                )}
              </Select>
            </li>
          ))}
        </ul>
      )}
      <div className="flex items-start gap-3">
        <Checkbox id="import-main-feed" className="mt-0.5" checked={inMainFeed} onChange={(e) => onInMainFeedChange(e.target.checked)} />
        <Label htmlFor="import-main-feed">{BOOKMARK_MESSAGES.mainFeedLabel}</Label>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit">
          Import {n.toLocaleString('en-US')} {n === 1 ? 'bookmark' : 'bookmarks'}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
