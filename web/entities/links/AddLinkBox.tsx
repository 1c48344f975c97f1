import { LoaderCircle, Send } from 'lucide-react';
import { Suspense, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import {
  LINK_MESSAGES,
  normalizeUrl,
  PREVIEW_DEBOUNCE_MS,
  type CreateLinkInput,
  type Link,
  type LinkPreview,
} from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { cn } from '../../../shared/ui/cn';
import { Card } from '../../../shared/ui/primitives/card';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';
import { shareFormValuesOfPreview } from '../../../shared/ui/sharePreview';
import type { SupercurationOption } from '../../../shared/ui/SupercurationPicker';
import { Thumbnail } from '../../../shared/ui/Thumbnail';
import { useDebouncedValue } from '../../../shared/ui/useDebouncedValue';
import { ShareNewLinkDialog } from './lazyDialogs';
import { Publisher } from './Publisher';
import { useLinkPreview } from './useLinkQueries';

interface AddLinkBoxProps {
  /** Saves the link elsewhere than the feed (a collection's 'Add New Resource'); the feed by default. */
  share?: (input: CreateLinkInput) => Promise<Link>;
  /** The collection `share` saves into, for Preview & Share's main feed default. */
  into?: SupercurationOption;
  /** After a successful share; 'Link shared' is toasted when absent. */
  onShared?: (link: Link) => void;
  className?: string;
}

/**
 * The link-adding box of My Feed: a URL, its preview after a PREVIEW_DEBOUNCE_MS pause, and
 * 'Share', which opens Preview & Share prefilled. Share is disabled while the input is empty, the
 * preview loads, or there is none.
 */
export function AddLinkBox({ share, into, onShared, className }: AddLinkBoxProps) {
  const [input, setInput] = useState('');
  const [dialogOpen, setDialogOpen] = useState(false);
  const typed = input.trim();
  const settled = useDebouncedValue(typed, PREVIEW_DEBOUNCE_MS);
  const url = settled ? normalizeUrl(settled) : null;
  const preview = useLinkPreview(url);
  const waiting = typed !== settled;
  const loading = typed !== '' && (waiting || (url !== null && preview.isPending));
  const ready = typed !== '' && !loading && url !== null && preview.data !== undefined;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (ready) setDialogOpen(true);
  }

  return (
    <Card className={cn('p-4 sm:p-5', className)}>
      <form onSubmit={onSubmit} aria-label="Add a link" className="grid gap-3">
        <Label htmlFor="add-link-url">
          Share a link
        </Label>
        <div className="flex gap-2">
          <Input
            id="add-link-url"
            inputMode="url"
            autoComplete="url"
            placeholder="Paste a URL, e.g. https://example.com/article"
            value={input}
            onChange={(e) => setInput(e.target.value)}
          />
          <Button type="submit" disabled={!ready}>
            <Send aria-hidden="true" />
            Share
          </Button>
        </div>
        <div aria-live="polite">
          {loading ? (
            <PreviewSkeleton />
          ) : typed && url === null ? (
            <FormError message={LINK_MESSAGES.onlyHttpUrls} />
          ) : typed && preview.isError ? (
            <FormError message={LINK_MESSAGES.previewFailed} />
          ) : ready && preview.data ? (
            <PreviewCard preview={preview.data} />
          ) : null}
        </div>
      </form>
      {/* Loaded once a preview is there: My Feed's first load carries no share form. */}
      {preview.data && (
        <Suspense fallback={null}>
          <ShareNewLinkDialog
            open={dialogOpen}
            onOpenChange={setDialogOpen}
            initialValues={shareFormValuesOfPreview(preview.data)}
            share={share}
            into={into}
            onShared={(link) => {
              setInput('');
              if (onShared) onShared(link);
              else toast.success('Link shared');
            }}
          />
        </Suspense>
      )}
    </Card>
  );
}

function PreviewCard({ preview }: { preview: LinkPreview }) {
  return (
    <article aria-label="Link preview" className="flex gap-3 rounded-lg border bg-background p-3">
      <Thumbnail src={preview.thumbnailUrl} className="h-16 w-24 shrink-0 rounded-md sm:h-20 sm:w-32" />
      <div className="min-w-0 flex-1 space-y-1">
        <h3 className="line-clamp-2 font-semibold break-words">{preview.title}</h3>
        <p className="line-clamp-2 text-sm break-words text-muted-foreground">{preview.description}</p>
        <p className="flex min-w-0 items-center gap-1.5 text-xs text-muted-foreground">
          <Publisher facts={preview} />
        </p>
      </div>
    </article>
  );
}

function PreviewSkeleton() {
  return (
    <div role="status" className="flex items-center gap-3 rounded-lg border bg-background p-3">
      <div className="h-16 w-24 shrink-0 animate-pulse rounded-md bg-muted sm:h-20 sm:w-32" />
      <div className="flex-1 space-y-2">
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          Fetching preview...
        </p>
        <div className="h-3 w-2/3 animate-pulse rounded bg-muted" />
      </div>
    </div>
  );
}
