import { type Insertable, type Kysely, sql } from 'kysely';
import { IMPORTED_BOOKMARK_DESCRIPTION, LINK_MESSAGES, type LinkPreview } from '../../shared/domain';
import { requireEditable } from '../access/supercurations';
import type { Db } from '../db';
import { reindexLinks } from '../db/link-search';
import { rowsTemplate } from '../db/query-templates';
import type { Database } from '../db/schema';
import type { Viewer } from '../policies/viewer';
import { PreviewRefusedError, type PreviewService } from '../preview/service';
import { type BackgroundWorker, startBackgroundWorker } from './background-worker';
import { factColumns } from './link-facts';
import { CLAIM_WINDOW, type JobTable, anyJobDue, claimJobs, dueUnclaimed, hostIsFree } from './fetch-politeness';

/**
 * Previews of imported links, fetched afterwards in the background: a job per new link (written
 * in the import's own chunk), claimed under a lease by the worker of any server process, like the
 * mail outbox. Politeness, for all processes together (server/services/fetch-politeness.ts): one
 * request per host per PREVIEW_HOST_SPACING_MS (2 a second), and IMPORT_PREVIEW_PER_MINUTE in all. A page's title, description and thumbnail fill in only what the file
 * left empty (and the user has not changed since); a host that fails leaves the file's title.
 */

/** One request per host per this (2 a second). */
export const PREVIEW_HOST_SPACING_MS = 500;
/** Jobs one process claims per round (one per host). */
export const PREVIEW_ROUND_MAX = 4;
/** A claim's lease: a crashed process's jobs are taken again after it. */
export const PREVIEW_LEASE_MS = 2 * 60_000;
/** A fetch that failed (network, 5xx) is tried once more, this much later; then the job goes. */
export const PREVIEW_MAX_ATTEMPTS = 2;
export const PREVIEW_RETRY_MS = 10 * 60_000;
/** How often an idle worker looks for due jobs. */
export const PREVIEW_POLL_MS = 5_000;

type Q = Kysely<Database>;

export interface NewLinkPreview {
  id: string;
  url: string;
  /** The file gave no title: the link's is its host's name, and the page's may replace it. */
  fillTitle: boolean;
  /**
   * Only the page's facts are filled in, nothing the user wrote: a link shared without a cached
   * preview (the extension reads pages itself).
   */
  factsOnly?: boolean;
}

type NewJob = Pick<Insertable<Database['link_preview_jobs']>, 'link_id' | 'host' | 'fill_title' | 'facts_only' | 'due_at'>;
const insertJobs = rowsTemplate<NewJob>(['link_id', 'host', 'fill_title', 'facts_only', 'due_at'], (db, rows) =>
  db
    .insertInto('link_preview_jobs')
    .values(rows.map((r) => ({ ...r, claimed_until: null, claim_token: null })))
    .onConflict((oc) => oc.column('link_id').doNothing()),
);

/** Queues the previews of new links, in the caller's transaction (an import's chunk, a share). */
export async function enqueueLinkPreviews(trx: Q, links: readonly NewLinkPreview[], nowIso: string): Promise<void> {
  if (links.length === 0) return;
  await insertJobs(
    trx,
    links.map((l) => ({ link_id: l.id, host: new URL(l.url).hostname, fill_title: l.fillTitle ? 1 : 0, facts_only: l.factsOnly ? 1 : 0, due_at: nowIso })),
  );
}

export interface ClaimedPreview {
  link_id: string;
  host: string;
  fill_title: number;
  facts_only: number;
  attempts: number;
  url: string;
}

const PREVIEW_JOBS: JobTable = {
  table: 'link_preview_jobs',
  kind: 'previews',
  roundMax: PREVIEW_ROUND_MAX,
  leaseMs: PREVIEW_LEASE_MS,
  hostSpacingMs: PREVIEW_HOST_SPACING_MS,
};

/** Claims up to PREVIEW_ROUND_MAX due jobs, one per host not asked in the last PREVIEW_HOST_SPACING_MS (claimJobs). */
export function claimPreviewJobs(db: Db, perMinute: number, now = new Date()): Promise<{ token: string; jobs: ClaimedPreview[] }> {
  return claimJobs(db, PREVIEW_JOBS, perMinute, now, async (trx, room, nowIso) => {
    const head = trx
      .selectFrom('link_preview_jobs')
      .select(['link_id', 'host', 'fill_title', 'facts_only', 'attempts', 'due_at'])
      .where(dueUnclaimed(nowIso))
      .orderBy('due_at')
      .orderBy('link_id')
      .limit(CLAIM_WINDOW);
    const rows = await trx
      .selectFrom(head.as('j'))
      .innerJoin('links as l', 'l.id', 'j.link_id')
      .select(['j.link_id', 'j.host', 'j.fill_title', 'j.facts_only', 'j.attempts', 'l.url'])
      .where('l.url', 'is not', null)
      .where(hostIsFree('j.host', nowIso))
      .orderBy('j.due_at')
      .orderBy('j.link_id')
      .limit(room * 8)
      .execute();
    return rows.map((r) => ({ ...r, url: r.url as string }));
  });
}

