import type { Db } from '../db';
import { reindexLinks } from '../db/link-search';
import { type HopPolicy, anyAddress, publicOnly } from '../preview/address-policy';
import { decodeDocument, isHtml } from '../preview/metadata';
import { type FetchedPage, FetchRefusedError, type Resolver, safeFetch } from '../preview/safe-fetch';
import { userAgent } from '../preview/service';
import type { ReadableCopy } from '../readable/extract';
import type { Extractor } from '../readable/extractor';
import { type BackgroundWorker, startBackgroundWorker } from './background-worker';
import { CLAIM_WINDOW, type JobTable, anyJobDue, claimJobs, dueUnclaimed, hostIsFree } from './fetch-politeness';
import { keptColumns } from './readable-copies';

/**
 * The maker of readable copies in each server process: claims due link_copies rows under a lease
 * (exactly once across processes, like the other background fetchers), new links before the
 * backfill, one page per host per READABLE_HOST_SPACING_MS and READABLE_COPY_PER_MINUTE in all
 * (server/services/fetch-politeness.ts); fetches each page through the SSRF guard and keeps
 * Readability's article of it, sanitised (server/readable/extract.ts).
 */

export const READABLE_HOST_SPACING_MS = 1000;
export const READABLE_ROUND_MAX = 4;
export const READABLE_LEASE_MS = 2 * 60_000;
/** A page that failed to load (network, 5xx, 429) is tried again this much later, this many times in all. */
export const READABLE_RETRY_MS = 30 * 60_000;
export const READABLE_MAX_ATTEMPTS = 3;
export const READABLE_POLL_MS = 10_000;
/** Pages are read up to this size; a longer one is read as far as this. */
export const READABLE_PAGE_MAX_BYTES = 5 * 1024 * 1024;

export const COPY_FAILURES = {
  notHtml: 'The page is not an HTML document',
  noArticle: 'No readable text was found on the page',
  refused: 'The address is not allowed',
  unreachable: 'The page could not be loaded',
} as const;

export type PageFetcher = (url: string) => Promise<FetchedPage>;

export interface PageFetcherOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  publicUrl: string;
  policy?: HopPolicy;
  resolve?: Resolver;
}

export function createPageFetcher(opts: PageFetcherOptions): PageFetcher {
  return (url) =>
    safeFetch(url, {
      policy: opts.policy ?? (opts.allowPrivate ? anyAddress : publicOnly),
      resolve: opts.resolve,
      timeoutMs: opts.timeoutMs,
      maxBytes: READABLE_PAGE_MAX_BYTES,
      maxRedirects: 5,
      headers: {
        'user-agent': userAgent(opts.publicUrl),
        accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
        'accept-language': 'en-US,en;q=0.8',
      },
      wantBody: (status, mediaType) => status >= 200 && status < 300 && isHtml(mediaType),
    });
}

