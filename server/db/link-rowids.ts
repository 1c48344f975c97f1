import { type Kysely, sql } from 'kysely';
import { isPostgres } from './query-templates';
import type { Database } from './schema';

/**
 * SQLite: a link's rowid puts it in its author's block: the author's `user` rowid times BLOCK,
 * plus the link's place among theirs. Each user's links are then neighbours in the `links` table
 * and in every doclist of the search index (keyed by the links' rowids), so a search reads the
 * searcher's stretch of a common word's doclist, a few pages, instead of a page for each of their
 * links spread among everyone's (docs/decisions.md, "A link's rowid is in its author's block").
 * Only where a link lands depends on it: no query relies on a link being in its author's block,
 * and a link that finds its block full gets SQLite's own next rowid.
 * BLOCK is 2^26 (67 million links a user) so that rowids stay exact in JavaScript (2^53) for up to
 * 2^27 users. PostgreSQL has no rowid.
 */
const BLOCK = 2 ** 26;

/** The n-th rowid (from 1) of the block of the user whose `user` rowid is given. */
export const rowidInBlock = (userRowid: number, n: number) => userRowid * BLOCK + n;

/** SQL: the rowid after the last link in the author's block, the block's first, or null when it is full. */
const nextInBlock = (userId: string) => sql<number | null>`(select case when n < e then n end from (
    select max(u.rowid * ${sql.lit(BLOCK)}, coalesce((select l.rowid from links l where l.rowid < (u.rowid + 1) * ${sql.lit(BLOCK)} order by l.rowid desc limit 1), 0)) + 1 as n,
      (u.rowid + 1) * ${sql.lit(BLOCK)} as e
    from "user" u where u.id = ${userId}))`;

/** A new link's rowid, as an insert's values (none on PostgreSQL). */
export const rowidColumn = (db: Kysely<Database>, userId: string) => (isPostgres(db) ? {} : { rowid: nextInBlock(userId) });

/**
 * SQLite: rowids for `count` new links of `userId`, to insert in one statement (whose rows cannot
 * see each other's): consecutive in the author's block, or null for SQLite to choose where the
 * block is full. Nulls on PostgreSQL.
 */
export async function newLinkRowids(db: Kysely<Database>, userId: string, count: number): Promise<(number | null)[]> {
  if (isPostgres(db)) return Array(count).fill(null);
  const { rows } = await sql<{ n: number | null }>`select ${nextInBlock(userId)} as n`.execute(db);
  const first = rows[0]?.n ?? null;
  if (first === null) return Array(count).fill(null);
  const end = (Math.floor(first / BLOCK) + 1) * BLOCK;
  return Array.from({ length: count }, (_, i) => (first + i < end ? first + i : null));
}

/**
 * SQLite: moves every link into its author's block, keeping the order of each author's links (the
 * links' rowids, all below BLOCK before this runs, become their offsets in it). The search index,
 * keyed by the old rowids, must be built again after it (migration 0027).
 */
export async function moveLinksToAuthorBlocks(db: Kysely<Database>): Promise<void> {
  await sql`update links set rowid = rowid + coalesce((select u.rowid * ${sql.lit(BLOCK)} from "user" u where u.id = links.user_id), 0)
    where rowid < ${sql.lit(BLOCK)}`.execute(db);
}
