import { type Kysely, sql } from 'kysely';

/**
 * The mail outbox: every e-mail is a row here first, written in the same
 * transaction as the change that causes it (a confirmation claim, a digest claim), and a worker in
 * the server process sends it (server/mail/outbox.ts).
 * - status: 'queued' until the SMTP server accepted it ('sent'), we gave up ('failed'), or
 *   its recipient unsubscribed first ('cancelled');
 * - attempts / next_attempt_at / last_error: retries with exponential backoff;
 * - claimed_until / claim_token: a worker's lease on a row while it sends; a crashed worker's row
 *   is claimable again once the lease is over;
 * - subscriber_id: the e-mail subscription a mail is for (no foreign key: the row outlives it); a
 *   mail whose subscription was deleted before the send is 'cancelled', not sent;
 * - message_id: the Message-ID header, fixed at enqueue time, so a retried send is the same message.
 * Timestamps are ISO-8601 text like everywhere else in the schema, so they compare as strings.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('unsubscribe_url', 'text')
    // The collection e-mail subscription it is for: its mail is dropped if it unsubscribes before the send.
    .addColumn('subscriber_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('claimed_until', 'text')
    .addColumn('claim_token', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  // The worker's claim reads queued rows in next_attempt_at order; sent and failed rows stay out of the index.
  await db.schema
    .createIndex('mail_outbox_due')
    .on('mail_outbox')
    .columns(['next_attempt_at'])
    .where(sql.ref('status'), '=', sql.lit('queued'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('mail_outbox_due').ifExists().execute();
  await db.schema.dropTable('mail_outbox').ifExists().execute();
}
