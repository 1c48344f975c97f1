import { sql } from 'kysely';
import type { Db } from '../../server/db';

/**
 * Tables that background workers change at any time, compared by these columns only: the mail
 * outbox worker claims, sends and retries rows, but only a request adds one.
 */
const WORKER_TABLES: Record<string, string> = { mail_outbox: 'id' };

/**
 * Tables a refused request is meant to write: a rate limit counts every attempt, refused or not
 * (otherwise a bad body would be a free guess).
 */
const ATTEMPT_TABLES = new Set(['rate_limits']);

/** Every row of every table, as sorted JSON lines: equal snapshots mean nothing was written. */
export type DbSnapshot = Map<string, string[]>;

const tableNames = new WeakMap<Db, Promise<string[]>>();

async function tablesOf(db: Db): Promise<string[]> {
  let names = tableNames.get(db);
  if (!names) {
    names = db.kysely.introspection.getTables().then((tables) => tables.map((t) => t.name));
    tableNames.set(db, names);
  }
  return names;
}

export async function dbSnapshot(db: Db): Promise<DbSnapshot> {
  const tables = (await tablesOf(db)).filter((t) => !ATTEMPT_TABLES.has(t));
  const contents = await Promise.all(
    tables.map(async (table) => {
      const columns = WORKER_TABLES[table] ? sql.ref(WORKER_TABLES[table]) : sql`*`;
      const { rows } = await sql<Record<string, unknown>>`select ${columns} from ${sql.table(table)}`.execute(db.kysely);
      return [table, rows.map((row) => JSON.stringify(row)).sort()] as const;
    }),
  );
  return new Map(contents);
}

/** The tables whose rows differ between two snapshots. */
export function changedTables(before: DbSnapshot, after: DbSnapshot): string[] {
  return [...after.keys()].filter((table) => before.get(table)?.join('\n') !== after.get(table)?.join('\n'));
}

/** Rows of `after` that `before` does not have (new or changed ones), by table. */
export function newRows(before: DbSnapshot, after: DbSnapshot): { table: string; row: Record<string, unknown> }[] {
  return changedTables(before, after).flatMap((table) => {
    const old = new Set(before.get(table));
    return (after.get(table) ?? []).filter((line) => !old.has(line)).map((line) => ({ table, row: JSON.parse(line) }));
  });
}
