import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema';

/**
 * A link's topic ids as its card shows them, stored on its row (links.topic_ids, migration 0030) so
 * that a page of cards reads no subquery per link into link_topics. Every write of link_topics
 * writes it in the same transaction: a link shared, edited, reposted or imported, a topic deleted.
 * Comma-separated (topic ids are [a-z0-9-]), in no particular order; null for none.
 */

/** topic_ids for a new link with these topics. */
export const topicIdsColumn = (ids: readonly string[]): string | null => (ids.length > 0 ? ids.join(',') : null);

/** A card's topic ids from topic_ids, sorted. */
export const topicIdsOf = (column: string | null): string[] => (column ? column.split(',').sort() : []);

/** Rewrites topic_ids of these links from link_topics (after a write that chose the topics in SQL). */
export async function storeLinkTopics(trx: Kysely<Database>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable('links')
    .set({ topic_ids: sql<string | null>`(select string_agg(lt.topic_id, ',') from link_topics lt where lt.link_id = links.id)` })
    .where('id', 'in', ids)
    .execute();
}
