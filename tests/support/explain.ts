import { type CompiledQuery, sql } from 'kysely';
import type { Db } from '../../server/db';

/**
 * The plan of a query. PostgreSQL would seq-scan the tiny test tables whatever the indexes, so
 * scans that are not index scans are switched off for this one transaction: what is left shows
 * that the index can serve the filter and the order (no Sort node).
 */
export async function explain(db: Db, query: CompiledQuery, bitmap = false): Promise<string> {
  if (db.dialect === 'sqlite') {
    const { rows } = await db.kysely.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` });
    return rows.map((r) => r.detail).join('\n');
  }
  return db.kysely.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    // A search through a GIN index is a bitmap scan: the caller allows those with `bitmap`.
    if (!bitmap) await sql`set local enable_bitmapscan = off`.execute(trx);
    const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>({ ...query, sql: `explain ${query.sql}` });
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

/**
 * A PostgreSQL plan without its correlated subplans (a row's topics, or the collections containing
 * it, which may sort their few rows): the part that reads and orders the page itself.
 */
export const outerPlan = (plan: string) => plan.split(/^\s*SubPlan \d+$/m)[0] ?? plan;
