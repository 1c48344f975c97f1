import type SQLite from 'better-sqlite3';
import type PG from 'pg';
import { type TablePlan, quote } from './tables';

/** Rows per batch: one SQLite read and one PostgreSQL insert each. */
const BATCH_ROWS = 5_000;
/** A batch also ends past this much text and blob data, so wide rows (mail bodies) keep memory bounded. */
const BATCH_BYTES = 16 * 1024 * 1024;

const byteSize = (row: unknown[]) =>
  row.reduce<number>((sum, v) => sum + (typeof v === 'string' ? v.length * 2 : Buffer.isBuffer(v) ? v.length : 8), 0);

/**
 * A table's rows in primary-key order, batch after batch, each read by a keyset query
 * (`(key) > (last key of the previous batch)`), so a batch costs the same at any depth and only
 * one is in memory. `columns` must include the key.
 */
function* batches(sqlite: SQLite.Database, table: string, columns: string[], key: string[]): Generator<unknown[][]> {
  const list = columns.map(quote).join(', ');
  const order = key.map(quote).join(', ');
  const keyAt = key.map((k) => columns.indexOf(k));
  const first = sqlite.prepare(`select ${list} from ${quote(table)} order by ${order} limit ${BATCH_ROWS}`).raw(true);
  const next = sqlite
    .prepare(
      `select ${list} from ${quote(table)} where (${order}) > (${key.map(() => '?').join(', ')}) ` +
        `order by ${order} limit ${BATCH_ROWS}`,
    )
    .raw(true);
  let after: unknown[] | undefined;
  for (;;) {
    const rows: unknown[][] = [];
    let bytes = 0;
    for (const row of (after ? next.iterate(...after) : first.iterate()) as Iterable<unknown[]>) {
      rows.push(row);
      bytes += byteSize(row);
      if (bytes >= BATCH_BYTES) break;
    }
    if (rows.length === 0) return;
    yield rows;
    const last = rows[rows.length - 1] as unknown[];
    after = keyAt.map((i) => last[i]);
  }
}

/**
 * A SQLite value as the PostgreSQL column takes it. Our tables store the same types in both
 * dialects (ISO-8601 text, 0/1 integers); Better Auth's use boolean and timestamptz on PostgreSQL,
 * which SQLite holds as 0/1 and ISO-8601 text (or, if ever written so, epoch milliseconds).
 * Text, JSON text and blobs (Buffers, sent as bytea) go as they are.
 */
export function toPostgres(value: unknown, type: string): unknown {
  if (value === null) return null;
  if (type === 'boolean') return Boolean(value);
  if (typeof value === 'number' && (type.startsWith('timestamp') || type === 'date')) return new Date(value);
  return value;
}

/** Copies one table, batch by batch, calling `progress` with the rows copied so far. */
export async function copyTable(
  sqlite: SQLite.Database,
  pg: PG.ClientBase,
  plan: TablePlan,
  progress: (rows: number) => void,
): Promise<void> {
  const names = plan.columns.map((c) => c.name);
  const casts = plan.columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ');
  const insert = `insert into ${quote(plan.name)} (${names.map(quote).join(', ')}) select * from unnest(${casts})`;
  let copied = 0;
  for (const rows of batches(sqlite, plan.name, names, plan.key)) {
    // One statement per batch, whatever its length: an array per column.
    await pg.query(insert, plan.columns.map((c, i) => rows.map((row) => toPostgres(row[i], c.type))));
    copied += rows.length;
    progress(copied);
  }
}

/**
 * Drops the foreign keys of `tables` and their indexes that back no constraint (primary keys and
 * unique constraints stay), and returns how to put them back: indexes built once from the copied
 * rows, then each foreign key checked by one query over its table, as pg_restore does. Per-row
 * upkeep of a dozen indexes and foreign-key triggers cost most of the copy's time (links: 2,500
 * rows/s with them, see docs/decisions.md), and a row may reference one copied later (a repost its
 * original). Unique indexes are checked when rebuilt; all of it within the copy's transaction.
 */
export async function dropIndexesAndForeignKeys(pg: PG.ClientBase, tables: string[]): Promise<() => Promise<void>> {
  const { rows: foreignKeys } = await pg.query<{ table: string; name: string; definition: string }>(
    `select t.relname as table, k.conname as name, pg_get_constraintdef(k.oid) as definition
       from pg_constraint k join pg_class t on t.oid = k.conrelid
      where k.contype = 'f' and t.relname = any($1) and t.relnamespace = current_schema()::regnamespace`,
    [tables],
  );
  const { rows: indexes } = await pg.query<{ name: string; definition: string }>(
    `select c.relname as name, pg_get_indexdef(x.indexrelid) as definition
       from pg_index x join pg_class c on c.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
      where t.relname = any($1) and t.relnamespace = current_schema()::regnamespace
        and not exists (select 1 from pg_constraint k where k.conindid = x.indexrelid)`,
    [tables],
  );
  for (const { table, name } of foreignKeys) await pg.query(`alter table ${quote(table)} drop constraint ${quote(name)}`);
  for (const { name } of indexes) await pg.query(`drop index ${quote(name)}`);
  return async () => {
    for (const { definition } of indexes) await pg.query(definition);
    for (const { table, name, definition } of foreignKeys) {
      await pg.query(`alter table ${quote(table)} add constraint ${quote(name)} ${definition}`);
    }
  };
}

/**
 * Moves serial and identity sequences past the copied ids, so the next insert doesn't collide.
 * Our ids are text today; this keeps a future integer key correct.
 */
export async function advanceSequences(pg: PG.ClientBase, tables: string[]): Promise<void> {
  const { rows } = await pg.query<{ table: string; column: string; sequence: string }>(
    `select c.relname as table, a.attname as column, pg_get_serial_sequence(quote_ident(c.relname), a.attname) as sequence
       from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relnamespace = current_schema()::regnamespace and c.relname = any($1) and a.attnum > 0 and not a.attisdropped
        and pg_get_serial_sequence(quote_ident(c.relname), a.attname) is not null`,
    [tables],
  );
  for (const { table, column, sequence } of rows) {
    await pg.query(`select setval($1, coalesce((select max(${quote(column)}) from ${quote(table)}), 0) + 1, false)`, [sequence]);
  }
}
