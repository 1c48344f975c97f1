import type { Kysely } from 'kysely';

/** Cached link previews (server/preview/cache.ts), one row per normalised URL. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('link_previews')
    .addColumn('url', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('thumbnail_url', 'text')
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('link_previews_expires').on('link_previews').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('link_previews').ifExists().execute();
}
