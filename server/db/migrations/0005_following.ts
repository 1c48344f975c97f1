import type { Kysely } from 'kysely';

/**
 * Following issue: the Subscriber Dashboard and its CSV export read a publisher's subscribers
 * newest first in keyset pages, `(created_at, id) < (?, ?)` after `publisher_id = ?`. The index of
 * migration 0001 stopped at created_at; this one carries the id too, so each page is one range scan
 * in index order. (A subscriber's own rows are found through the unique (subscriber_id, publisher_id).)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('user_subscriptions_publisher_created')
    .on('user_subscriptions')
    .columns(['publisher_id', 'created_at', 'id'])
    .execute();
  await db.schema.dropIndex('user_subscriptions_publisher').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('user_subscriptions_publisher')
    .on('user_subscriptions')
    .columns(['publisher_id', 'created_at'])
    .execute();
  await db.schema.dropIndex('user_subscriptions_publisher_created').ifExists().execute();
}
