import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LoaderCircle, Send } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { ApiError } from '../../../shared/api/client';
import {
  BATCH_SHARE_MAX,
  IMPORT_MESSAGES,
  type BatchItemInput,
  type FormatId,
  type LinkPreview,
  batchRuleSatisfied,
  displayHost,
  privateByDefault,
  selectedCount,
  shareSelectedLabel,
  sharedLinks,
  sharingLinks,
} from '../../../shared/domain';
import { cn } from '../../../shared/ui/cn';
import { shareFormValuesOfPreview } from '../../../shared/ui/sharePreview';
import { FormatPicker } from '../../../shared/ui/FormatPicker';
import { MainFeedCheckbox } from '../../../shared/ui/MainFeedCheckbox';
import { Button } from '../../../shared/ui/primitives/button';
import { Checkbox } from '../../../shared/ui/primitives/checkbox';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Label } from '../../../shared/ui/primitives/label';
import { sharesToMainFeed } from '../../../shared/ui/shareForm';
import { SupercurationPicker } from '../../../shared/ui/SupercurationPicker';
import { Thumbnail } from '../../../shared/ui/Thumbnail';
import { api } from '../../lib/api';
import { queryKeys } from '../../../shared/queries/keys';
import { prependLink, refreshCollections } from '../../entities/links/linkCache';
import { ShareNewLinkDialog } from '../../entities/links/LinkFormDialogs';
import { type PreviewState, fallbackPreview, usePreviewQueue } from './usePreviewQueue';

interface FoundUrlsProps {
  urls: string[];
  /** An item was shared on its own (Preview & Share): it leaves the list. */
  onRemove: (url: string) => void;
  /** The batch was shared: the panel empties. */
  onShared: () => void;
}

const previewOf = (url: string, state: PreviewState | undefined): LinkPreview | null =>
  state && 'preview' in state ? state.preview : null;

/**
 * The found URLs with their previews, select-all and 'n of m selected', the batch settings
 * (collections, format, "Don't add to main feed") and 'Share Selected (n)': one request for all.
 */
