import { type Kysely, sql } from 'kysely';

/**
 * Fewer index entries for every new link, which each write pays (bench/README.md, "Add New
 * Resource, statement by statement"; "Imports by format"):
 * - Four indexes of `links` are only ever searched for a value (`= ?`): a repost's original, a
 *   user's repost of an original (unique), and the image proxy's thumbnail and icon lookups. Most
 *   links have none of these (an original, no icon yet, an imported link without a thumbnail), and
 *   both databases index NULLs: every new link wrote four entries nobody reads. Each is now partial,
 *   `where <column> is not null`, which both planners use for `= ?`. A user's repost stays unique:
 *   the upsert of a link row names the same condition (insertLinkRow).
 * - `links_url` (url) and `links_user_url` (user_id, url) become one, `links_url_user` (url,
 *   user_id): every lookup by URL gives the URL, and a user's own link with a URL is both. Both
 *   old ones were keyed in no order, so each new link dirtied a page of each.
 */
const PARTIAL: readonly { name: string; columns: string[]; unique?: boolean }[] = [
  { name: 'links_original_post', columns: ['original_post_id'] },
  { name: 'links_user_original', columns: ['user_id', 'original_post_id'], unique: true },
  { name: 'links_thumbnail', columns: ['thumbnail_url'] },
  { name: 'links_favicon', columns: ['favicon_url'] },
];

async function recreate(db: Kysely<unknown>, partial: boolean): Promise<void> {
  for (const { name, columns, unique } of PARTIAL) {
    await db.schema.dropIndex(name).execute();
    let index = db.schema.createIndex(name).on('links').columns(columns);
    if (unique) index = index.unique();
    if (partial) index = index.where(sql.ref(columns.at(-1) as string), 'is not', null);
    await index.execute();
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await recreate(db, true);
  await db.schema.dropIndex('links_url').execute();
  await db.schema.dropIndex('links_user_url').execute();
  await db.schema.createIndex('links_url_user').on('links').columns(['url', 'user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('links_url_user').execute();
  await db.schema.createIndex('links_user_url').on('links').columns(['user_id', 'url']).execute();
  await db.schema.createIndex('links_url').on('links').column('url').execute();
  await recreate(db, false);
}
