import type { Kysely } from 'kysely';
import { type LinkFacts, NO_LINK_FACTS } from '../../shared/domain';
import type { Database } from '../db/schema';
import { factsOf, readCachedPreview } from '../preview/cache';

/**
 * The facts a page says about itself (shared/domain LinkFacts), stored on each link to it. They come
 * from the server's own reading of the page, never from the client: the preview Preview & Share has
 * just shown (cached, server/preview/cache.ts) when a link is saved, else a background preview job
 * (server/services/import-previews.ts) fills them in.
 */
export interface FactColumns {
  site_name: string | null;
  favicon_url: string | null;
  author: string | null;
  published_at: string | null;
  lang: string | null;
}

export const NO_FACT_COLUMNS: FactColumns = factColumns(NO_LINK_FACTS);

export function factColumns(f: LinkFacts): FactColumns {
  return { site_name: f.siteName, favicon_url: f.faviconUrl, author: f.author, published_at: f.publishedAt, lang: f.lang };
}

export function factsOfRow(r: FactColumns): LinkFacts {
  return { siteName: r.site_name, faviconUrl: r.favicon_url, author: r.author, publishedAt: r.published_at, lang: r.lang };
}

/** The facts of a URL's cached preview; null when there is none (then a background job reads the page). */
export async function cachedFacts(db: Kysely<Database>, url: string | null, now: Date): Promise<FactColumns | null> {
  if (url === null) return NO_FACT_COLUMNS;
  const preview = await readCachedPreview(db, previewUrl(url), now);
  return preview ? factColumns(preview) : null;
}

/** The URL a link's preview is cached under: without its fragment. */
export const previewUrl = (url: string) => url.split('#')[0] as string;

/** cachedFacts from a cachedFactsSubquery read with other things (server/preview/cache.ts). */
export function cachedFactsOf(url: string | null, facts: string | null): FactColumns | null {
  if (url === null) return NO_FACT_COLUMNS;
  return facts === null ? null : factColumns(factsOf(facts));
}
