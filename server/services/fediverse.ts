import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { type FediverseFollower, type FediverseFollowers, SUPERCURATION_MESSAGES } from '../../shared/domain';
import { requireFediverseFollowers } from '../access/supercurations';
import type { Db } from '../db';
import { decrement, increment } from '../db/counters';
import { newId, now } from '../db/ids';
import type { Database } from '../db/schema';
import { notFound } from '../errors';
import type { Viewer } from '../policies/viewer';
import { perCollection } from '../presenters/per-collection';

/**
 * Remote (fediverse) followers, of a public collection (a Group actor) or of a curator (a Person
 * actor), and what they are to be sent, without the federation library (server/federation/ loads
 * it, only when FEDERATION is on).
 *
 * What they are to be sent is queued in the caller's transaction so that it commits with the
 * change: one row per remote inbox, a server's shared inbox standing for all its followers there.
 * server/federation/deliveries.ts builds, signs and sends them. Only public collections have
 * followers: turning private forgets them (forgetRemoteFollowers). A curator's followers stay
 * (they hear again when a collection of theirs is public again).
 * - 'create': a resource added (a Note), to the collection's followers;
 * - 'announce': the same resource, announced by its owner's Person to the owner's followers;
 * - 'update': its link edited (the Note as it is now), to both;
 * - 'delete': a resource removed, or its link deleted (the Note's Tombstone), to both;
 * - 'delete-actor': the collection turned private (no longer an actor);
 * - 'reject': the owner removed a follower (to that follower's own inbox).
 */
export type FederatedActivity = Database['federation_deliveries']['activity'];

type Q = Kysely<Database>;

/** Rows per INSERT (PostgreSQL allows 65,535 parameters a statement). */
const INSERT_CHUNK = 500;

type Delivery = Database['federation_deliveries'];

/** A collection, as a write on it returns it, with what says whether anyone remote hears of it. */
export interface AudienceRow {
  id: string;
  user_id: string;
  is_public: number;
  fediverse_followers_count: number;
  /** The owner's remote followers (profiles.fediverse_followers_count). */
  owner_followers: number | null;
}

/** AudienceRow's owner_followers, of the collection row named `table` in the query. */
export const ownerFollowers = (table: 'supercurations' | 's') =>
  sql<number | null>`(select profiles.fediverse_followers_count from profiles where profiles.user_id = ${sql.ref(`${table}.user_id`)})`.as('owner_followers');

/** The columns of AudienceRow, for a `returning` or a `select` on supercurations. */
export const AUDIENCE_COLUMNS = ['supercurations.id', 'supercurations.user_id', 'supercurations.is_public', 'supercurations.fediverse_followers_count', ownerFollowers('supercurations')] as const;

/** The audience rows of these collections (a write that did not return them). */
export const audienceOf = (trx: Q, ids: readonly string[]): Promise<AudienceRow[]> =>
  ids.length === 0 ? Promise.resolve([]) : trx.selectFrom('supercurations').select(AUDIENCE_COLUMNS).where('id', 'in', [...ids]).execute();

type Heard = Pick<AudienceRow, 'is_public' | 'fediverse_followers_count' | 'owner_followers'>;

const ownerHears = (r: Heard) => r.is_public === 1 && Number(r.owner_followers ?? 0) > 0;

/** Whether someone remote hears of what happens in this collection. */
export const heardRemotely = (r: Heard) => Number(r.fediverse_followers_count) > 0 || ownerHears(r);

/**
 * Of collections read with their counters (a write that touches their rows anyway returns them),
 * those someone remote hears of: the others have nothing to send, and skip the reads.
 */
export const followedRemotely = (rows: readonly AudienceRow[]) => rows.filter(heardRemotely);

/** A new delivery, due now. */
const deliveryRow = (at: string, d: Pick<Delivery, 'supercuration_id' | 'link_id' | 'activity' | 'inbox_uri'> & Partial<Pick<Delivery, 'user_id' | 'follow_uri' | 'follower_uri'>>) => ({
  id: newId(),
  user_id: null,
  follow_uri: null,
  follower_uri: null,
  ...d,
  status: 'queued' as const,
  attempts: 0,
  next_attempt_at: at,
  created_at: at,
  claimed_until: null,
  claim_token: null,
  last_error: null,
  sent_at: null,
});

