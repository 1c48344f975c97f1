import { type Kysely, sql } from 'kysely';

/**
 * Four indexes of `links` are only ever searched for a value (`= ?`): a repost's original, a user's
 * repost of an original (unique), and the image proxy's thumbnail and icon lookups. Most links have
 * none of these (an original, no icon yet, an imported link without a thumbnail), and both
 * databases index NULLs: every new link wrote four entries nobody reads. Each is now partial,
 * `where <column> is not null`, which both planners use for `= ?`. A user's repost stays unique:
 * the upsert of a link row names the same condition (insertLinkRow).
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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await recreate(db, false);
}
