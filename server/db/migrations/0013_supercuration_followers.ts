import type { Kysely } from 'kysely';

/**
 * Signed-in users follow public collections as they subscribe to users: one row per follower, and
 * the collection's followers_count moved in the same transaction (server/services/supercuration-follows.ts).
 * The (user_id, created_at) index serves "the collections I follow", newest first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('supercuration_followers')
    .addColumn('supercuration_id', 'text', (c) => c.notNull().references('supercurations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('supercuration_followers_pk', ['supercuration_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('supercuration_followers_user_created')
    .on('supercuration_followers')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .alterTable('supercurations')
    .addColumn('followers_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('supercurations').dropColumn('followers_count').execute();
  await db.schema.dropIndex('supercuration_followers_user_created').ifExists().execute();
  await db.schema.dropTable('supercuration_followers').ifExists().execute();
}
