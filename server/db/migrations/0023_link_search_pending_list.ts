import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { PG_PENDING_LIST_KB } from '../link-search';

/**
 * PostgreSQL: the search index's pending list is kept small (server/db/link-search.ts). GIN
 * appends new entries to that list unsorted, and every search reads all of it: at the default
 * limit of 4 MB a search read ~500 pages before its first match (1.3 ms at 20,000 links). SQLite's
 * FTS5 has no such list: nothing to do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter index link_search_doc set (gin_pending_list_limit = ${sql.lit(PG_PENDING_LIST_KB)})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter index link_search_doc reset (gin_pending_list_limit)`.execute(db);
}
