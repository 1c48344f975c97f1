import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Personal search (issue 23; server/db/link-search.ts): a search document per link. Migration
 * 0022 reshapes the table and builds the documents of the links saved before (this one did, until
 * the documents gained their readers). SQLite: a contentless FTS5 table keyed by the links' rowid (prefix
 * indexes of 2 and 3 characters, as the directory's first ones), and a trigger removing a link's
 * entry with it, whatever deletes it (a link, an account). PostgreSQL: a table of tsvectors with
 * a GIN index, its rows going with their links by cascade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create table link_search (
      link_id text primary key references links (id) on delete cascade,
      doc tsvector not null
    )`.execute(db);
    await sql`create index link_search_doc on link_search using gin (doc)`.execute(db);
  } else {
    await sql`create virtual table link_search using fts5(
      title, description, topics, domain, body,
      content = '', contentless_delete = 1,
      tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
    )`.execute(db);
    await sql`create trigger link_search_delete after delete on links begin
      delete from link_search where rowid = old.rowid;
    end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) await sql`drop trigger if exists link_search_delete`.execute(db);
  await sql`drop table if exists link_search`.execute(db);
}
