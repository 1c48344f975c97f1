import type SQLite from 'better-sqlite3';
import type PG from 'pg';

/**
 * SQLite tables not copied, and why. The migrations tables are the target's own (it is migrated by
 * the same code first). The others are caches: a link preview is fetched again when asked for, and a
 * rate-limit or fetch-budget window lasts a minute. Imported links' pending previews
 * (link_preview_jobs) and link checks (link_checks) are copied: the new server goes on with them.
 */
export const SKIPPED_TABLES: Record<string, string> = {
  kysely_migration: 'written by the target migration',
  kysely_migration_lock: 'written by the target migration',
  link_previews: 'cache of fetched link previews',
  rate_limits: 'one-minute rate-limit windows',
  fetch_budget: "one-minute windows of the background fetchers' requests",
  fetch_hosts: 'spacing of background fetches per host',
  federation_kv: "Fedify's cache of remote keys and documents, and of activities handled",
};

export interface Column {
  name: string;
  /** The PostgreSQL type, as `format_type` spells it ("text", "boolean", "timestamp with time zone"). */
  type: string;
}

export interface TablePlan {
  name: string;
  /** The SQLite table's columns (all of them), typed by the PostgreSQL column of the same name. */
  columns: Column[];
  /** Primary-key columns, in key order: the keyset the batches are read by. */
  key: string[];
  rows: number;
}

export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

interface SqliteColumn {
  name: string;
  pk: number;
}

/** Ordinary tables of the SQLite file (not virtual tables such as FTS5, nor their shadow tables). */
function sqliteTables(sqlite: SQLite.Database): string[] {
  const rows = sqlite.prepare(`pragma table_list`).all() as { schema: string; name: string; type: string }[];
  return rows
    .filter((t) => t.schema === 'main' && t.type === 'table' && !t.name.startsWith('sqlite_'))
    .map((t) => t.name)
    .sort();
}

/** Column types of every table of the PostgreSQL schema, by table, then column. */
async function postgresColumns(pg: PG.ClientBase): Promise<Map<string, Map<string, string>>> {
  const { rows } = await pg.query<{ table: string; column: string; type: string }>(
    `select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type
       from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`,
  );
  const tables = new Map<string, Map<string, string>>();
  for (const { table, column, type } of rows) {
    if (!tables.has(table)) tables.set(table, new Map());
    tables.get(table)?.set(column, type);
  }
  return tables;
}

/**
 * What to copy: every ordinary SQLite table but SKIPPED_TABLES, each with the PostgreSQL types of
 * its columns, in any order (foreign keys are checked once all rows are in: dropIndexesAndForeignKeys).
 * Throws, naming them, on tables or columns the target lacks and on tables without a primary key
 * (nothing to page by): better to stop than to drop data.
 */
export async function planCopy(sqlite: SQLite.Database, pg: PG.ClientBase): Promise<TablePlan[]> {
  const targetColumns = await postgresColumns(pg);
  const tables = sqliteTables(sqlite).filter((t) => !(t in SKIPPED_TABLES));
  const problems: string[] = [];
  const plans: TablePlan[] = [];
  for (const table of tables) {
    const target = targetColumns.get(table);
    if (!target) {
      problems.push(`table ${table} is missing in PostgreSQL`);
      continue;
    }
    const columns = sqlite.prepare(`pragma table_info(${quote(table)})`).all() as SqliteColumn[];
    const missing = columns.filter((c) => !target.has(c.name)).map((c) => c.name);
    if (missing.length > 0) problems.push(`table ${table}: column(s) ${missing.join(', ')} missing in PostgreSQL`);
    const key = columns
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    if (key.length === 0) problems.push(`table ${table} has no primary key`);
    const { n } = sqlite.prepare(`select count(*) as n from ${quote(table)}`).get() as { n: number };
    plans.push({ name: table, columns: columns.map((c) => ({ name: c.name, type: target.get(c.name) ?? 'text' })), key, rows: n });
  }
  if (problems.length > 0) throw new Error(`The PostgreSQL schema does not match the SQLite database:\n  ${problems.join('\n  ')}`);
  return plans;
}

/** Tables of the PostgreSQL schema holding at least one row (the migrations' own tables aside). */
export async function nonEmptyTables(pg: PG.ClientBase): Promise<string[]> {
  const { rows } = await pg.query<{ name: string }>(
    `select c.relname as name from pg_class c
      where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' order by c.relname`,
  );
  const filled: string[] = [];
  for (const { name } of rows) {
    if (name.startsWith('kysely_migration')) continue;
    const { rows: found } = await pg.query(`select 1 from ${quote(name)} limit 1`);
    if (found.length > 0) filled.push(name);
  }
  return filled;
}
