import { type Kysely, sql } from 'kysely';
import type { Database } from './schema';

/** FTS5 leaf pages written by one merge step: tens of milliseconds of one write transaction. */
export const FTS5_MERGE_PAGES = 256;

/**
 * FTS5's 'merge' command on the index `table`, in the caller's transaction: it writes at most
 * `pages` leaf pages of merged segments and trims the merged part of its inputs. A negative
 * count merges every segment into one, as 'optimize' does, a step at a time. Returns whether it
 * wrote anything: FTS5 changes fewer than 2 rows when there was nothing left to merge.
 */
export async function fts5Merge(trx: Kysely<Database>, table: string, pages: number): Promise<boolean> {
  const changes = async () => Number((await sql<{ n: number }>`select total_changes() as n`.execute(trx)).rows[0]?.n);
  const before = await changes();
  // The count as a literal: FTS5 takes an integer, and a bound JS number arrives as a real.
  await sql`insert into ${sql.table(table)} (${sql.ref(table)}, rank) values ('merge', ${sql.lit(pages)})`.execute(trx);
  return (await changes()) - before >= 2;
}
