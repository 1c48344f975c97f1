import { gunzipSync, gzipSync } from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import { LINK_MESSAGES, type ReadableCopyState, type ReadableCopyView, type ReadableCopySettings, readingMinutes } from '../../shared/domain';
import { reindexLinks } from '../db/link-search';
import { queryTemplate, rowsTemplate } from '../db/query-templates';
import type { Database } from '../db/schema';
import { notFound } from '../errors';
import { canEditLink, linkVisibleTo } from '../policies/links';
import type { Viewer } from '../policies/viewer';
import type { ReadableCopy } from '../readable/extract';
import { membershipsOf } from './memberships';

/**
 * Readable copies (issue 23): a link with a URL gets a row in link_copies when it is saved, unless
 * its author turned copies off; the row is a job until the copy is kept (or given up). The copy is
 * the author's: it is read by them and by the editors of the collections holding the link, never by
 * visitors (the publisher's rights); it goes with its link (foreign key cascade).
 */

type Q = Kysely<Database>;

const hostOf = (url: string) => new URL(url).hostname;

/** Queues a readable copy of each link with a URL, but not of those whose author turned copies off. */
export async function queueReadableCopies(
  trx: Q,
  links: readonly { id: string; url: string | null; userId: string }[],
  nowIso: string,
  queue: 0 | 1 = 0,
): Promise<void> {
  const withUrl = links.filter((l) => l.url);
  const out = new Set<string>();
  for (const userId of new Set(withUrl.map((l) => l.userId))) if (await optedOut(trx, userId)) out.add(userId);
  const rows = withUrl.flatMap((l) => (l.url && !out.has(l.userId) ? [{ link_id: l.id, host: hostOf(l.url), queue, due_at: nowIso }] : []));
  if (rows.length > 0) await insertCopyJobs(trx, rows);
}

const insertCopyJobs = rowsTemplate<{ link_id: string; host: string; queue: number; due_at: string }>(['link_id', 'host', 'queue', 'due_at'], (db, rows) =>
  db.insertInto('link_copies').values(rows).onConflict((oc) => oc.column('link_id').doNothing()),
);

/** A link's URL changed: the copy of the old page goes, and the new page is queued. */
export async function restartReadableCopy(trx: Q, userId: string, linkId: string, url: string | null, nowIso: string): Promise<void> {
  await trx.deleteFrom('link_copies').where('link_id', '=', linkId).execute();
  await queueReadableCopies(trx, [{ id: linkId, url, userId }], nowIso);
}

const waitingLink = queryTemplate<'linkId', { link_id: string }>((db, a) => db.selectFrom('new_link_jobs').select('link_id').where('link_id', '=', a.linkId));

/** Whether a link shared a moment ago still waits for its jobs (server/services/new-link-jobs.ts): its copy is as good as queued. */
async function waitsForJobs(db: Q, linkId: string): Promise<boolean> {
  return (await waitingLink(db, { linkId })).length > 0;
}

const optOut = queryTemplate<'userId', { user_id: string }>((db, a) => db.selectFrom('readable_copy_opt_outs').select('user_id').where('user_id', '=', a.userId));

/** The user turned "Keep readable copies" off. */
export async function optedOut(trx: Q, userId: string): Promise<boolean> {
  return (await optOut(trx, { userId })).length > 0;
}

/** The columns of a kept copy, compressed. */
export function keptColumns(copy: ReadableCopy, source: 'server' | 'extension', nowIso: string) {
  return {
    due_at: null,
    claimed_until: null,
    claim_token: null,
    source,
    failure: null,
    html_gz: gzipSync(copy.html),
    text_gz: gzipSync(copy.text),
    word_count: copy.wordCount,
    lang: copy.lang,
    captured_at: nowIso,
  };
}

/**
 * Keeps the copy the extension made of what the user saw (a new link's, in the transaction that
 * saves it, which then indexes the link with its text). Nothing is kept when its author opted out.
 * Answers the kept text (gzip), or null.
 */
export async function keepExtensionCopy(
  trx: Q,
  link: { id: string; url: string | null; userId: string },
  copy: ReadableCopy,
  nowIso: string,
): Promise<Buffer | null> {
  if (!link.url || (await optedOut(trx, link.userId))) return null;
  const columns = keptColumns(copy, 'extension', nowIso);
  await trx
    .insertInto('link_copies')
    .values({ link_id: link.id, host: hostOf(link.url), ...columns })
    .onConflict((oc) => oc.column('link_id').doUpdateSet(columns))
    .execute();
  return columns.text_gz;
}

