import type { Kysely } from 'kysely';

/**
 * Rate-limit counters shared by every server process on the database: sign-in,
 * sign-up and change-password attempts (server/services/rate-limits.ts). One row per route and
 * client: its count in the current window and when that window ends, so expired rows are pruned
 * by one indexed range delete, whatever their window's length.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_reset_at').on('rate_limits').column('reset_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('rate_limits_reset_at').ifExists().execute();
  await db.schema.dropTable('rate_limits').ifExists().execute();
}
