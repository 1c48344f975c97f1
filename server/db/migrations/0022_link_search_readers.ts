import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { reindexAllLinks } from '../link-search';
import type { Database } from '../schema';

/**
 * The search documents gain their readers (server/db/link-search.ts), so that a search reads only
 * the searcher's documents: the table is rebuilt with them, and every link's document is built.
 * SQLite: FTS5 cannot add a column, so the table and its trigger are made again, `readers` last.
 * PostgreSQL: `readers text[]`, and one GIN index over both columns, so a search's scan is driven
 * by the searcher's few readers and skips through a common word's long list; and `head`, the
 * document without its readable text, to rank by.
 * The backfill uses the current document builder: a later change of the table's shape must make
 * this migration's backfill a no-op, as this one did to 0021's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table link_search add column readers text[] not null default '{}'`.execute(db);
    await sql`alter table link_search add column head tsvector not null default ''`.execute(db);
    await sql`drop index link_search_doc`.execute(db);
    await sql`create index link_search_doc on link_search using gin (doc, readers)`.execute(db);
    await reindexAllLinks(db as Kysely<Database>);
  } else {
    await remakeSqliteTable(db, ['title', 'description', 'topics', 'domain', 'body', 'readers']);
    // Kysely runs no SQLite migration in a transaction; the backfill wants one (reindexAllLinks).
    await (db as Kysely<Database>).transaction().execute((trx) => reindexAllLinks(trx));
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop index link_search_doc`.execute(db);
    await sql`alter table link_search drop column readers`.execute(db);
    await sql`alter table link_search drop column head`.execute(db);
    await sql`create index link_search_doc on link_search using gin (doc)`.execute(db);
  } else {
    await remakeSqliteTable(db, ['title', 'description', 'topics', 'domain', 'body']);
  }
}

/** The FTS5 table (empty) with these columns, and its trigger, as migration 0021 made them. */
async function remakeSqliteTable(db: Kysely<unknown>, columns: string[]): Promise<void> {
  await sql`drop trigger link_search_delete`.execute(db);
  await sql`drop table link_search`.execute(db);
  await sql`create virtual table link_search using fts5(
    ${sql.raw(columns.join(', '))},
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
  )`.execute(db);
  await sql`create trigger link_search_delete after delete on links begin
    delete from link_search where rowid = old.rowid;
  end`.execute(db);
}