/** A preview made of nothing but the URL (the page could not be fetched or read). */
const isFallback = (p: LinkPreview) => p.description === LINK_MESSAGES.noPreview && p.thumbnailUrl === null;

export interface PreviewWorkerDeps {
  db: Db;
  previews: PreviewService;
  perMinute: number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** Fetches one claimed job's preview and fills the link in, or retries or drops the job. */
async function fillIn({ db, previews, log }: PreviewWorkerDeps, token: string, job: ClaimedPreview): Promise<void> {
  const mine = (k: Q) => k.deleteFrom('link_preview_jobs').where('link_id', '=', job.link_id).where('claim_token', '=', token);
  let preview: LinkPreview | null = null;
  let retry = true;
  try {
    preview = await previews.get(job.url);
  } catch (err) {
    // A refused address stays refused; anything else is worth another try.
    retry = !(err instanceof PreviewRefusedError);
    if (retry) log?.warn({ err, url: job.url }, 'imported link preview failed');
  }
  if (preview && !isFallback(preview)) {
    const { title, description, thumbnailUrl } = preview;
    // Only what the file left empty, and only while it is still as the import wrote it.
    const filled = {
      title: sql<string>`case when ${job.fill_title} = 1 and ${sql.ref('title')} = ${job.host} and ${title} <> '' then ${title} else ${sql.ref('title')} end`,
      description: sql<string>`case when ${sql.ref('description')} = ${IMPORTED_BOOKMARK_DESCRIPTION} and ${description} <> '' then ${description} else ${sql.ref('description')} end`,
      thumbnail_url: sql<string | null>`coalesce(${sql.ref('thumbnail_url')}, ${thumbnailUrl})`,
    };
    await db.kysely.transaction().execute(async (trx) => {
      await trx
        .updateTable('links')
        .set({ ...(job.facts_only === 1 ? {} : filled), ...factColumns(preview) })
        .where('id', '=', job.link_id)
        // The page read is the one at the link's URL still (an edit may have moved it meanwhile).
        .where('url', '=', job.url)
        .execute();
      await reindexLinks(trx, [job.link_id]);
      await mine(trx).execute();
    });
    return;
  }
  if (retry && job.attempts < PREVIEW_MAX_ATTEMPTS) {
    await db.kysely
      .updateTable('link_preview_jobs')
      .set({ due_at: new Date(Date.now() + PREVIEW_RETRY_MS).toISOString(), claimed_until: null, claim_token: null })
      .where('link_id', '=', job.link_id)
      .where('claim_token', '=', token)
      .execute();
    return;
  }
  await mine(db.kysely).execute();
}

/** One round: claim, then fetch the claimed previews side by side. Answers how many were claimed. */
export async function runPreviewRound(deps: PreviewWorkerDeps, now = new Date()): Promise<number> {
  const { token, jobs } = await claimPreviewJobs(deps.db, deps.perMinute, now);
  await Promise.all(jobs.map((job) => fillIn(deps, token, job)));
  return jobs.length;
}

/**
 * The worker of a server process: rounds every PREVIEW_HOST_SPACING_MS while jobs are due, else a
 * look every PREVIEW_POLL_MS. Nothing runs when IMPORT_PREVIEW_PER_MINUTE is 0.
 */
export function startPreviewWorker(deps: PreviewWorkerDeps): BackgroundWorker {
  return startBackgroundWorker({
    name: 'imported link previews',
    enabled: deps.perMinute > 0,
    busyMs: PREVIEW_HOST_SPACING_MS,
    idleMs: PREVIEW_POLL_MS,
    anyDue: (now) => anyJobDue(deps.db, 'link_preview_jobs', now),
    round: (now) => runPreviewRound(deps, now),
    log: deps.log,
  });
}

/**
 * Previews still to fetch for the links of a collection ("Fetching previews: n left"), for its
 * editors (SPEC §6: 404 'Supercuration not found' to anyone else).
 */
export async function previewsLeftIn(db: Q, viewer: Viewer, supercurationId: string): Promise<number> {
  await requireEditable(db, viewer, supercurationId);
  const row = await db
    .selectFrom('supercuration_links as sl')
    .innerJoin('link_preview_jobs as j', 'j.link_id', 'sl.link_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('sl.supercuration_id', '=', supercurationId)
    .where('j.facts_only', '=', 0)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
