import type { Kysely } from 'kysely';
import { FORMAT_IDS, type FormatId, type LinkFacts, type LinkPreview, NO_LINK_FACTS } from '../../shared/domain';
import type { Db } from '../db';
import { queryTemplate } from '../db/query-templates';
import type { Database } from '../db/schema';

/**
 * Previews kept in the database (table link_previews, migration 0003), so every server process
 * shares them and a feed of repeated URLs does not refetch. Each row carries its own expiry.
 */
export interface LinkPreviewsTable {
  url: string;
  title: string;
  description: string;
  thumbnail_url: string | null;
  /** LinkFacts and the suggested format, as JSON (migration 0017); null in rows written before it. */
  facts: string | null;
  fetched_at: string;
  expires_at: string;
}

type PreviewTables = { link_previews: LinkPreviewsTable };

/** The tables on the app's Db or on a query builder (a transaction) of it. */
const kyselyOf = (db: Db | Kysely<Database>) => ('kysely' in db ? db.kysely : db);

function previews(db: Db | Kysely<Database>): Kysely<PreviewTables> {
  return kyselyOf(db).withTables<PreviewTables>() as unknown as Kysely<PreviewTables>;
}

const cachedPreview = queryTemplate<'url' | 'now', Pick<LinkPreviewsTable, 'url' | 'title' | 'description' | 'thumbnail_url' | 'facts'>>((db, a) =>
  previews(db)
    .selectFrom('link_previews')
    .select(['url', 'title', 'description', 'thumbnail_url', 'facts'])
    .where('url', '=', a.url)
    .where('expires_at', '>', a.now),
);

/**
 * A scalar subquery of a normalised URL's cached preview, for a query that reads more (Add New
 * Resource's first read): its facts column when it has not expired ('{}' for a row without
 * facts), else null. factsOf reads it.
 */
export function cachedFactsSubquery(db: Kysely<Database>, url: string, now: string) {
  return previews(db)
    .selectFrom('link_previews')
    .select((eb) => eb.fn.coalesce('facts', eb.val('{}')).as('facts'))
    .where('url', '=', url)
    .where('expires_at', '>', now);
}

/** The stored preview of a normalised URL if it has not expired. */
export async function readCachedPreview(db: Db | Kysely<Database>, url: string, now: Date): Promise<LinkPreview | null> {
  const [row] = await cachedPreview(kyselyOf(db), { url, now: now.toISOString() });
  if (!row) return null;
  return { url: row.url, title: row.title, description: row.description, thumbnailUrl: row.thumbnail_url, ...factsOf(row.facts) };
}

type StoredFacts = LinkFacts & { format: FormatId | null };

/** The facts column as written by writeCachedPreview; anything else reads as none. */
export function factsOf(json: string | null): StoredFacts {
  let stored: Partial<Record<keyof StoredFacts, unknown>> = {};
  try {
    stored = json ? JSON.parse(json) : {};
  } catch {
    // an unreadable row has no facts
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const format = FORMAT_IDS.find((f) => f === stored.format) ?? null;
  const facts = Object.fromEntries(Object.keys(NO_LINK_FACTS).map((k) => [k, str(stored[k as keyof LinkFacts])]));
  return { ...(facts as unknown as LinkFacts), format };
}

export async function writeCachedPreview(db: Db, preview: LinkPreview, now: Date, ttlMs: number): Promise<void> {
  const values = {
    title: preview.title,
    description: preview.description,
    thumbnail_url: preview.thumbnailUrl,
    facts: JSON.stringify({
      siteName: preview.siteName,
      faviconUrl: preview.faviconUrl,
      author: preview.author,
      publishedAt: preview.publishedAt,
      lang: preview.lang,
      format: preview.format,
    } satisfies StoredFacts),
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
