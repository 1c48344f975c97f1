import type { Kysely } from 'kysely';

/**
 * Collection e-mail subscriptions deliver:
 * - email_subscribers.confirm_sent_at: when the last confirmation mail went out (re-subscribing
 *   re-sends at most once per CONFIRMATION_RESEND_MINUTES);
 * - email_send_limits: confirmation mails per address per day, across collections (one row per
 *   address, its window start and count);
 * - digest_state: per collection, until when new resources have been sent in a digest; the digest
 *   job claims a due collection by moving last_sent_at with a compare-and-set UPDATE, so several
 *   server processes never send the same digest twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('email_subscribers').addColumn('confirm_sent_at', 'text').execute();
  await db.schema
    .createIndex('email_subscribers_confirmed')
    .on('email_subscribers')
    .columns(['supercuration_id', 'confirmed_at'])
    .execute();
  await db.schema
    .createTable('email_send_limits')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('digest_state')
    .addColumn('supercuration_id', 'text', (c) => c.primaryKey().references('supercurations.id').onDelete('cascade'))
    .addColumn('last_sent_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('digest_state').ifExists().execute();
  await db.schema.dropTable('email_send_limits').ifExists().execute();
  await db.schema.dropIndex('email_subscribers_confirmed').ifExists().execute();
  await db.schema.alterTable('email_subscribers').dropColumn('confirm_sent_at').execute();
}
