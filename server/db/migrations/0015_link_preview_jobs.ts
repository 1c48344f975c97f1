import type { Kysely } from 'kysely';

/**
 * Previews of imported links, fetched afterwards in the background (server/services/import-previews.ts):
 * one job per link, claimed under a lease; the next time each host may be asked; the previews
 * fetched in each minute, all server processes together.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('link_preview_jobs')
    .addColumn('link_id', 'text', (c) => c.primaryKey().references('links.id').onDelete('cascade'))
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('fill_title', 'integer', (c) => c.notNull())
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_until', 'text')
    .addColumn('claim_token', 'text')
    .execute();
  await db.schema.createIndex('link_preview_jobs_due').on('link_preview_jobs').columns(['due_at', 'link_id']).execute();
  await db.schema
    .createTable('preview_hosts')
    .addColumn('host', 'text', (c) => c.primaryKey())
    .addColumn('next_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('preview_budget')
    .addColumn('minute', 'text', (c) => c.primaryKey())
    .addColumn('used', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('preview_budget').execute();
  await db.schema.dropTable('preview_hosts').execute();
  await db.schema.dropTable('link_preview_jobs').execute();
}
