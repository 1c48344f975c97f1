import { getMigrations } from 'better-auth/db/migration';
import { DEFAULT_MIGRATION_TABLE, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { AuthOptions } from '../auth';
import type { Db } from './index';
import * as m0001 from './migrations/0001_core_schema';
import * as m0002 from './migrations/0002_link_feed_indexes';
import * as m0003 from './migrations/0003_link_previews';
import * as m0004 from './migrations/0004_supercurations';
import * as m0005 from './migrations/0005_following';
import * as m0006 from './migrations/0006_email_delivery';
import * as m0007 from './migrations/0007_feed_filter_indexes';
import * as m0008 from './migrations/0008_mail_outbox';
import * as m0010 from './migrations/0010_directory_search_prefixes';
import * as m0011 from './migrations/0011_rate_limits';
import * as m0012 from './migrations/0012_api_tokens';
import * as m0013 from './migrations/0013_supercuration_followers';
import * as m0014 from './migrations/0014_imported_memberships';
import * as m0015 from './migrations/0015_link_preview_jobs';
import * as m0016 from './migrations/0016_link_health';
import * as m0017 from './migrations/0017_link_facts';
import * as m0018 from './migrations/0018_reader_digests';
import * as m0019 from './migrations/0019_collection_topics_json';
import * as m0020 from './migrations/0020_readable_copies';
import * as m0021 from './migrations/0021_link_search';
import * as m0022 from './migrations/0022_link_search_readers';
import * as m0023 from './migrations/0023_link_search_pending_list';
import * as m0024 from './migrations/0024_federation';
import * as m0025 from './migrations/0025_fediverse_people';
import * as m0026 from './migrations/0026_link_indexes';
import * as m0027 from './migrations/0027_link_rowids_by_author';
import * as m0028 from './migrations/0028_new_link_jobs';
import * as m0029 from './migrations/0029_directory_hits';
import * as m0030 from './migrations/0030_link_topic_ids';

const migrations: Record<string, Migration> = {
  '0001_core_schema': m0001,
  '0002_link_feed_indexes': m0002,
  '0003_link_previews': m0003,
  '0004_supercurations': m0004,
  '0005_following': m0005,
  '0006_email_delivery': m0006,
  '0007_feed_filter_indexes': m0007,
  '0008_mail_outbox': m0008,
  '0010_directory_search_prefixes': m0010,
  '0011_rate_limits': m0011,
  '0012_api_tokens': m0012,
  '0013_supercuration_followers': m0013,
  '0014_imported_memberships': m0014,
  '0015_link_preview_jobs': m0015,
  '0016_link_health': m0016,
  '0017_link_facts': m0017,
  '0018_reader_digests': m0018,
  '0019_collection_topics_json': m0019,
  '0020_readable_copies': m0020,
  '0021_link_search': m0021,
  '0022_link_search_readers': m0022,
  '0023_link_search_pending_list': m0023,
  '0024_federation': m0024,
  '0025_fediverse_people': m0025,
  '0026_link_indexes': m0026,
  '0027_link_rowids_by_author': m0027,
  '0028_new_link_jobs': m0028,
  '0029_directory_hits': m0029,
  '0030_link_topic_ids': m0030,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** The schema this code brings a database to: the name of its newest migration. */
export const LATEST_SCHEMA = Object.keys(migrations).sort().at(-1) as string;

/** The newest migration applied to the database (null: none yet). */
export async function schemaVersion(db: Db): Promise<string | null> {
  // One query, not the Migrator's getMigrations (several round trips): /api/health asks on every call.
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)} order by name desc limit 1`.execute(
    db.kysely,
  );
  return rows[0]?.name ?? null;
}

/**
 * Brings the schema up to date: Better Auth's tables first (ours reference "user"),
 * then our own migrations in order. Safe to run on every start and from several processes.
 */
export async function migrate(db: Db, authOptions: AuthOptions): Promise<string[]> {
  const { runMigrations } = await getMigrations(authOptions);
  await runMigrations();
  const migrator = new Migrator({ db: db.kysely, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