const inboxOf = (eb: ExpressionBuilder<Database, 'federation_followers' | 'federation_user_followers'>) =>
  eb.fn.coalesce('shared_inbox_uri', 'inbox_uri').as('inbox');

/**
 * Queues an activity about a resource (or, 'delete-actor', the collection) of these collections:
 * to each collection's followers; and, for a public collection, to its owner's followers too (a
 * Create becomes the owner's Announce; the rest is the collection's own, sent once per inbox).
 */
export async function queueDeliveries(trx: Q, activity: FederatedActivity, audience: readonly AudienceRow[], linkId: string | null): Promise<void> {
  const groups = audience.filter((r) => Number(r.fediverse_followers_count) > 0).map((r) => r.id);
  const owned = activity === 'delete-actor' ? [] : audience.filter(ownerHears);
  const [groupInboxes, personInboxes] = await Promise.all([
    groups.length === 0
      ? []
      : trx.selectFrom('federation_followers').select(['supercuration_id', inboxOf]).where('supercuration_id', 'in', groups).distinct().execute(),
    owned.length === 0
      ? []
      : trx.selectFrom('federation_user_followers').select(['user_id', inboxOf]).where('user_id', 'in', [...new Set(owned.map((r) => r.user_id))]).distinct().execute(),
  ]);
  const at = now();
  const rows = groupInboxes.map((r) => deliveryRow(at, { supercuration_id: r.supercuration_id, link_id: linkId, activity, inbox_uri: r.inbox }));
  const sent = new Set(groupInboxes.map((r) => `${r.supercuration_id} ${r.inbox}`));
  for (const c of owned) {
    for (const { inbox } of personInboxes.filter((p) => p.user_id === c.user_id)) {
      if (activity === 'create') rows.push(deliveryRow(at, { supercuration_id: c.id, user_id: c.user_id, link_id: linkId, activity: 'announce', inbox_uri: inbox }));
      else if (!sent.has(`${c.id} ${inbox}`)) rows.push(deliveryRow(at, { supercuration_id: c.id, link_id: linkId, activity, inbox_uri: inbox }));
    }
  }
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await trx.insertInto('federation_deliveries').values(rows.slice(i, i + INSERT_CHUNK)).execute();
}

/** A collection turned private: its remote followers are told it is gone, then forgotten. */
export async function forgetRemoteFollowers(trx: Q, supercurationId: string): Promise<void> {
  await queueDeliveries(trx, 'delete-actor', await audienceOf(trx, [supercurationId]), null);
  await trx.deleteFrom('federation_followers').where('supercuration_id', '=', supercurationId).execute();
  await trx.updateTable('supercurations').set({ fediverse_followers_count: 0 }).where('id', '=', supercurationId).execute();
}

export interface RemoteFollower {
  actorUri: string;
  inboxUri: string;
  sharedInboxUri: string | null;
  followUri: string;
}

/** Who is followed: a collection (its Group actor) or a curator (their Person actor). */
export type Followed = { collection: string } | { user: string };

/**
 * The followers table and counter of each kind of actor. Both tables have the same columns but
 * their key: the queries are written once, for the collection's, and given the user's names.
 */
const tablesOf = (followed: Followed) =>
  'collection' in followed
    ? ({ followers: 'federation_followers', key: 'supercuration_id', counted: 'supercurations', countedKey: 'id', id: followed.collection } as const)
    : ({ followers: 'federation_user_followers', key: 'user_id', counted: 'profiles', countedKey: 'user_id', id: followed.user } as unknown as {
        followers: 'federation_followers';
        key: 'supercuration_id';
        counted: 'supercurations';
        countedKey: 'id';
        id: string;
      });

