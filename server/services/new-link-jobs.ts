import type { Kysely } from 'kysely';
import type { Db } from '../db';
import { isPostgres, queryTemplate, rowsTemplate } from '../db/query-templates';
import { now } from '../db/ids';
import type { Database } from '../db/schema';
import { type BackgroundWorker, startBackgroundWorker } from './background-worker';
import { enqueueLinkPreviews } from './import-previews';
import { scheduleLinkChecks } from './link-checks';
import { queueReadableCopies } from './readable-copies';

type Q = Kysely<Database>;

/** New links made into jobs per transaction. */
const BATCH = 500;
/** While new links arrive, a batch every this long: under load, one transaction makes the jobs of many. */
const BUSY_MS = 100;
/** Otherwise a look (a read) every this long: a new link's jobs are queued within about this. */
const IDLE_MS = 250;

/**
 * A new link's background jobs (its first link check, its readable copy and, when no cached preview
 * gave it its facts, a facts-only preview) are not written by the request that shares it: it
 * writes one row in `new_link_jobs`, and this worker makes the jobs of every waiting link in one
 * transaction. A share wrote ~10 of its ~35 pages into the three job tables and their indexes
 * (bench/README.md, "One row for a new link's jobs"); a batch writes each table's last pages once.
 * Imports write their jobs themselves: their chunks are batches already.
 */
export async function queueNewLinkJobs(trx: Q, links: readonly { id: string; url: string | null; needsFacts: boolean }[]): Promise<void> {
  const rows = links.flatMap((l) => (l.url ? [{ link_id: l.id, needs_facts: l.needsFacts ? 1 : 0 }] : []));
  if (rows.length > 0) await insertNewLinks(trx, rows);
}

const insertNewLinks = rowsTemplate<{ link_id: string; needs_facts: number }>(['link_id', 'needs_facts'], (db, rows) =>
  db.insertInto('new_link_jobs').values(rows),
);

/**
 * The oldest waiting links, with what their jobs need now (a link deleted since has no author: its
 * row just goes; a URL changed since is the one checked). PostgreSQL: the rows are locked, so that
 * two processes don't make the same jobs; the second waits, then finds them gone.
 */
const waiting = queryTemplate<'limit', { link_id: string; needs_facts: number; url: string | null; user_id: string | null }>((db, a) => {
  const query = db
    .selectFrom('new_link_jobs as n')
    .leftJoin('links as l', 'l.id', 'n.link_id')
    .select(['n.link_id', 'n.needs_facts', 'l.url', 'l.user_id'])
    .orderBy('n.link_id')
    .limit(a.limit as unknown as number);
  return isPostgres(db) ? query.forUpdate('n') : query;
});

/** Makes the jobs of up to BATCH waiting links in one transaction. Answers how many links it took. */
export async function makeNewLinkJobs(db: Db): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    const rows = await waiting(trx, { limit: BATCH });
    if (rows.length === 0) return 0;
    const at = now();
    const links = rows.flatMap((r) => (r.url !== null && r.user_id !== null ? [{ id: r.link_id, url: r.url, userId: r.user_id, needsFacts: r.needs_facts === 1 }] : []));
    await scheduleLinkChecks(trx, links, new Date(at));
    await queueReadableCopies(trx, links, at);
    await enqueueLinkPreviews(
      trx,
      links.filter((l) => l.needsFacts).map((l) => ({ id: l.id, url: l.url, fillTitle: false, factsOnly: true })),
      at,
    );
    await trx
      .deleteFrom('new_link_jobs')
      .where('link_id', 'in', rows.map((r) => r.link_id))
      .execute();
    return rows.length;
  });
}

const anyWaiting = queryTemplate<never, { link_id: string }>((db) => db.selectFrom('new_link_jobs').select('link_id').limit(1));

/** The worker of a server process; it runs whatever the fetchers' rates (it fetches nothing). */
export function startNewLinkJobsWorker(deps: { db: Db; log?: { error(obj: object, msg: string): void } }): BackgroundWorker {
  return startBackgroundWorker({
    name: 'new link jobs',
    enabled: true,
    busyMs: BUSY_MS,
    idleMs: IDLE_MS,
    anyDue: async () => (await anyWaiting(deps.db.kysely, {})).length > 0,
    round: () => makeNewLinkJobs(deps.db),
    log: deps.log,
  });
}