export interface ReadableCopyDeps {
  db: Db;
  fetchPage: PageFetcher;
  extractor: Pick<Extractor, 'page'>;
  perMinute: number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

interface ClaimedCopy {
  link_id: string;
  host: string;
  url: string;
  attempts: number;
}

const COPY_JOBS: JobTable = {
  table: 'link_copies',
  kind: 'copies',
  roundMax: READABLE_ROUND_MAX,
  leaseMs: READABLE_LEASE_MS,
  hostSpacingMs: READABLE_HOST_SPACING_MS,
};

/** Claims up to READABLE_ROUND_MAX due copies, new links first, one per free host (claimJobs). */
export function claimCopies(db: Db, perMinute: number, now: Date): Promise<{ token: string; jobs: ClaimedCopy[] }> {
  return claimJobs(db, COPY_JOBS, perMinute, now, async (trx, room, nowIso) => {
    const head = trx
      .selectFrom('link_copies')
      .select(['link_id', 'host', 'attempts', 'queue', 'due_at'])
      .where('due_at', 'is not', null)
      .where(dueUnclaimed(nowIso))
      .orderBy('queue')
      .orderBy('due_at')
      .orderBy('link_id')
      .limit(CLAIM_WINDOW);
    const rows = await trx
      .selectFrom(head.as('c'))
      .innerJoin('links as l', 'l.id', 'c.link_id')
      .select(['c.link_id', 'c.host', 'c.attempts', 'l.url'])
      .where('l.url', 'is not', null)
      .where(hostIsFree('c.host', nowIso))
      .orderBy('c.queue')
      .orderBy('c.due_at')
      .orderBy('c.link_id')
      .limit(room * 8)
      .execute();
    return rows.map((r) => ({ ...r, url: r.url as string }));
  });
}

type Outcome = { copy: ReadableCopy } | { failure: string; retry: boolean };

/** Fetches and reads one page. */
async function readPage({ fetchPage, extractor }: ReadableCopyDeps, url: string): Promise<Outcome> {
  let page: FetchedPage;
  try {
    page = await fetchPage(url);
  } catch (err) {
    return err instanceof FetchRefusedError ? { failure: COPY_FAILURES.refused, retry: false } : { failure: COPY_FAILURES.unreachable, retry: true };
  }
  if (page.status === 429 || page.status >= 500) return { failure: COPY_FAILURES.unreachable, retry: true };
  if (page.status < 200 || page.status >= 300) return { failure: COPY_FAILURES.unreachable, retry: false };
  if (!isHtml(page.mediaType)) return { failure: COPY_FAILURES.notHtml, retry: false };
  let copy: ReadableCopy | null = null;
  try {
    copy = await extractor.page(decodeDocument(page.body, page.contentType), page.url);
  } catch {
    // A page that breaks the parser (or takes too long) has no readable text: not a job to try forever.
  }
  return copy ? { copy } : { failure: COPY_FAILURES.noArticle, retry: false };
}

/** Makes one claimed copy, or puts it back for a retry, or gives it up; only while the claim is still this one's. */
async function makeCopy(deps: ReadableCopyDeps, token: string, job: ClaimedCopy, now: Date): Promise<void> {
  const outcome = await readPage(deps, job.url);
  const nowIso = now.toISOString();
  if ('copy' in outcome) {
    const { copy } = outcome;
    await deps.db.kysely.transaction().execute(async (trx) => {
      const kept = await trx
        .updateTable('link_copies')
        .set(keptColumns(copy, 'server', nowIso))
        .where('link_id', '=', job.link_id)
        .where('claim_token', '=', token)
        .executeTakeFirst();
      // The text is searchable from the moment the copy is there.
      if (Number(kept.numUpdatedRows) > 0) await reindexLinks(trx, [job.link_id]);
    });
    return;
  }
  const again = outcome.retry && job.attempts < READABLE_MAX_ATTEMPTS;
  await deps.db.kysely
    .updateTable('link_copies')
    .set({
      due_at: again ? new Date(now.getTime() + READABLE_RETRY_MS).toISOString() : null,
      claimed_until: null,
      claim_token: null,
      failure: again ? null : outcome.failure,
    })
    .where('link_id', '=', job.link_id)
    .where('claim_token', '=', token)
    .execute();
}

/** One round: claim, then make the claimed copies side by side. Answers how many were claimed. */
export async function runReadableCopyRound(deps: ReadableCopyDeps, now = new Date()): Promise<number> {
  const { token, jobs } = await claimCopies(deps.db, deps.perMinute, now);
  await Promise.all(
    jobs.map((job) => makeCopy(deps, token, job, now).catch((err: unknown) => deps.log?.warn({ err, url: job.url }, 'readable copy failed'))),
  );
  return jobs.length;
}

/** The maker of a server process; nothing runs when READABLE_COPY_PER_MINUTE is 0. */
export function startReadableCopyWorker(deps: ReadableCopyDeps): BackgroundWorker {
  return startBackgroundWorker({
    name: 'readable copies',
    enabled: deps.perMinute > 0,
    busyMs: READABLE_HOST_SPACING_MS,
    idleMs: READABLE_POLL_MS,
    anyDue: (now) => anyJobDue(deps.db, 'link_copies', now),
    round: (now) => runReadableCopyRound(deps, now),
    log: deps.log,
  });
}
