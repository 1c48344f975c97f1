import type { Kysely } from 'kysely';

/**
 * Personal access tokens: `Authorization: Bearer <token>`
 * acts as the token's user (server/http/session.ts). Only the token's SHA-256 is stored (the token is
 * 32 random bytes, so a fast hash is enough); the user's rows go with the account (cascade, and
 * account deletion deletes them too).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('api_tokens_user_created').on('api_tokens').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('api_tokens_user_created').ifExists().execute();
  await db.schema.dropTable('api_tokens').ifExists().execute();
}
