import { type Kysely, sql } from 'kysely';

/**
 * Link health (server/services/link-checks.ts): a link found broken carries the time it was found
 * (links.broken_at, with a small partial index for "Broken links (n)"); each link with a URL has a
 * check row, due about every 7 days and claimed under a lease. The per-host spacing and the
 * per-minute budgets of the background fetchers become one pair of tables that all of them share
 * (server/services/fetch-politeness.ts): they replace import previews' own, which held nothing that
 * outlives a minute.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('links').addColumn('broken_at', 'text').execute();
  await db.schema.createIndex('links_broken').on('links').column('user_id').where(sql.ref('broken_at'), 'is not', null).execute();
  await db.schema
    .createTable('link_checks')
    .addColumn('link_id', 'text', (c) => c.primaryKey().references('links.id').onDelete('cascade'))
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull().defaultTo('HEAD'))
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_failure_at', 'text')
    .addColumn('last_result', 'text')
    .addColumn('checked_at', 'text')
    .addColumn('marked_fine', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_until', 'text')
    .addColumn('claim_token', 'text')
    .execute();
  await db.schema.createIndex('link_checks_due').on('link_checks').columns(['due_at', 'link_id']).execute();
  await db.schema.dropTable('preview_budget').execute();
  await db.schema.dropTable('preview_hosts').execute();
  await db.schema
    .createTable('fetch_hosts')
    .addColumn('host', 'text', (c) => c.primaryKey())
    .addColumn('next_at', 'text', (c) => c.notNull())
    .addColumn('queued_until', 'text')
    .execute();
  await db.schema
    .createTable('fetch_budget')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('minute', 'text', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('fetch_budget_pk', ['kind', 'minute'])
    .execute();
  await scheduleExistingLinks(db);
}

const WEEK_MS = 7 * 24 * 3600_000;
const BATCH = 1000;

interface Tables {
  links: { id: string; url: string | null };
  link_checks: { link_id: string; host: string; due_at: string };
}

/** Every link saved before: a first check spread over the coming week. */
async function scheduleExistingLinks(anyDb: Kysely<unknown>): Promise<void> {
  const db = anyDb as Kysely<Tables>;
  const start = Date.now();
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('links')
      .select(['id', 'url'])
      .where('url', 'is not', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    after = (rows[rows.length - 1] as { id: string }).id;
    const checks = rows.flatMap((r) => {
      const host = hostOf(r.url as string);
      return host ? [{ link_id: r.id, host, due_at: new Date(start + Math.random() * WEEK_MS).toISOString() }] : [];
    });
    if (checks.length > 0) await db.insertInto('link_checks').values(checks).execute();
  }
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fetch_budget').execute();
  await db.schema.dropTable('fetch_hosts').execute();
  await db.schema.dropTable('link_checks').execute();
  await db.schema.dropIndex('links_broken').execute();
  await db.schema.alterTable('links').dropColumn('broken_at').execute();
  await db.schema.createTable('preview_hosts').addColumn('host', 'text', (c) => c.primaryKey()).addColumn('next_at', 'text', (c) => c.notNull()).execute();
  await db.schema.createTable('preview_budget').addColumn('minute', 'text', (c) => c.primaryKey()).addColumn('used', 'integer', (c) => c.notNull()).execute();
}
