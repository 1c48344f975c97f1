import { createRequire } from 'node:module';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type PG from 'pg';
import type { Database } from './schema';

// Loaded only when PostgreSQL is configured: an SQLite server doesn't pay its memory.
const loadPg = () => createRequire(import.meta.url)('pg') as typeof PG;

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export interface DbOptions {
  databaseUrl?: string;
  dataDir: string;
  /** SQLite file name inside dataDir. */
  sqliteFile?: string;
}

/** Opens PostgreSQL when a URL is given, otherwise the SQLite file in DATA_DIR. */
export function openDatabase({ databaseUrl, dataDir, sqliteFile = 'supercurate.db' }: DbOptions): Db {
  if (databaseUrl) {
    const pool = new (loadPg().Pool)({ connectionString: databaseUrl, max: 10 });
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
  }
  const sqlite = new SQLite(path.join(dataDir, sqliteFile));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
}

/** Prepared statements kept per SQL text; beyond this many, the oldest is dropped. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew, which cost ~15% of a feed request's CPU (measured in the
 * bench). Our queries are parameterised, so the same few hundred SQL texts repeat: reuse their
 * statements. Safe because Kysely runs each statement to completion synchronously (no streaming).
 */
function withStatementCache(sqlite: SQLite.Database) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}
