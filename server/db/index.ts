import { createRequire } from 'node:module';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { createHash } from 'node:crypto';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type SqliteStatement,
  sql,
} from 'kysely';
import type PG from 'pg';
import { startCheckpointer } from './checkpointer';
import type { Database } from './schema';
import { withFastRows } from './sqlite-rows';

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
    // pipeline: a query is written at once, not after the one before it answers (withNamedStatements).
    const pool = new (loadPg().Pool)({ connectionString: databaseUrl, max: 10, pipeline: true });
    const kysely = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: withNamedStatements(pool) }),
    });
    return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
  }
  const file = path.join(dataDir, sqliteFile);
  dropMisleadingStatistics(file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // Savepoints' sub-journals (group commit: server/db/group-commit.ts) and temporary tables in
  // memory: a sub-journal over 64 KiB went to a temporary file for the rest of its transaction.
  sqlite.pragma('temp_store = memory');
  sqlite.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  sqlite.pragma(`journal_size_limit = ${BACKSTOP_CHECKPOINT_PAGES * 4096}`);
  // Should the thread stop on an error, this connection checkpoints as SQLite does by default.
  const checkpointer = startCheckpointer(file, () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_CHECKPOINT_PAGES}`);
  });
  const kysely = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
  return {
    kysely,
    dialect: 'sqlite',
    close: async () => {
      await checkpointer.stop();
      await kysely.destroy();
    },
  };
}

/**
 * Pages kept in memory per connection (KiB): SQLite's default of 2 MiB holds a sliver of a
 * database of a million links, so a feed page read most of its rows' pages from the file (a pread
 * each). 64 MiB keeps the recently read users' pages: ~15% of a feed page's CPU (measured).
 */
const SQLITE_CACHE_KIB = 65_536;

/**
 * The WAL is copied back into the database file by a thread of its own (server/db/checkpointer.ts).
 * This connection's own checkpoint, run by the commit that fills the WAL to this many pages, is only
 * a backstop should that thread fall behind; the WAL file is cut back to that size afterwards.
 */
const BACKSTOP_CHECKPOINT_PAGES = 16_000;
/** SQLite's default, for this connection should the checkpoint thread fail. */
const SQLITE_CHECKPOINT_PAGES = 1_000;
/**
 * The page cache while a bulk write runs (KiB). An import's chunks touch each index page a few
 * times and move on, so a big cache only fills with pages it won't read again: a 50,000-row import
 * took as long with 8 MiB as with 64 MiB, and its server's RSS rose by 11 MB instead of 52 MB; and
 * as long with 2 MiB (SQLite's default) as with 8 MiB.
 */
const BULK_CACHE_KIB = 2_048;
/** Bulk writes under way per SQLite database (an import each). */
const bulkWriters = new WeakMap<Db, number>();

/** Sets SQLite's page cache for ordinary use, or for while bulk writes run. */
async function useCache(db: Db, bulk: boolean): Promise<void> {
  await sql.raw(`pragma cache_size = -${bulk ? BULK_CACHE_KIB : SQLITE_CACHE_KIB}`).execute(db.kysely);
}

/**
 * Runs a bulk write (SQLite: with a page cache of BULK_CACHE_KIB while any runs in this process).
 * Reads meanwhile share the smaller cache.
 */
export async function bulkWrites<T>(db: Db, run: () => Promise<T>): Promise<T> {
  if (db.dialect !== 'sqlite') return run();
  const writers = bulkWriters.get(db) ?? 0;
  bulkWriters.set(db, writers + 1);
  if (writers === 0) await useCache(db, true);
  try {
    return await run();
  } finally {
    const left = (bulkWriters.get(db) ?? 1) - 1;
    bulkWriters.set(db, left);
    if (left === 0) await useCache(db, false);
  }
}

/**
 * Statistics that mislead SQLite's planner, dropped when the database is opened (ANALYZE is run by
 * an operator, or by a bulk load such as the bench's):
 * - Per-value samples (sqlite_stat4, beside sqlite_stat1's averages when SQLite is built with
 *   STAT4, as better-sqlite3's is). With samples, every statement comparing an indexed column with
 *   a parameter is compiled anew each time it runs with other values (sqlite3Reprepare): most of a
 *   small query's CPU, and the statement cache below is void (a feed page's collections query:
 *   100 -> 18 µs without them). The averages stay: plans are chosen once per statement, as
 *   PostgreSQL's generic plans are.
 * - Any statistics of FTS5's shadow tables (link_search_data, ...). FTS5 reads and deletes their
 *   rows by key only, and they grow from nothing: stats taken while the index was small (2 rows)
 *   made SQLite scan all of link_search_data for each range of pages a merge deletes, instead of
 *   seeking to it. At 1,000,000 links a merge step took 10.6-13.4 s instead of 11-28 ms, and the build's
 *   final merge never finished (bench/README.md, "Personal search").
 */
function dropMisleadingStatistics(file: string): void {
  // A connection of its own, closed before the server's opens: a connection keeps the row counts it
  // loaded with its schema even after their sqlite_stat1 rows are gone.
  const sqlite = new SQLite(file);
  try {
    sqlite.pragma('busy_timeout = 5000');
    const has = (table: string) => sqlite.prepare('select 1 from sqlite_schema where name = ?').get(table);
    if (!has('sqlite_stat1')) return;
    if (has('sqlite_stat4') && sqlite.prepare('select 1 from sqlite_stat4 limit 1').get()) sqlite.exec('delete from sqlite_stat4');
    const shadow = "tbl in (select name from pragma_table_list where type = 'shadow')";
    if (sqlite.prepare(`select 1 from sqlite_stat1 where ${shadow} limit 1`).get()) sqlite.exec(`delete from sqlite_stat1 where ${shadow}`);
  } finally {
    sqlite.close();
  }
}

/**
 * SQLite transactions begin IMMEDIATE: they take the write lock at once, waiting for it up to
 * busy_timeout. A plain (deferred) BEGIN reads from a snapshot and asks for the lock at its first
 * write; if another process (a cluster worker, a second server on the file) committed meanwhile,
 * that snapshot is stale and SQLite fails the write at once with SQLITE_BUSY ("database is
 * locked"), without waiting: a 500 when several processes write at the same time.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new (class extends SqliteDriver {
      override async beginTransaction(connection: DatabaseConnection): Promise<void> {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      }
    })(this.#config);
  }
}

/** Prepared statements kept per SQL text; beyond this many, the oldest is dropped. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew, which cost ~15% of a feed request's CPU (measured in the
 * bench). Our queries are parameterised, so the same few hundred SQL texts repeat: reuse their
 * statements. Safe because Kysely runs each statement to completion synchronously (no streaming).
 */
function withStatementCache(sqlite: SQLite.Database) {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = withFastRows(sqlite.prepare(sql));
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

/** Kysely's BEGIN (begin, or start transaction with an isolation level or access mode). */
const BEGIN = /^(begin|start transaction)\b/i;
/** What Kysely reads of BEGIN's result: nothing but that it did not fail. */
const BEGUN = { command: 'BEGIN', rowCount: null, rows: [] } as unknown as PG.QueryResult;

/** SQL texts prepared as named statements; further texts run unnamed (bounds the backends' memory). */
const NAMED_STATEMENTS = 500;

/**
 * PostgreSQL parses and plans every unnamed query anew: that was ~2/3 of the database CPU of a
 * feed page (measured). A named statement is prepared once per connection (pg remembers which
 * names each client has prepared) and, after five executions, PostgreSQL may keep a generic plan
 * when its estimated cost is no worse than the custom plans': then a query is only bound and run.
 * The name is a hash of the SQL text. Not named: queries without parameters (DDL, BEGIN), and
 * queries with an array parameter (`= any($1::text[])`), whose cost depends on the array's length,
 * which a generic plan can't see (a 50,000-bookmark import ran 0.35 s per lookup on one).
 * Migrations run at start, before the app's queries, so no prepared plan outlives a schema change.
 */
function withNamedStatements(pool: PG.Pool): PostgresPool {
  const wrappers = new WeakMap<PG.PoolClient, PostgresPoolClient>();
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (!name && names.size < NAMED_STATEMENTS) {
      name = `q${createHash('sha1').update(text).digest('base64url')}`;
      names.set(text, name);
    }
    return name;
  };
  const wrap = (client: PG.PoolClient): PostgresPoolClient => {
    // With a callback, not pg's promise: through pg's promise every result's rows lived on across
    // young-generation collections and were promoted to the old one (~12 kB a page of cards, as
    // many bytes as its rows), filling it for the next full collection; through a callback they
    // die young, as with SQLite (docs/decisions.md).
    const send = (text: string, values: readonly unknown[], done: (err: Error | undefined, result: PG.QueryResult) => void) => {
      const config = { name: values.length > 0 && !values.some(Array.isArray) ? nameOf(text) : undefined, text, values: [...values] };
      client.query(config, done);
    };
    /**
     * A transaction's BEGIN waits here and is written with its first statement: one round trip
     * less per transaction (each costs our process a wake-up, a write and a read). In pipeline
     * mode pg writes both at once and answers them in order; should BEGIN fail, so does that
     * statement, and Kysely rolls back as for any failed statement.
     */
    let begin: string | null = null;
    const query = (text: string, values: readonly unknown[]) =>
      new Promise<PG.QueryResult>((resolve, reject) => {
        const pending = begin;
        if (pending === null && BEGIN.test(text)) {
          begin = text;
          resolve(BEGUN);
          return;
        }
        if (pending === null) {
          send(text, values, (err, result) => (err ? reject(err) : resolve(result)));
          return;
        }
        begin = null;
        const { stream } = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection;
        let failed: Error | undefined;
        stream.cork();
        send(pending, [], (err) => {
          failed = err;
        });
        send(text, values, (err, result) => (err || failed ? reject(err ?? failed) : resolve(result)));
        stream.uncork();
      });
    return { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
  };
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
