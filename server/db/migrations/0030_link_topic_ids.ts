import { type Kysely, sql } from 'kysely';

/**
 * A link's topic ids stored on its row, comma-separated (null for none), as its card shows them
 * (server/services/link-topics.ts): a feed page of 11 links reads no subquery per link into
 * link_topics. Written with every change of a link's topics.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('links').addColumn('topic_ids', 'text').execute();
  await sql`update links set topic_ids = (select string_agg(lt.topic_id, ',') from link_topics lt where lt.link_id = links.id)
    where id in (select link_id from link_topics)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('links').dropColumn('topic_ids').execute();
}
