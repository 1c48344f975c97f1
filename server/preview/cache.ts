import type { Kysely } from 'kysely';
import type { LinkPreview } from '../../shared/domain';
import type { Db } from '../db';

/**
 * Previews kept in the database (table link_previews, migration 0003), so every server process
 * shares them and a feed of repeated URLs does not refetch. Each row carries its own expiry.
 */
export interface LinkPreviewsTable {
  url: string;
  title: string;
  description: string;
  thumbnail_url: string | null;
  fetched_at: string;
  expires_at: string;
}

type PreviewTables = { link_previews: LinkPreviewsTable };

function previews(db: Db): Kysely<PreviewTables> {
  return db.kysely.withTables<PreviewTables>() as unknown as Kysely<PreviewTables>;
}

/** The stored preview of a normalised URL if it has not expired. */
export async function readCachedPreview(db: Db, url: string, now: Date): Promise<LinkPreview | null> {
  const row = await previews(db)
    .selectFrom('link_previews')
    .select(['url', 'title', 'description', 'thumbnail_url'])
    .where('url', '=', url)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row ? { url: row.url, title: row.title, description: row.description, thumbnailUrl: row.thumbnail_url } : null;
}

export async function writeCachedPreview(db: Db, preview: LinkPreview, now: Date, ttlMs: number): Promise<void> {
  const values = {
    title: preview.title,
    description: preview.description,
    thumbnail_url: preview.thumbnailUrl,
    fetched_at: now.toISOString(),
    expires_at: new Date(now.getTime() + ttlMs).toISOString(),
  };
  await previews(db)
    .insertInto('link_previews')
    .values({ url: preview.url, ...values })
    .onConflict((oc) => oc.column('url').doUpdateSet(values))
    .execute();
}

/** Drops expired rows; returns how many. */
export async function deleteExpiredPreviews(db: Db, now: Date): Promise<number> {
  const result = await previews(db)
    .deleteFrom('link_previews')
    .where('expires_at', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
