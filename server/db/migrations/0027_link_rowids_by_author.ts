import { type Kysely, PostgresAdapter } from 'kysely';
import { moveLinksToAuthorBlocks } from '../link-rowids';
import { reindexAllLinks } from '../link-search';
import type { Database } from '../schema';

/**
 * SQLite: every link moves into its author's block of rowids (server/db/link-rowids.ts), where new
 * links now go, and the search index, keyed by rowid, is built again. At 1,000,000 links this is the
 * longest step of an upgrade (minutes; docs/decisions.md); the build's segments are merged by the
 * server afterwards, as after migration 0022. PostgreSQL: nothing to do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  // Kysely runs no SQLite migration in a transaction; both steps want one.
  await (db as Kysely<Database>).transaction().execute(async (trx) => {
    await moveLinksToAuthorBlocks(trx);
    await reindexAllLinks(trx);
  });
}

/** Rowids in blocks are rowids all the same: nothing to undo. */
export async function down(): Promise<void> {}
