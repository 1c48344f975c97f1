import { type Kysely, sql } from 'kysely';
import { jsonRows } from '../db/json-rows';
import { isPostgres } from '../db/query-templates';
import type { Database } from '../db/schema';

type Q = Kysely<Database>;

/** One element of topics_json. */
export interface StoredTopic {
  id: string;
  name: string;
  color: string;
  created_at: string;
}

/**
 * A collection's topics as its cards show them, stored on its row (supercurations.topics_json,
 * migration 0019) so that a list of 24 cards reads no subquery per card. Every write that changes
 * what it holds rewrites it in the same transaction: a collection's topics replaced, a topic renamed
 * or recoloured, a topic deleted.
 */

/** Rewrites topics_json of these collections from supercuration_topics and topics. */
export async function storeCollectionTopics(trx: Q, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable('supercurations as s')
    .set((eb) => {
      const rows = jsonRows(
        trx,
        eb
          .selectFrom('supercuration_topics as st')
          .innerJoin('topics as t', (join) => join.onRef('t.user_id', '=', 'st.user_id').onRef('t.id', '=', 'st.topic_id'))
          .select(['t.id', 't.name', 't.color', 't.created_at'])
          .whereRef('st.supercuration_id', '=', 's.id'),
      );
      // PostgreSQL's json_agg is json (null for no rows); the column is text.
      return { topics_json: isPostgres(trx) ? sql<string>`coalesce((${rows})::text, '[]')` : sql<string>`${rows}` };
    })
    .where('s.id', 'in', ids)
    .execute();
}

/** The collections holding one of the user's topics (to rewrite after the topic changes). */
export async function collectionsWithTopic(trx: Q, userId: string, topicId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('supercuration_topics')
    .select('supercuration_id')
    .where('user_id', '=', userId)
    .where('topic_id', '=', topicId)
    .execute();
  return rows.map((r) => r.supercuration_id);
}
