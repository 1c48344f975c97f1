import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Directory search speed, SQLite only (PostgreSQL's GIN index answers prefix
 * queries from its own term list):
 *
 * FTS5 answers a prefix query ("design"*) from a prefix index only when one of exactly that length
 * exists; otherwise it merges the postings of every matching term into one in-memory list before
 * returning the first row, so a word found in most collections cost ~12 ms however small the LIMIT.
 * With prefix indexes for lengths 1 to 12 a query word of
 * up to 12 characters streams newest first and stops after a page; longer words are rare in text,
 * and so are their postings to merge. The index grows about threefold (22 → 63 MB for 100,000
 * collections), each insert indexes a few more entries. The table is rebuilt from the public rows;
 * the triggers of migration 0004 address it by name and keep working.
 */
const PREFIXES = '1 2 3 4 5 6 7 8 9 10 11 12';
const PREVIOUS_PREFIXES = '2 3';

async function rebuild(db: Kysely<unknown>, prefixes: string): Promise<void> {
  await sql`drop table if exists supercurations_search`.execute(db);
  await sql`create virtual table supercurations_search using fts5(
    title, description,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2', prefix = ${sql.lit(prefixes)}
  )`.execute(db);
  await sql`insert into supercurations_search (rowid, title, description)
    select rowid, title, description from supercurations where is_public = 1`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await rebuild(db, PREFIXES);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await rebuild(db, PREVIOUS_PREFIXES);
}
