import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, BookX, ExternalLink, Hourglass, Moon, RefreshCw, Settings2, Sun } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../shared/api/client';
import {
  MSG,
  READABLE_MESSAGES,
  type ReadableCopyView,
  displayHost,
  isHttpUrl,
  paths,
  readingTimeText,
} from '../../shared/domain';
import { queryKeys } from '../../shared/queries/keys';
import { Button } from '../../shared/ui/primitives/button';
import { FormError } from '../../shared/ui/primitives/form-error';
import { EmptyState } from '../components/EmptyState';
import { ListLoadFailed } from '../components/LoadStates';
import { Loading } from '../components/Loading';
import { api, messageOf } from '../lib/api';
import { utcLongDate } from '../lib/dates';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { NotFoundPage } from './NotFoundPage';

/** Under the links' key: what reloads a link (a new URL, a deletion) reloads its copy too. */
const readableCopyKey = (id: string) => [...queryKeys.links, 'copy', id] as const;

/**
 * /links/{id}/read: the link's readable copy, for its author and the editors of its collections.
 * Anyone else gets 'Page not found' (the API answers 404, as the server does for the page itself).
 */
export function ReaderPage() {
  const { id = '' } = useParams();
  const copy = useQuery({ queryKey: readableCopyKey(id), queryFn: ({ signal }) => api.readableCopy(id, signal) });
  const notFound = copy.error instanceof ApiError && copy.error.status === 404;
  useDocumentTitle(notFound ? MSG.pageNotFound : (copy.data?.title ?? (copy.isError ? READABLE_MESSAGES.loadFailed : undefined)));
  if (notFound) return <NotFoundPage />;

  return (
    <div className="mx-auto w-full max-w-3xl">
      <Button variant="ghost" className="mb-4 -ml-3" asChild>
        <Link to={paths.link(id)}>
          <ArrowLeft aria-hidden="true" />
          Back to the link
        </Link>
      </Button>
      {copy.data ? (
        <ReadableCopy
          copy={copy.data}
          refresh={{
            busy: copy.isFetching,
            error: copy.isRefetchError ? messageOf(copy.error, READABLE_MESSAGES.loadFailed) : null,
            run: () => void copy.refetch(),
          }}
        />
      ) : copy.isError ? (
        <ListLoadFailed level={1} title={READABLE_MESSAGES.loadFailed} onRetry={() => void copy.refetch()} />
      ) : (
        <Loading />
      )}
    </div>
  );
}

/** Reading the copy again while it is being made: under way, failed, or to do. */
interface Refresh {
  busy: boolean;
  error: string | null;
  run: () => void;
}

type ReaderTheme = 'light' | 'dark';
const THEME_KEY = 'supercurate.reader-theme';

/** The reader's theme: the one chosen last on this device, else the system's. */
function useReaderTheme(): [ReaderTheme, (theme: ReaderTheme) => void] {
  const [theme, setTheme] = useState<ReaderTheme>(() => {
    const saved = window.localStorage.getItem(THEME_KEY);
    if (saved === 'light' || saved === 'dark') return saved;
    return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  });
  const choose = (next: ReaderTheme) => {
    setTheme(next);
    window.localStorage.setItem(THEME_KEY, next);
  };
  return [theme, choose];
}

function ThemeToggle({ theme, onChange }: { theme: ReaderTheme; onChange: (theme: ReaderTheme) => void }) {
  const option = (value: ReaderTheme, label: string, Icon: typeof Sun) => (
    <Button variant={theme === value ? 'secondary' : 'ghost'} size="sm" aria-pressed={theme === value} onClick={() => onChange(value)}>
      <Icon aria-hidden="true" />
      {label}
    </Button>
  );
  return (
    <div role="group" aria-label="Reader theme" className="flex gap-1">
      {option('light', 'Light', Sun)}
      {option('dark', 'Dark', Moon)}
    </div>
  );
}

function ReadableCopy({ copy, refresh }: { copy: ReadableCopyView; refresh: Refresh }) {
  const lang = copy.lang ?? undefined;
  const [theme, setTheme] = useReaderTheme();
  return (
    <article
      aria-labelledby="reader-title"
      className={`rounded-xl border bg-card px-4 py-6 text-card-foreground shadow-sm sm:px-8 sm:py-10 ${theme === 'dark' ? 'reader-dark' : ''}`}
    >
      {/* One measure for the header and the text: about 68 characters of the text's size. */}
      <div className="mx-auto max-w-[68ch] text-[1.0625rem]">
        <div className="mb-4 flex justify-end">
          <ThemeToggle theme={theme} onChange={setTheme} />
        </div>
        <header className="space-y-3 border-b pb-6">
          <h1 id="reader-title" lang={lang} className="text-2xl leading-tight font-bold tracking-tight break-words sm:text-3xl">
            {copy.title}
          </h1>
          {copy.state === 'kept' && <CopyFacts copy={copy} />}
          {copy.url && isHttpUrl(copy.url) && (
            <a
              href={copy.url}
              target="_blank"
              rel="noopener noreferrer nofollow"
              className="inline-flex max-w-full items-center gap-1.5 text-sm font-medium text-primary underline-offset-4 hover:underline"
            >
              <span className="truncate">{`Original page on ${displayHost(copy.url) ?? copy.url}`}</span>
              <ExternalLink aria-hidden="true" className="size-4 shrink-0" />
            </a>
          )}
        </header>
        {copy.state === 'kept' ? (
          // Sanitised on the server (server/readable/sanitise.ts), and the CSP allows no inline script anyway.
          <div lang={lang} className="reader-article pt-6" dangerouslySetInnerHTML={{ __html: copy.html ?? '' }} />
        ) : (
          <div className="pt-6">
            <CopyMissing copy={copy} refresh={refresh} />
          </div>
        )}
      </div>
    </article>
  );
}

/** '4 min read · Saved on November 28, 2026', and where the copy came from. */
function CopyFacts({ copy }: { copy: ReadableCopyView }) {
  const facts = [
    copy.readingMinutes > 0 ? readingTimeText(copy.readingMinutes) : null,
    copy.capturedAt ? `Saved on ${utcLongDate(copy.capturedAt)}` : null,
    copy.source === 'extension' ? READABLE_MESSAGES.fromExtension : null,
  ].filter((fact) => fact !== null);
  return (
    <ul aria-label="About the copy" className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
      {facts.map((fact) => (
        <li key={fact}>{fact}</li>
      ))}
    </ul>
  );
}

/** Why there is no copy to read: it is being made (Refresh), none could be made, or copies are off. */
function CopyMissing({ copy, refresh }: { copy: ReadableCopyView; refresh: Refresh }) {
  if (copy.state === 'pending') {
    return (
      <EmptyState icon={Hourglass} title={READABLE_MESSAGES.pending}>
        <div className="grid justify-items-center gap-3">
          <FormError message={refresh.busy ? null : refresh.error} />
          <Button variant="outline" disabled={refresh.busy} onClick={refresh.run}>
            <RefreshCw aria-hidden="true" className={refresh.busy ? 'animate-spin' : undefined} />
            {refresh.busy ? 'Refreshing...' : 'Refresh'}
          </Button>
        </div>
      </EmptyState>
    );
  }
  if (copy.state === 'off') return <EmptyState icon={Settings2} title={READABLE_MESSAGES.off} />;
  return <EmptyState icon={BookX} title={READABLE_MESSAGES.unavailable} description={copy.failure ?? undefined} />;
}
