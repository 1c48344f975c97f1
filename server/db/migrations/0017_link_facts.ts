import type { Kysely } from 'kysely';

/**
 * What a page says about itself beyond its preview (issue 19): its site's name and icon, author,
 * publication date and language, read by the server from the page and stored with each link to it
 * (server/services/link-facts.ts). The image proxy serves a link's icon to visitors as it serves its
 * thumbnail, so icons are indexed like thumbnails (links_thumbnail, migration 0002). Cached previews
 * keep the same facts, with the format the page suggests, as one JSON text. A link shared without a
 * cached preview (the extension reads the page itself; API clients) gets its facts from a background
 * preview job (server/services/import-previews.ts) that touches nothing else: facts_only.
 */
const FACT_COLUMNS = ['site_name', 'favicon_url', 'author', 'published_at', 'lang'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of FACT_COLUMNS) await db.schema.alterTable('links').addColumn(column, 'text').execute();
  await db.schema.createIndex('links_favicon').on('links').column('favicon_url').execute();
  await db.schema.alterTable('link_previews').addColumn('facts', 'text').execute();
  await db.schema
    .alterTable('link_preview_jobs')
    .addColumn('facts_only', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('link_preview_jobs').dropColumn('facts_only').execute();
  await db.schema.alterTable('link_previews').dropColumn('facts').execute();
  await db.schema.dropIndex('links_favicon').execute();
  for (const column of FACT_COLUMNS) await db.schema.alterTable('links').dropColumn(column).execute();
}
