import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * A collection's topics (id, name, colour, created_at) stored on its row as a JSON array, as lists
 * of collection cards show them (server/services/collection-topics.ts): the directory and the
 * collection lists read 24 rows without a per-row subquery into supercuration_topics and topics.
 * Rewritten with every change of a collection's topics, and of a topic's name or colour.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('supercurations')
    .addColumn('topics_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const from = sql`from supercuration_topics st inner join topics t on t.user_id = st.user_id and t.id = st.topic_id
    where st.supercuration_id = supercurations.id`;
  await (postgres
    ? sql`update supercurations set topics_json = coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color, 'created_at', t.created_at))::text ${from}), '[]')`
    : sql`update supercurations set topics_json = (select json_group_array(json_object('id', t.id, 'name', t.name, 'color', t.color, 'created_at', t.created_at)) ${from})`
  ).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('supercurations').dropColumn('topics_json').execute();
}
