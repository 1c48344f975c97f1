import { type Compilable, CompiledQuery, type Kysely, PostgresAdapter, type RawBuilder } from 'kysely';
import type { Database } from './schema';

type Q = Kysely<Database>;

export const isPostgres = (db: Q) => db.getExecutor().adapter instanceof PostgresAdapter;

/** A raw query (`sql`...``) as a template's build: compiled against that database. */
export const withDb = <R>(db: Q, query: RawBuilder<R>): Compilable<R> => ({ compile: () => query.compile(db) });

/** Placeholders are strings no request can produce (a NUL byte). */
const MARK = '\u0000arg\u0000';

/**
 * A query whose shape is fixed, built and compiled by Kysely once per SQL dialect and then run with
 * each call's values. Building Kysely's operation tree and compiling it costs 50–150 µs of CPU per
 * query, a quarter to a half of a short read request (profiled in the collections bench); this
 * runs only the SQL. `build` receives a placeholder for each argument name and must use each as a
 * plain value (a comparison or insert value, not a list, not a piece of SQL); the compiled
 * parameters holding a placeholder get the call's value. A query whose shape depends on the input
 * (optional filters, a list of ids) takes a `shape` key naming that variant.
 */
export function queryTemplate<A extends string, R>(build: (db: Q, args: Record<A, string>, shape: string) => Compilable<R>) {
  const compiled = new Map<string, CompiledQuery<R>>();
  const placeholders = new Proxy({} as Record<A, string>, { get: (_, name) => `${MARK}${String(name)}` });
  return async (db: Q, args: Record<A, unknown>, shape = ''): Promise<R[]> => {
    const key = `${isPostgres(db) ? 'pg' : 'sqlite'} ${shape}`;
    let query = compiled.get(key);
    if (!query) {
      query = build(db, placeholders, shape).compile();
      compiled.set(key, query);
    }
    const parameters = query.parameters.map((p) => {
      if (typeof p !== 'string' || !p.startsWith(MARK)) return p;
      const value = args[p.slice(MARK.length) as A];
      if (value === undefined) throw new Error(`query template: no value for ${p.slice(MARK.length)}`);
      return value;
    });
    return (await db.executeQuery(CompiledQuery.raw(query.sql, parameters) as CompiledQuery<R>)).rows;
  };
}

/**
 * The part of a template's shape that says whether a viewer is signed in: a visitor's query needs
 * no lookup of the viewer's own rows (their likes, follows, collaborations).
 */
export const viewerShape = (viewerId: string | null | undefined) => (viewerId ? 'viewer' : 'visitor');
/** What a template's build passes as the viewer id for that part of the shape: its placeholder, or null for a visitor. */
export const viewerOfShape = (shape: string | undefined, placeholder: string) => (shape === 'visitor' ? null : placeholder);

/** Row counts compiled per rowsTemplate: an import's chunks repeat one (BOOKMARKS_CHUNK), a share's is 1. */
const ROW_COUNTS_KEPT = 8;

/**
 * queryTemplate for a statement over many rows (a multi-row insert): built and compiled by Kysely
 * once per SQL dialect and row count, then run with each call's rows. `build` receives the rows with
 * a placeholder for each of `columns` and must use each as a plain value. An import's chunk of 200
 * links spent a tenth of the import's CPU building, compiling and preparing its inserts anew (SQLite
 * prepares a statement once per SQL text: the same text is then the same prepared statement).
 */
export function rowsTemplate<Row extends object, R = unknown>(columns: readonly (keyof Row & string)[], build: (db: Q, rows: readonly Row[]) => Compilable<R>) {
  const compiled = new Map<string, { query: CompiledQuery<R>; slots: Int32Array }>();
  const width = columns.length;
  return async (db: Q, rows: readonly Row[]): Promise<R[]> => {
    const key = `${isPostgres(db) ? 'pg' : 'sqlite'} ${rows.length}`;
    let entry = compiled.get(key);
    if (entry) compiled.delete(key);
    else {
      const placeholders = rows.map((_, r) => Object.fromEntries(columns.map((c, i) => [c, `${MARK}${r * width + i}`])) as Row);
      const query = build(db, placeholders).compile();
      // Each parameter's row and column (r * width + column), or -1 for a value of the query's own.
      const slots = Int32Array.from(query.parameters, (p) => (typeof p === 'string' && p.startsWith(MARK) ? Number(p.slice(MARK.length)) : -1));
      entry = { query, slots };
      if (compiled.size >= ROW_COUNTS_KEPT) compiled.delete(compiled.keys().next().value as string);
    }
    compiled.set(key, entry);
    const { query, slots } = entry;
    const parameters = query.parameters.map((p, k) => {
      const slot = slots[k] as number;
      if (slot < 0) return p;
      const value = (rows[(slot / width) | 0] as Record<string, unknown>)[columns[slot % width] as string];
      if (value === undefined) throw new Error(`rows template: no value for ${columns[slot % width]}`);
      return value;
    });
    return (await db.executeQuery(CompiledQuery.raw(query.sql, parameters) as CompiledQuery<R>)).rows;
  };
}
