import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * New links waiting for their background jobs (server/services/new-link-jobs.ts): a link shared
 * one at a time writes one row here instead of a row in each of three job tables, and the jobs
 * are made for many links at once. Keyed by the link's id, which sorts by time: new rows go at the
 * end. SQLite: WITHOUT ROWID, so that a row is one B-tree entry, not a table row plus an index entry.
 * No foreign key: a link deleted before its jobs were made leaves a row that the next batch drops.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = !(db.getExecutor().adapter instanceof PostgresAdapter);
  await db.schema
    .createTable('new_link_jobs')
    .addColumn('link_id', 'text', (c) => c.primaryKey())
    .addColumn('needs_facts', 'integer', (c) => c.notNull())
    .$call((t) => (sqlite ? t.modifyEnd(sql`without rowid`) : t))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('new_link_jobs').execute();
}
