import { type Kysely, sql } from 'kysely';

/**
 * Indexes for the links issue. Each feed (scope × sort of GET /api/links) is one index range
 * scan, read in index order, with a row-value keyset cursor on the trailing columns:
 *   Shared by me  = user_id, in_main_feed = 1   newest/oldest: links_feed_created, most liked: links_feed_liked
 *   My Reposts    = user_id, original_post_id set              links_reposts_created / links_reposts_liked
 * A user reposts a link at most once: links_user_original is unique (NULLs never collide).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('links_feed_created')
    .on('links')
    .columns(['user_id', 'in_main_feed', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('links_feed_liked')
    .on('links')
    .columns(['user_id', 'in_main_feed', 'likes_count', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('links_reposts_created')
    .on('links')
    .columns(['user_id', 'created_at', 'id'])
    .where(sql.ref('original_post_id'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('links_reposts_liked')
    .on('links')
    .columns(['user_id', 'likes_count', 'created_at', 'id'])
    .where(sql.ref('original_post_id'), 'is not', null)
    .execute();
  await db.schema.createIndex('links_user_original').on('links').columns(['user_id', 'original_post_id']).unique().execute();
  // The image proxy lets visitors fetch only thumbnails that stored links or collections use.
  await db.schema.createIndex('links_thumbnail').on('links').column('thumbnail_url').execute();
  await db.schema.createIndex('supercurations_thumbnail').on('supercurations').column('thumbnail_url').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [
    'supercurations_thumbnail',
    'links_thumbnail',
    'links_user_original',
    'links_reposts_liked',
    'links_reposts_created',
    'links_feed_liked',
    'links_feed_created',
  ]) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
}