/** Stores a remote follower (a Follow sent again refreshes its inboxes), counted once. */
export async function addRemoteFollower(db: Q, followed: Followed, f: RemoteFollower): Promise<void> {
  const t = tablesOf(followed);
  const inboxes = { inbox_uri: f.inboxUri, shared_inbox_uri: f.sharedInboxUri, follow_uri: f.followUri };
  await db.transaction().execute(async (trx) => {
    const added = await trx
      .insertInto(t.followers)
      .values({ [t.key]: t.id, actor_uri: f.actorUri, host: new URL(f.actorUri).host, created_at: now(), ...inboxes } as Database['federation_followers'])
      .onConflict((oc) => oc.columns([t.key, 'actor_uri']).doNothing())
      .returning('actor_uri')
      .execute();
    if (added.length === 0) {
      await trx.updateTable(t.followers).set(inboxes).where(t.key, '=', t.id).where('actor_uri', '=', f.actorUri).execute();
      return;
    }
    await trx.updateTable(t.counted).set({ fediverse_followers_count: increment('fediverse_followers_count') }).where(t.countedKey, '=', t.id).execute();
  });
}

/**
 * Forgets a remote follower (its Undo, or its removal by the owner); answers the row it was, or
 * null when there was none.
 */
export async function removeRemoteFollower(trx: Q, followed: Followed, actorUri: string) {
  const t = tablesOf(followed);
  const removed = await trx.deleteFrom(t.followers).where(t.key, '=', t.id).where('actor_uri', '=', actorUri).returning(['inbox_uri', 'follow_uri']).executeTakeFirst();
  if (!removed) return null;
  await trx.updateTable(t.counted).set({ fediverse_followers_count: decrement('fediverse_followers_count') }).where(t.countedKey, '=', t.id).execute();
  return removed;
}

/** A remote follower removed by the owner: forgotten, and its server is sent a Reject of its Follow. */
async function rejectRemoteFollower(trx: Q, followed: Followed, actorUri: string): Promise<void> {
  const removed = await removeRemoteFollower(trx, followed, actorUri);
  if (!removed) throw notFound(SUPERCURATION_MESSAGES.fediverseFollowerNotFound);
  const sender = 'collection' in followed ? { supercuration_id: followed.collection } : { supercuration_id: null, user_id: followed.user };
  await trx
    .insertInto('federation_deliveries')
    .values(deliveryRow(now(), { ...sender, link_id: null, activity: 'reject', inbox_uri: removed.inbox_uri, follow_uri: removed.follow_uri, follower_uri: actorUri }))
    .execute();
}

/** The owner removes a remote follower of their collection (404 when it is none). */
export async function removeFediverseFollower(db: Db, viewer: Viewer, supercurationId: string, actorUri: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const collection = await requireFediverseFollowers(trx, viewer, supercurationId);
    await rejectRemoteFollower(trx, { collection: collection.id }, actorUri);
  });
}

/** A curator removes one of their own remote followers (404 when it is none). */
export async function removeMyFediverseFollower(db: Db, viewer: Viewer, actorUri: string): Promise<void> {
  await db.kysely.transaction().execute((trx) => rejectRemoteFollower(trx, { user: viewer.id }, actorUri));
}

const follower = (r: { actor_uri: string; host: string; created_at: string }): FediverseFollower => ({ actorUri: r.actor_uri, host: r.host, followedAt: r.created_at });

/** Dashboard: the curator's own remote followers, then those of their collections per collection, newest first. */
export async function ownerFediverseFollowers(db: Db, ownerId: string): Promise<FediverseFollowers> {
  const [mine, rows] = await Promise.all([
    db.kysely
      .selectFrom('federation_user_followers')
      .select(['actor_uri', 'host', 'created_at'])
      .where('user_id', '=', ownerId)
      .orderBy('created_at', 'desc')
      .limit(10_000)
      .execute(),
    db.kysely
      .selectFrom('federation_followers as f')
      .innerJoin('supercurations as s', 's.id', 'f.supercuration_id')
      .select(['s.id as supercuration_id', 's.title', 'f.actor_uri', 'f.host', 'f.created_at'])
      .where('s.user_id', '=', ownerId)
      .orderBy('s.created_at', 'desc')
      .orderBy('s.id')
      .orderBy('f.created_at', 'desc')
      .limit(10_000)
      .execute(),
  ]);
  return {
    profile: mine.map(follower),
    collections: perCollection(rows).map(({ supercurationId, title, rows: followers }) => ({ supercurationId, title, followers: followers.map(follower) })),
  };
}
