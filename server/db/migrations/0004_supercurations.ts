import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { pgSearchDocument } from '../search';

/**
 * Supercurations issue:
 * - directory search over public collections' title and description, index-backed (server/db/search.ts):
 *   SQLite an FTS5 table of public rows kept in sync by triggers; PostgreSQL a stored generated
 *   tsvector column with a GIN index (no extension needed);
 * - links_url: the duplicate-URL check of SPEC §5 and reusing a link the user already shared;
 * - supercurations_created: My Supercurations (own, collaborating and public ones, newest first);
 * - supercuration_topics_topic: the topic filter and the directory's focus categories.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('links_url').on('links').column('url').execute();
  await db.schema.createIndex('supercurations_created').on('supercurations').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('supercuration_topics_topic')
    .on('supercuration_topics')
    .columns(['topic_id', 'supercuration_id'])
    .execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table supercurations add column search_doc tsvector
      generated always as (${sql.raw(pgSearchDocument())}) stored`.execute(db);
    await sql`create index supercurations_search on supercurations using gin (search_doc)`.execute(db);
    return;
  }
  // Contentless (the text lives in supercurations); rowid = the collection's rowid; private rows never enter.
  await sql`create virtual table supercurations_search using fts5(
    title, description,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
  )`.execute(db);
  await sql`create trigger supercurations_search_insert after insert on supercurations when new.is_public = 1 begin
    insert into supercurations_search (rowid, title, description) values (new.rowid, new.title, new.description);
  end`.execute(db);
  await sql`create trigger supercurations_search_delete after delete on supercurations when old.is_public = 1 begin
    delete from supercurations_search where rowid = old.rowid;
  end`.execute(db);
  await sql`create trigger supercurations_search_update after update of title, description, is_public on supercurations begin
    delete from supercurations_search where rowid = old.rowid;
    insert into supercurations_search (rowid, title, description)
      select new.rowid, new.title, new.description where new.is_public = 1;
  end`.execute(db);
  await sql`insert into supercurations_search (rowid, title, description)
    select rowid, title, description from supercurations where is_public = 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop index if exists supercurations_search`.execute(db);
    await sql`alter table supercurations drop column if exists search_doc`.execute(db);
  } else {
    for (const trigger of ['supercurations_search_insert', 'supercurations_search_delete', 'supercurations_search_update']) {
      await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
    }
    await sql`drop table if exists supercurations_search`.execute(db);
  }
  for (const name of ['supercuration_topics_topic', 'supercurations_created', 'links_url']) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
}
