import { type Kysely, sql } from 'kysely';

/**
 * ActivityPub (issue 21; server/federation/). A public collection is an actor:
 * - federation_collection_keys: its key pairs (RSA for HTTP signatures, Ed25519 for object
 *   proofs) as JWK, made on first use and deleted with the collection;
 * - federation_followers: the remote actors following it, with the inboxes to deliver to;
 * - federation_deliveries: the activities to send, one row per remote inbox (a server's shared inbox
 *   for all its followers), claimed under a lease and retried like the mail outbox;
 * - supercurations.fediverse_followers_count: their number, shown beside the in-app followers;
 * - federation_kv: Fedify's cache (remote public keys and documents, activities already handled),
 *   each entry with an optional expiry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('supercurations')
    .addColumn('fediverse_followers_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('federation_collection_keys')
    .addColumn('supercuration_id', 'text', (c) => c.primaryKey().references('supercurations.id').onDelete('cascade'))
    .addColumn('keys_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('federation_followers')
    .addColumn('supercuration_id', 'text', (c) => c.notNull().references('supercurations.id').onDelete('cascade'))
    .addColumn('actor_uri', 'text', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('inbox_uri', 'text', (c) => c.notNull())
    .addColumn('shared_inbox_uri', 'text')
    .addColumn('follow_uri', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('federation_followers_pk', ['supercuration_id', 'actor_uri'])
    .execute();
  await db.schema.createIndex('federation_followers_created').on('federation_followers').columns(['supercuration_id', 'created_at']).execute();
  await db.schema
    .createTable('federation_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('supercuration_id', 'text', (c) => c.notNull().references('supercurations.id').onDelete('cascade'))
    .addColumn('link_id', 'text')
    .addColumn('activity', 'text', (c) => c.notNull())
    .addColumn('inbox_uri', 'text', (c) => c.notNull())
    // A Reject: the Follow it answers, and who sent it.
    .addColumn('follow_uri', 'text')
    .addColumn('follower_uri', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('claimed_until', 'text')
    .addColumn('claim_token', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  // As the mail outbox's: queued rows in next_attempt_at order, finished ones out of the index.
  await db.schema
    .createIndex('federation_deliveries_due')
    .on('federation_deliveries')
    .column('next_attempt_at')
    .where(sql.ref('status'), '=', sql.lit('queued'))
    .execute();
  await db.schema
    .createTable('federation_kv')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema.createIndex('federation_kv_expires').on('federation_kv').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('federation_kv').ifExists().execute();
  await db.schema.dropTable('federation_deliveries').ifExists().execute();
  await db.schema.dropTable('federation_followers').ifExists().execute();
  await db.schema.dropTable('federation_collection_keys').ifExists().execute();
  await db.schema.alterTable('supercurations').dropColumn('fediverse_followers_count').execute();
}