/** Whether the viewer may read the link's copy: its author or an editor of a collection holding it. */
async function readableLink(db: Q, viewer: Viewer | null, linkId: string) {
  if (!viewer) return null;
  const link = await db
    .selectFrom('links')
    .select(['id', 'user_id', 'url', 'title', 'broken_at'])
    .where('id', '=', linkId)
    .where(linkVisibleTo(viewer.id))
    .executeTakeFirst();
  if (!link) return null;
  return canEditLink(viewer, { userId: link.user_id }, await membershipsOf(db, viewer.id, [linkId])) ? link : null;
}

/** Whether the viewer may open the link's reader view (else it is a 404 to them, visitors included). */
export async function mayReadCopy(db: Q, viewer: Viewer | null, linkId: string): Promise<boolean> {
  return (await readableLink(db, viewer, linkId)) !== null;
}

/** The reader view's data; 404 'Link not found' to anyone but the author and the editors of its collections. */
export async function readableCopyOf(db: Q, viewer: Viewer | null, linkId: string): Promise<ReadableCopyView> {
  const link = await readableLink(db, viewer, linkId);
  if (!link) throw notFound(LINK_MESSAGES.linkNotFound);
  const row = await db
    .selectFrom('link_copies')
    .select(['due_at', 'source', 'failure', 'html_gz', 'word_count', 'lang', 'captured_at'])
    .where('link_id', '=', linkId)
    .executeTakeFirst();
  const optedOutAuthor = row === undefined && (await optedOut(db, link.user_id));
  const queued = row === undefined && !optedOutAuthor && link.url !== null && (await waitsForJobs(db, linkId));
  const state: ReadableCopyState = row?.html_gz ? 'kept' : row?.due_at || queued ? 'pending' : optedOutAuthor ? 'off' : 'unavailable';
  const wordCount = row?.word_count ?? 0;
  return {
    linkId,
    title: link.title,
    url: link.url,
    brokenAt: link.broken_at,
    state,
    html: row?.html_gz ? gunzipSync(row.html_gz).toString('utf8') : null,
    wordCount,
    readingMinutes: readingMinutes(wordCount),
    lang: row?.lang ?? null,
    capturedAt: row?.captured_at ?? null,
    source: (row?.source as 'server' | 'extension' | null | undefined) ?? null,
    failure: row?.failure ?? null,
  };
}

/** The viewer's setting and how far their copies are ("Readable copies: 1,234 of 5,000"). */
export async function readableCopySettings(db: Q, viewer: Viewer): Promise<ReadableCopySettings> {
  const counts = await db
    .selectFrom('links as l')
    .leftJoin('link_copies as c', 'c.link_id', 'l.id')
    .leftJoin('new_link_jobs as n', 'n.link_id', 'l.id')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.count<number>('c.html_gz').as('kept'),
      eb.fn.count<number>('c.due_at').as('waiting'),
      eb.fn.count<number>('n.link_id').as('queued'),
    ])
    .where('l.user_id', '=', viewer.id)
    .where('l.url', 'is not', null)
    .executeTakeFirstOrThrow();
  const keep = !(await optedOut(db, viewer.id));
  return {
    keep,
    total: Number(counts.total),
    kept: Number(counts.kept),
    // Links shared a moment ago whose copies are still to be queued (server/services/new-link-jobs.ts).
    waiting: Number(counts.waiting) + (keep ? Number(counts.queued) : 0),
  };
}

/**
 * Turns the viewer's copies on or off. Off deletes every copy of theirs and what was still to make;
 * on queues all their links with a URL again, behind new links (the backfill's queue).
 */
export async function setKeepReadableCopies(trx: Q, viewer: Viewer, keep: boolean, nowIso: string): Promise<void> {
  if (!keep) {
    await trx
      .insertInto('readable_copy_opt_outs')
      .values({ user_id: viewer.id, created_at: nowIso })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    const deleted = await trx
      .deleteFrom('link_copies')
      .where('link_id', 'in', (eb) => eb.selectFrom('links').select('id').where('user_id', '=', viewer.id))
      .returning(['link_id', 'source'])
      .execute();
    // The text of the kept ones (a source: who made them) leaves the search index with them.
    await reindexLinks(trx, deleted.filter((d) => d.source !== null).map((d) => d.link_id));
    return;
  }
  const removed = await trx.deleteFrom('readable_copy_opt_outs').where('user_id', '=', viewer.id).executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) return;
  await sql`
    insert into link_copies (link_id, host, queue, due_at)
    select k.link_id, k.host, 1, ${nowIso} from link_checks k inner join links l on l.id = k.link_id
    where l.user_id = ${viewer.id}`.execute(trx);
}
