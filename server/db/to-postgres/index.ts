import { existsSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { authOptions } from '../../auth';
import type { Config } from '../../config';
import { openDatabase } from '../index';
import { reindexAllLinks } from '../link-search';
import { migrate } from '../migrate';
import { advanceSequences, copyTable, dropIndexesAndForeignKeys } from './copy';
import { SKIPPED_TABLES, type TablePlan, nonEmptyTables, planCopy } from './tables';

/** A reason not to start, told to the user as is (exit 1, nothing written). */
export class CopyRefused extends Error {}

const SQLITE_FILE = 'supercurate.db';
/** At most one progress line per table this often, besides its last. */
const PROGRESS_MS = 2_000;

const count = (n: number) => n.toLocaleString('en-US');

function progressLine(plan: TablePlan, log: (line: string) => void) {
  const started = performance.now();
  let shown = started;
  return (rows: number) => {
    const now = performance.now();
    const done = rows === plan.rows;
    if (!done && now - shown < PROGRESS_MS) return;
    shown = now;
    const seconds = (now - started) / 1000;
    const rate = `${count(Math.round(rows / Math.max(seconds, 0.001)))} rows/s`;
    const share = plan.rows > 0 ? Math.floor((rows / plan.rows) * 100) : 100;
    log(`${plan.name}: ${count(rows)} / ${count(plan.rows)} rows (${share}%), ${rate}${done ? `, ${seconds.toFixed(1)} s` : ''}`);
  };
}

async function migrateBoth(config: Config, log: (line: string) => void): Promise<void> {
  for (const target of [{ ...config, databaseUrl: undefined }, config]) {
    const db = openDatabase(target);
    try {
      const applied = await migrate(db, authOptions(target, db));
      if (applied.length > 0) log(`${db.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} schema: applied ${applied.join(', ')}`);
    } finally {
      await db.close();
    }
  }
}

/**
 * Copies DATA_DIR's SQLite database into the empty PostgreSQL database of DATABASE_URL: refuses a
 * target holding any row; brings both schemas to this release's migrations; then copies every
 * table (SKIPPED_TABLES aside) in keyset batches, then builds the indexes and checks the foreign
 * keys, all in ONE PostgreSQL transaction, from one SQLite read snapshot. A failure or an
 * interruption rolls the copy back and leaves an empty target to run again on (docs/decisions.md,
 * "From SQLite to PostgreSQL").
 */
export async function copySqliteToPostgres(config: Config & { databaseUrl: string }, log: (line: string) => void): Promise<void> {
  const file = path.join(config.dataDir, SQLITE_FILE);
  if (!existsSync(file)) throw new CopyRefused(`No SQLite database at ${file}: set DATA_DIR to the directory holding ${SQLITE_FILE}.`);

  const target = new pg.Client({ connectionString: config.databaseUrl });
  await target.connect();
  try {
    const filled = await nonEmptyTables(target);
    if (filled.length > 0) {
      throw new CopyRefused(
        `The PostgreSQL database is not empty (rows in ${filled.join(', ')}): nothing was written. ` +
          'Copy into a new, empty database (createdb), or empty this one first.',
      );
    }
    await migrateBoth(config, log);

    const sqlite = new SQLite(file, { fileMustExist: true });
    try {
      // One read transaction: every table is read from the same snapshot, even if a server still writes.
      sqlite.exec('begin');
      const plans = await planCopy(sqlite, target);
      log(`Not copied: ${Object.entries(SKIPPED_TABLES).map(([t, why]) => `${t} (${why})`).join(', ')}`);

      await target.query('begin');
      try {
        // Text timestamps without an offset (SQLite's own datetime()) are UTC.
        await target.query(`set local timezone = 'UTC'`);
        await target.query(`set local maintenance_work_mem = '256MB'`);
        const tables = plans.map((p) => p.name);
        const restore = await dropIndexesAndForeignKeys(target, tables);
        for (const plan of plans) await copyTable(sqlite, target, plan, progressLine(plan, log));
        const indexing = performance.now();
        await restore();
        log(`Indexes built and foreign keys checked in ${((performance.now() - indexing) / 1000).toFixed(1)} s`);
        await advanceSequences(target, tables);
        await target.query('commit');
      } catch (err) {
        await target.query('rollback');
        throw err;
      }
      log(`Copied ${count(plans.reduce((n, p) => n + p.rows, 0))} rows of ${plans.length} tables.`);
    } finally {
      sqlite.close();
    }
    // The personal search's documents are built from the copied rows (SQLite's FTS5 table is not copied).
    const db = openDatabase(config);
    try {
      log(`Search index: ${count(await db.kysely.transaction().execute((trx) => reindexAllLinks(trx)))} links`);
    } finally {
      await db.close();
    }
    // Planner statistics now, not whenever autovacuum gets to it: the server's first queries plan on them.
    await target.query('analyze');
  } finally {
    await target.end();
  }
}

