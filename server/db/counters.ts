import { type RawBuilder, sql } from 'kysely';

/** Counters shown in the UI move in the same transaction as the rows they count (ARCHITECTURE "Data rules"). */

/** A counter minus `by`, never below 0 (SPEC §4). */
export const decrement = (column: string, by: number | RawBuilder<number> = 1): RawBuilder<number> =>
  sql<number>`case when ${sql.ref(column)} > ${by} then ${sql.ref(column)} - ${by} else 0 end`;
export const increment = (column: string, by: number | RawBuilder<number> = 1): RawBuilder<number> => sql<number>`${sql.ref(column)} + ${by}`;
