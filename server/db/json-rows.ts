import { type Kysely, type RawBuilder, sql } from 'kysely';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';
import { isPostgres } from './query-templates';
import type { Database } from './schema';

/**
 * A column holding the subquery's rows as a JSON array (json_group_array on SQLite, json_agg on
 * PostgreSQL), in the subquery's order: a collection's topics, tags and collaborators come with
 * its row instead of in one more query each. Read it back with jsonRowsOf.
 */
type JsonSource<O> = Parameters<typeof sqliteJsonArrayFrom<O>>[0];
export function jsonRows<O>(db: Kysely<Database>, subquery: JsonSource<O>): RawBuilder<string | O[]> {
  // PostgreSQL: json_agg of no rows is null, read as [] (no coalesce needed in SQL).
  if (isPostgres(db)) return sql<O[]>`(select json_agg(agg) from ${subquery} as agg)`;
  return sqliteJsonArrayFrom(subquery) as unknown as RawBuilder<string | O[]>;
}
/** SQLite answers JSON as text, PostgreSQL as parsed values. */
export const jsonRowsOf = <O>(value: string | O[] | null): O[] => (typeof value === 'string' ? (JSON.parse(value) as O[]) : (value ?? []));
