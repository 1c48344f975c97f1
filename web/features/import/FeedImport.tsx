import { LoaderCircle, Rss } from 'lucide-react';
import { useState } from 'react';
import {
  BOOKMARK_MESSAGES,
  type BookmarkImportSummary,
  bookmarkProgressText,
  FEED_IMPORT_MESSAGES,
} from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';
import { api } from '../../lib/api';
import { ImportProgress, ImportSummary, useAfterImport } from './ImportSummary';

type State =
  | { stage: 'idle' }
  | { stage: 'fetching' }
  | { stage: 'importing'; done: number; total: number }
  | { stage: 'done'; summary: BookmarkImportSummary }
  | { stage: 'error'; message: string };

/** The 'Feed' tab of the import panel: a public collection elsewhere, by its RSS or Atom feed, into a private supercuration. */
export function FeedImport() {
  const [url, setUrl] = useState('');
  const [state, setState] = useState<State>({ stage: 'idle' });
  const afterImport = useAfterImport();
  const busy = state.stage === 'fetching' || state.stage === 'importing';

  async function importFeed() {
    setState({ stage: 'fetching' });
    try {
      const summary = await api.importFeed(
        { url: url.trim() },
        { onProgress: (done, total) => setState({ stage: 'importing', done, total }) },
      );
      setState({ stage: 'done', summary });
      setUrl('');
      afterImport();
    } catch (err) {
      setState({ stage: 'error', message: err instanceof Error ? err.message : BOOKMARK_MESSAGES.importFailed });
    }
  }

  return (
    <form
      className="grid min-w-0 grid-cols-1 gap-3"
      aria-label={FEED_IMPORT_MESSAGES.heading}
      onSubmit={(e) => {
        e.preventDefault();
        if (!busy) void importFeed();
      }}
    >
      <h3 className="text-sm font-medium">{FEED_IMPORT_MESSAGES.heading}</h3>
      <div className="grid gap-1.5">
        <Label htmlFor="import-feed-url">{FEED_IMPORT_MESSAGES.urlLabel}</Label>
        <Input
          id="import-feed-url"
          type="url"
          inputMode="url"
          autoComplete="url"
          required
          placeholder="https://example.com/collection.rss"
          value={url}
          disabled={busy}
          onChange={(e) => setUrl(e.target.value)}
          aria-describedby="import-feed-hint"
          aria-invalid={state.stage === 'error' || undefined}
        />
        <p id="import-feed-hint" className="text-xs text-muted-foreground">
          {FEED_IMPORT_MESSAGES.hint}
        </p>
      </div>
      <div>
        <Button type="submit" disabled={busy || !url.trim()}>
          {busy ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Rss aria-hidden="true" />}
          {FEED_IMPORT_MESSAGES.submit}
        </Button>
      </div>
      {state.stage === 'fetching' && (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          {FEED_IMPORT_MESSAGES.fetching}
        </p>
      )}
      {state.stage === 'importing' && (
        <ImportProgress
          percent={Math.round((100 * state.done) / Math.max(1, state.total))}
          label="Import progress"
          text={bookmarkProgressText(state.done, state.total)}
        />
      )}
      {state.stage === 'error' && <FormError message={state.message} />}
      {state.stage === 'done' && <ImportSummary summary={state.summary} />}
    </form>
  );
}
