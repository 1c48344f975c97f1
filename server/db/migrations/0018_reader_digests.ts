import { type Kysely, sql } from 'kysely';

/**
 * The personal digest (issue 20): one row per reader, holding how often their digest goes out and
 * `sent_up_to`, the time up to which what they follow has been considered (server/mail/reader-digest.ts
 * claims a due reader by a compare-and-set of it). A row is made when a user first follows someone
 * or some collection, or sets the frequency; readers who followed before this migration get one now,
 * weekly, so their first digest covers what is published from now on. The index serves the due scan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reader_digests')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('frequency', 'text', (c) => c.notNull())
    .addColumn('sent_up_to', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reader_digests_due').on('reader_digests').columns(['frequency', 'sent_up_to']).execute();
  const at = new Date().toISOString();
  await sql`
    insert into reader_digests (user_id, frequency, sent_up_to)
    select r.user_id, 'weekly', ${at} from (
      select subscriber_id as user_id from user_subscriptions
      union
      select user_id from supercuration_followers
    ) r`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reader_digests').ifExists().execute();
}