export function FoundUrls({ urls, onRemove, onShared }: FoundUrlsProps) {
  const queryClient = useQueryClient();
  const previews = usePreviewQueue(urls);
  const [deselected, setDeselected] = useState<Set<string>>(new Set());
  const [supercurationIds, setSupercurationIds] = useState<string[]>([]);
  const [format, setFormat] = useState<FormatId | null>(null);
  // The author's answer to "Don't add to main feed"; null until they touch it (sharesToMainFeed).
  const [mainFeedChoice, setMainFeedChoice] = useState<boolean | null>(null);
  const [error, setError] = useState<{ message: string; url?: string } | null>(null);
  const [sharing, setSharing] = useState<number | null>(null);
  const [dialogUrl, setDialogUrl] = useState<string | null>(null);
  const selectAll = useRef<HTMLInputElement>(null);

  // Collections the user may add to; the picker is left out when there are none or they can't load.
  const choices = useQuery({
    queryKey: queryKeys.supercurationChoices,
    queryFn: ({ signal }) => api.mySupercurationChoices(signal),
    staleTime: 60_000,
    retry: false,
  });
  const options = useMemo(() => (choices.data ?? []).map(({ id, title, isPublic }) => ({ id, title, isPublic })), [choices.data]);
  const chosen = options.filter((o) => supercurationIds.includes(o.id));
  const toMainFeed = sharesToMainFeed({ inMainFeed: mainFeedChoice }, chosen);

  const selected = urls.filter((u) => !deselected.has(u));
  const loaded = urls.filter((u) => previews[u]?.status === 'done' || previews[u]?.status === 'failed').length;
  const waitingForSelected = selected.some((u) => !previewOf(u, previews[u]));
  const all = selected.length === urls.length;

  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = selected.length > 0 && !all;
  }, [selected.length, all]);

  const toggle = (url: string, on: boolean) =>
    setDeselected((prev) => {
      const next = new Set(prev);
      if (on) next.delete(url);
      else next.add(url);
      return next;
    });

  async function shareSelected() {
    setError(null);
    const settings = { supercurationIds, format, inMainFeed: toMainFeed };
    if (!batchRuleSatisfied(settings)) {
      setError({ message: IMPORT_MESSAGES.batchRule });
      return;
    }
    if (selected.length > BATCH_SHARE_MAX) {
      setError({ message: IMPORT_MESSAGES.tooMany });
      return;
    }
    const items: BatchItemInput[] = selected.map((url) => {
      const preview = previewOf(url, previews[url]) ?? fallbackPreview(url);
      return { url, title: preview.title, description: preview.description, thumbnailUrl: preview.thumbnailUrl };
    });
    setSharing(items.length);
    try {
      const { links } = await api.shareLinks({
        items,
        ...(supercurationIds.length > 0 ? { supercurationIds } : {}),
        format,
        inMainFeed: settings.inMainFeed,
      });
      for (const link of [...links].reverse()) prependLink(queryClient, link);
      refreshCollections(queryClient, supercurationIds);
      toast.success(sharedLinks(links.length));
      // SPEC §4: the list, the chosen collection, the format and the checkbox start over.
      setSupercurationIds([]);
      setFormat(null);
      setMainFeedChoice(null);
      setDeselected(new Set());
      onShared();
    } catch (err) {
      toast.error(IMPORT_MESSAGES.shareLinksFailed);
      const index = err instanceof ApiError ? err.details.index : undefined;
      setError({
        message: err instanceof ApiError && err.status !== 0 ? err.message : IMPORT_MESSAGES.shareLinksFailed,
        url: typeof index === 'number' ? items[index]?.url : undefined,
      });
    } finally {
      setSharing(null);
    }
  }

  const dialogPreview = dialogUrl ? (previewOf(dialogUrl, previews[dialogUrl]) ?? fallbackPreview(dialogUrl)) : null;

  return (
    <section aria-labelledby="found-urls-heading" className="grid min-w-0 grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <h2 id="found-urls-heading" className="font-semibold">
          Found URLs
        </h2>
        <p role="status" className="text-xs text-muted-foreground">
          {loaded < urls.length ? `Loading previews ${loaded}/${urls.length}` : `Previews loaded ${loaded}/${urls.length}`}
        </p>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-muted/60 px-3 py-2">
        <label className="flex items-center gap-2 text-sm font-medium">
          <Checkbox
            ref={selectAll}
            checked={all}
            onChange={(e) => setDeselected(e.target.checked ? new Set() : new Set(urls))}
            disabled={sharing !== null}
          />
          Select all
        </label>
        <span className="text-sm text-muted-foreground" aria-live="polite">
          {selectedCount(selected.length, urls.length)}
        </span>
      </div>

      <ul aria-label="Found URLs" className="grid grid-cols-1 gap-2">
        {urls.map((url, i) => {
          const state = previews[url];
          const preview = previewOf(url, state);
          const id = `found-url-${i}`;
          const title = preview?.title ?? displayHost(url) ?? url;
          const bad = error?.url === url;
          return (
            <li
              key={url}
              aria-invalid={bad || undefined}
              className={cn(
                'flex min-w-0 items-start gap-3 rounded-lg border bg-background p-3',
                bad && 'border-destructive ring-1 ring-destructive',
              )}
            >
              <Checkbox
                id={id}
                className="mt-1"
                checked={!deselected.has(url)}
                onChange={(e) => toggle(url, e.target.checked)}
                disabled={sharing !== null}
                aria-describedby={`${id}-url`}
              />
              <Thumbnail src={preview?.thumbnailUrl} className="hidden h-14 w-20 shrink-0 rounded-md sm:flex" />
              <div className="min-w-0 flex-1 space-y-1">
                <Label htmlFor={id} className="line-clamp-2 block leading-snug font-semibold break-words">
                  {title}
                </Label>
                {preview ? (
                  <p className="line-clamp-2 text-sm break-words text-muted-foreground">{preview.description}</p>
                ) : (
                  <p className="flex items-center gap-2 text-sm text-muted-foreground">
                    <LoaderCircle aria-hidden="true" className="size-3.5 animate-spin" />
                    {state?.status === 'loading' ? 'Fetching preview...' : 'Waiting for preview...'}
                  </p>
                )}
                <p id={`${id}-url`} className="truncate text-xs text-muted-foreground">
                  {url}
                </p>
              </div>
              <Button
                type="button"
                variant="outline"
                size="sm"
                aria-label={`Share ${title}`}
                disabled={sharing !== null || !preview}
                onClick={() => setDialogUrl(url)}
              >
                <Send aria-hidden="true" />
                <span className="hidden sm:inline">Share</span>
              </Button>
            </li>
          );
        })}
      </ul>

      <fieldset className="grid min-w-0 gap-4 rounded-lg border p-4" disabled={sharing !== null}>
        <legend className="px-1 text-sm font-semibold">Batch settings</legend>
        {options.length > 0 ? (
          <SupercurationPicker options={options} value={supercurationIds} onChange={setSupercurationIds} />
        ) : choices.isSuccess ? (
          <p className="text-sm text-muted-foreground">You have no supercurations to add these links to yet.</p>
        ) : null}
        <div className="grid gap-2">
          <p id="batch-format-label" className="text-sm font-medium">
            Format
          </p>
          <FormatPicker labelledBy="batch-format-label" value={format} onChange={setFormat} />
        </div>
        <MainFeedCheckbox
          id="batch-not-in-main-feed"
          checked={!toMainFeed}
          onChange={(hide) => setMainFeedChoice(!hide)}
          staysPrivate={!toMainFeed && privateByDefault(chosen)}
        />
      </fieldset>

      {error && <FormError message={error.url ? `${error.message} (${error.url})` : error.message} />}

      <div className="flex flex-wrap items-center justify-end gap-3">
        {waitingForSelected && sharing === null && (
          <p className="text-xs text-muted-foreground">Sharing starts when the selected previews have loaded.</p>
        )}
        <Button
          type="button"
          className="w-full sm:w-auto"
          onClick={() => void shareSelected()}
          disabled={selected.length === 0 || sharing !== null || waitingForSelected}
        >
          {sharing !== null ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Send aria-hidden="true" />}
          {sharing !== null ? sharingLinks(sharing) : shareSelectedLabel(selected.length)}
        </Button>
      </div>
      {sharing !== null && (
        <p role="status" className="sr-only">
          {sharingLinks(sharing)}
        </p>
      )}

      {dialogPreview && (
        <ShareNewLinkDialog
          open={dialogUrl !== null}
          onOpenChange={(open) => {
            if (!open) setDialogUrl(null);
          }}
          initialValues={{ ...shareFormValuesOfPreview(dialogPreview), url: dialogUrl ?? dialogPreview.url }}
          onShared={() => {
            const url = dialogUrl;
            setDialogUrl(null);
            if (url) onRemove(url);
            toast.success('Link shared');
          }}
        />
      )}
    </section>
  );
}
