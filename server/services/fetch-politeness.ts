import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../db';
import type { Database } from '../db/schema';

/**
 * The politeness the background fetchers (import previews, link checks, readable copies) share, for all server
 * processes together: the next time each host may be asked (fetch_hosts), and each fetcher's
 * requests in the current minute (fetch_budget). A claim reads the minute's budget row locked (FOR
 * UPDATE on PostgreSQL; SQLite has one writer), so claims of several processes take turns on it and
 * both limits are exact.
 */

type Q = Kysely<Database>;
export type FetcherKind = 'previews' | 'checks' | 'copies';

/**
 * Opens (or locks) the fetcher's row of this minute and answers how many requests it may still
 * make in it, at most `max`. Once a minute it also drops earlier minutes and hosts long free.
 */
export async function budgetLeft(trx: Q, db: Db, kind: FetcherKind, perMinute: number, max: number, now: Date): Promise<number> {
  const nowIso = now.toISOString();
  const minute = nowIso.slice(0, 16);
  const opened = await trx
    .insertInto('fetch_budget')
    .values({ kind, minute, used: 0 })
    .onConflict((oc) => oc.columns(['kind', 'minute']).doNothing())
    .executeTakeFirst();
  if (Number(opened.numInsertedOrUpdatedRows ?? 0) > 0) {
    await trx.deleteFrom('fetch_budget').where('kind', '=', kind).where('minute', '<', minute).execute();
    await trx
      .deleteFrom('fetch_hosts')
      .where('next_at', '<', nowIso)
      .where((eb) => eb.or([eb('queued_until', 'is', null), eb('queued_until', '<', nowIso)]))
      .execute();
  }
  const row = trx.selectFrom('fetch_budget').select('used').where('kind', '=', kind).where('minute', '=', minute);
  const { used } = await (db.dialect === 'postgres' ? row.forUpdate() : row).executeTakeFirstOrThrow();
  return Math.min(max, perMinute - used);
}

/** Counts `n` more requests of the fetcher in this minute (after budgetLeft, in its transaction). */
export async function spendBudget(trx: Q, kind: FetcherKind, n: number, now: Date): Promise<void> {
  await trx
    .updateTable('fetch_budget')
    .set((eb) => ({ used: eb('used', '+', n) }))
    .where('kind', '=', kind)
    .where('minute', '=', now.toISOString().slice(0, 16))
    .execute();
}

/** A where-clause: the job's host (`hostColumn`) may be asked now. */
export function hostIsFree(hostColumn: string, nowIso: string) {
  return sql<boolean>`not exists (select 1 from fetch_hosts h where h.host = ${sql.ref(hostColumn)} and h.next_at > ${nowIso})`;
}

/**
 * How many of the oldest due jobs a claim looks at for a free host. Without a bound, a queue whose
 * head is all on hosts asked in the last second (one big site's links) is read to the end on every
 * round; with it, a round costs at most this many index rows, and jobs further back wait for
 * the head to move on at its hosts' pace.
 */
export const CLAIM_WINDOW = 1000;

/** A where-clause on a job table: due now, and not claimed by a lease still running. */
export function dueUnclaimed(nowIso: string) {
  return sql<boolean>`due_at <= ${nowIso} and (claimed_until is null or claimed_until <= ${nowIso})`;
}

/** Whether any job of the table is due now (a read, so that an idle worker writes nothing). */
export async function anyJobDue(db: Db, table: 'link_preview_jobs' | 'link_checks' | 'link_copies', now: Date): Promise<boolean> {
  const row = await db.kysely.selectFrom(table).select('link_id').where('due_at', '<=', now.toISOString()).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Picks at most `room` candidates, one per host, in their order. */
export function onePerHost<T extends { host: string }>(candidates: readonly T[], room: number): T[] {
  const picked: T[] = [];
  const hosts = new Set<string>();
  for (const c of candidates) {
    if (picked.length === room) break;
    if (hosts.has(c.host)) continue;
    hosts.add(c.host);
    picked.push(c);
  }
  return picked;
}

/** Books the hosts until `until` (never earlier than a booking they already have). */
export async function holdHosts(q: Q, hosts: readonly string[], until: Date): Promise<void> {
  if (hosts.length === 0) return;
  const nextAt = until.toISOString();
  await q
    .insertInto('fetch_hosts')
    .values(hosts.map((host) => ({ host, next_at: nextAt })))
    .onConflict((oc) =>
      oc.column('host').doUpdateSet({
        next_at: sql<string>`case when fetch_hosts.next_at > excluded.next_at then fetch_hosts.next_at else excluded.next_at end`,
      }),
    )
    .execute();
}

/** The host may be asked again from `at` (its request has ended), whatever it was booked until. */
export async function hostFreeAt(q: Q, host: string, at: Date): Promise<void> {
  const nextAt = at.toISOString();
  await q
    .insertInto('fetch_hosts')
    .values({ host, next_at: nextAt })
    .onConflict((oc) => oc.column('host').doUpdateSet({ next_at: nextAt }))
    .execute();
}

/** A table of fetch jobs claimed by claimJobs, and its fetcher's limits. */
export interface JobTable {
  table: 'link_preview_jobs' | 'link_copies';
  kind: FetcherKind;
  /** Jobs one process claims per round (one per host). */
  roundMax: number;
  leaseMs: number;
  /** How long a claimed job's host is held: one request per host per this. */
  hostSpacingMs: number;
}

/**
 * Claims up to `roundMax` jobs within the minute's budget, one per host, among `candidates`
 * (due, unclaimed, on a free host, in the order they go), counts an attempt on each, and books
 * their hosts and the budget, in one transaction. `candidates` is asked for about `room` × 8.
 */
export async function claimJobs<T extends { link_id: string; host: string; attempts: number }>(
  db: Db,
  jobs: JobTable,
  perMinute: number,
  now: Date,
  candidates: (trx: Q, room: number, nowIso: string) => Promise<T[]>,
): Promise<{ token: string; jobs: T[] }> {
  const token = randomBytes(12).toString('hex');
  if (perMinute <= 0) return { token, jobs: [] };
  const nowIso = now.toISOString();
  const claimed = await db.kysely.transaction().execute(async (trx) => {
    const room = await budgetLeft(trx, db, jobs.kind, perMinute, jobs.roundMax, now);
    if (room <= 0) return [];
    const picked = onePerHost(await candidates(trx, room, nowIso), room).map((c) => ({ ...c, attempts: c.attempts + 1 }));
    if (picked.length === 0) return [];
    const until = new Date(now.getTime() + jobs.leaseMs).toISOString();
    await sql`update ${sql.table(jobs.table)} set claimed_until = ${until}, claim_token = ${token}, attempts = attempts + 1
      where link_id in (${sql.join(picked.map((p) => p.link_id))})`.execute(trx);
    await holdHosts(trx, picked.map((p) => p.host), new Date(now.getTime() + jobs.hostSpacingMs));
    await spendBudget(trx, jobs.kind, picked.length, now);
    return picked;
  });
  return { token, jobs: claimed };
}
