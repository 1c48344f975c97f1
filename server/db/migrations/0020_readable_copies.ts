import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Readable copies (issue 23; server/services/readable-copies.ts): one row per link with a URL,
 * made when it is saved. While `due_at` is set the row is a job, claimed under a lease by the
 * background fetchers' rules (server/services/fetch-politeness.ts); `queue` 0 (new links) goes
 * before 1 (the backfill of links saved before this migration, and of an account that turns copies
 * back on). Once kept, the copy is the sanitised article as gzip (`html_gz`) and its plain text
 * (`text_gz`, for search). A user who turned copies off has a row in readable_copy_opt_outs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const blob = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema
    .createTable('link_copies')
    .addColumn('link_id', 'text', (c) => c.primaryKey().references('links.id').onDelete('cascade'))
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('queue', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('due_at', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_until', 'text')
    .addColumn('claim_token', 'text')
    .addColumn('source', 'text')
    .addColumn('failure', 'text')
    .addColumn('html_gz', sql.raw(blob))
    .addColumn('text_gz', sql.raw(blob))
    .addColumn('word_count', 'integer')
    .addColumn('lang', 'text')
    .addColumn('captured_at', 'text')
    .execute();
  await db.schema
    .createIndex('link_copies_due')
    .on('link_copies')
    .columns(['queue', 'due_at', 'link_id'])
    .where(sql.ref('due_at'), 'is not', null)
    .execute();
  await db.schema
    .createTable('readable_copy_opt_outs')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  const at = new Date().toISOString();
  // The backfill: every link saved before, behind new links, at the background fetchers' pace. Each
  // link with a URL has a check row holding its host (migration 0016).
  await sql`insert into link_copies (link_id, host, queue, due_at) select link_id, host, 1, ${at} from link_checks`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('readable_copy_opt_outs').ifExists().execute();
  await db.schema.dropTable('link_copies').ifExists().execute();
}
