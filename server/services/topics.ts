import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  DEFAULT_TOPIC_NAMES,
  LINK_MESSAGES,
  TOPIC_PALETTE,
  type Topic,
  type TopicInput,
  topicIdOf,
} from '../../shared/domain';
import type { Db } from '../db';
import { now } from '../db/ids';
import type { Database } from '../db/schema';
import { badRequest, conflict, notFound } from '../errors';
import { linksWithTopic, reindexLinks } from '../db/link-search';
import { collectionsWithTopic, storeCollectionTopics } from './collection-topics';
import { storeLinkTopics } from './link-topics';

type Row = Database['topics'];

const toTopic = (r: Row): Topic => ({ id: r.id, name: r.name, color: r.color, createdAt: r.created_at });

/**
 * SPEC §3: a topic's id is its lowercase hyphenated name. A name with no latin letter or digit
 * (e.g. '日本') would give '', so it gets a stable id derived from the name instead.
 */
export function topicIdFor(name: string): string {
  return topicIdOf(name) || `topic-${createHash('sha256').update(name.trim().toLowerCase()).digest('hex').slice(0, 16)}`;
}

/**
 * Gives a new account the 20 default topics of SPEC §3, colours cycling through the palette.
 * Their times are a millisecond apart so they list in the spec's order. Idempotent.
 */
export async function seedDefaultTopics(db: Kysely<Database>, userId: string): Promise<void> {
  const start = Date.now();
  await db
    .insertInto('topics')
    .values(
      DEFAULT_TOPIC_NAMES.map((name, i) => ({
        user_id: userId,
        id: topicIdFor(name),
        name,
        color: TOPIC_PALETTE[i % TOPIC_PALETTE.length] as string,
        created_at: new Date(start + i).toISOString(),
      })),
    )
    .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
    .execute();
}

export async function listTopics(db: Db, userId: string): Promise<Topic[]> {
  const rows = await db.kysely
    .selectFrom('topics')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toTopic);
}

const topicExists = () => conflict(LINK_MESSAGES.topicExists);

export async function createTopic(db: Db, userId: string, input: Required<TopicInput>): Promise<Topic> {
  const row: Row = {
    user_id: userId,
    id: topicIdFor(input.name),
    name: input.name,
    color: input.color,
    created_at: now(),
  };
  const result = await db.kysely
    .insertInto('topics')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) throw topicExists();
  return toTopic(row);
}

/** Rename and/or recolour. The id stays, so links keep their topic; a name another topic has is refused. */
export async function updateTopic(db: Db, userId: string, id: string, changes: Partial<TopicInput>): Promise<Topic> {
  return db.kysely.transaction().execute(async (trx) => {
    if (changes.name !== undefined) {
      const clash = await trx
        .selectFrom('topics')
        .select('id')
        .where('user_id', '=', userId)
        .where('id', '=', topicIdFor(changes.name))
        .where('id', '!=', id)
        .executeTakeFirst();
      if (clash) throw topicExists();
    }
    const set = { ...(changes.name !== undefined && { name: changes.name }), ...(changes.color && { color: changes.color }) };
    const row = Object.keys(set).length
      ? await trx
          .updateTable('topics')
          .set(set)
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst()
      : await trx.selectFrom('topics').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(LINK_MESSAGES.topicNotFound);
    if (Object.keys(set).length) await storeCollectionTopics(trx, await collectionsWithTopic(trx, userId, id));
    if (changes.name !== undefined) await reindexLinks(trx, await linksWithTopic(trx, userId, id));
    return toTopic(row);
  });
}

/** Deleting a topic takes it off every link and collection (foreign keys cascade). */
export async function deleteTopic(db: Db, userId: string, id: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const collections = await collectionsWithTopic(trx, userId, id);
    const links = await linksWithTopic(trx, userId, id);
    const result = await trx.deleteFrom('topics').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(LINK_MESSAGES.topicNotFound);
    await storeCollectionTopics(trx, collections);
    await storeLinkTopics(trx, links);
    await reindexLinks(trx, links);
  });
}

/** Throws 400 'Topic not found' unless every id is one of the user's topics; answers their names. */
export async function assertOwnTopics(db: Kysely<Database>, userId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await db
    .selectFrom('topics')
    .select('name')
    .where('user_id', '=', userId)
    .where('id', 'in', ids)
    .execute();
  if (found.length !== new Set(ids).size) throw badRequest(LINK_MESSAGES.topicNotFound);
  return found.map((t) => t.name);
}
