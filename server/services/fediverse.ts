import type { Kysely } from 'kysely';
import { type FediverseFollowerGroup, SUPERCURATION_MESSAGES } from '../../shared/domain';
import { requireFediverseFollowers } from '../access/supercurations';
import type { Db } from '../db';
import { decrement, increment } from '../db/counters';
import { newId, now } from '../db/ids';
import type { Database } from '../db/schema';
import { notFound } from '../errors';
import type { Viewer } from '../policies/viewer';
import { perCollection } from '../presenters/per-collection';

/**
 * A public collection's remote (fediverse) followers, and what they are to be sent, without the
 * federation library (server/federation/ loads it, only when FEDERATION is on).
 *
 * What they are to be sent is queued in the caller's
 * transaction so that it commits with the change: one row per remote inbox, a server's shared inbox
 * standing for all its followers there. server/federation/deliveries.ts builds, signs and sends
 * them. A collection without remote followers costs one indexed read. Only public collections have
 * followers: turning private forgets them (forgetRemoteFollowers).
 * - 'create': a resource added (a Note);
 * - 'update': its link edited (the Note as it is now);
 * - 'delete': a resource removed, or its link deleted (the Note's Tombstone);
 * - 'delete-actor': the collection turned private (no longer an actor);
 * - 'reject': the owner removed a follower (to that follower's own inbox).
 */
export type FederatedActivity = Database['federation_deliveries']['activity'];

type Q = Kysely<Database>;

/** Rows per INSERT (PostgreSQL allows 65,535 parameters a statement). */
const INSERT_CHUNK = 500;

type Delivery = Database['federation_deliveries'];

/**
 * Of collections read with their fediverse_followers_count (a write that touches their row anyway
 * can return it), those with remote followers: the others have nothing to send, and skip the read.
 */
export const followedRemotely = (rows: readonly { id: string; fediverse_followers_count: number }[]) =>
  rows.filter((r) => Number(r.fediverse_followers_count) > 0).map((r) => r.id);

/** A new delivery, due now. */
const deliveryRow = (at: string, d: Pick<Delivery, 'supercuration_id' | 'link_id' | 'activity' | 'inbox_uri' | 'follow_uri' | 'follower_uri'>) => ({
  id: newId(),
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

export async function queueDeliveries(trx: Q, activity: FederatedActivity, supercurationIds: readonly string[], linkId: string | null): Promise<void> {
  if (supercurationIds.length === 0) return;
  const inboxes = await trx
    .selectFrom('federation_followers')
    .select(['supercuration_id', (eb) => eb.fn.coalesce('shared_inbox_uri', 'inbox_uri').as('inbox')])
    .where('supercuration_id', 'in', supercurationIds)
    .distinct()
    .execute();
  if (inboxes.length === 0) return;
  const at = now();
  const rows = inboxes.map((r) =>
    deliveryRow(at, { supercuration_id: r.supercuration_id, link_id: linkId, activity, inbox_uri: r.inbox, follow_uri: null, follower_uri: null }),
  );
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await trx.insertInto('federation_deliveries').values(rows.slice(i, i + INSERT_CHUNK)).execute();
}

/** A collection turned private: its remote followers are told it is gone, then forgotten. */
export async function forgetRemoteFollowers(trx: Q, supercurationId: string): Promise<void> {
  await queueDeliveries(trx, 'delete-actor', [supercurationId], null);
  await trx.deleteFrom('federation_followers').where('supercuration_id', '=', supercurationId).execute();
  await trx.updateTable('supercurations').set({ fediverse_followers_count: 0 }).where('id', '=', supercurationId).execute();
}

export interface RemoteFollower {
  actorUri: string;
  inboxUri: string;
  sharedInboxUri: string | null;
  followUri: string;
}

/** Stores a remote follower of a collection (a Follow sent again refreshes its inboxes), counted once. */
export async function addRemoteFollower(db: Q, supercurationId: string, f: RemoteFollower): Promise<void> {
  const inboxes = { inbox_uri: f.inboxUri, shared_inbox_uri: f.sharedInboxUri, follow_uri: f.followUri };
  await db.transaction().execute(async (trx) => {
    const added = await trx
      .insertInto('federation_followers')
      .values({ supercuration_id: supercurationId, actor_uri: f.actorUri, host: new URL(f.actorUri).host, created_at: now(), ...inboxes })
      .onConflict((oc) => oc.columns(['supercuration_id', 'actor_uri']).doNothing())
      .returning('actor_uri')
      .execute();
    if (added.length === 0) {
      await followerRow(trx, supercurationId, f.actorUri).set(inboxes).execute();
      return;
    }
    await trx.updateTable('supercurations').set({ fediverse_followers_count: increment('fediverse_followers_count') }).where('id', '=', supercurationId).execute();
  });
}

const followerRow = (trx: Q, supercurationId: string, actorUri: string) =>
  trx.updateTable('federation_followers').where('supercuration_id', '=', supercurationId).where('actor_uri', '=', actorUri);

/**
 * Forgets a remote follower (its Undo, or its removal by the owner); answers the row it was, or
 * null when there was none.
 */
export async function removeRemoteFollower(trx: Q, supercurationId: string, actorUri: string) {
  const removed = await trx
    .deleteFrom('federation_followers')
    .where('supercuration_id', '=', supercurationId)
    .where('actor_uri', '=', actorUri)
    .returning(['inbox_uri', 'follow_uri'])
    .executeTakeFirst();
  if (!removed) return null;
  await trx.updateTable('supercurations').set({ fediverse_followers_count: decrement('fediverse_followers_count') }).where('id', '=', supercurationId).execute();
  return removed;
}

/** The owner removes a remote follower: it is forgotten, and its server is sent a Reject of its Follow. */
async function rejectRemoteFollower(trx: Q, supercurationId: string, actorUri: string): Promise<boolean> {
  const removed = await removeRemoteFollower(trx, supercurationId, actorUri);
  if (!removed) return false;
  await trx
    .insertInto('federation_deliveries')
    .values(
      deliveryRow(now(), {
        supercuration_id: supercurationId,
        link_id: null,
        activity: 'reject',
        inbox_uri: removed.inbox_uri,
        follow_uri: removed.follow_uri,
        follower_uri: actorUri,
      }),
    )
    .execute();
  return true;
}

/** The owner removes a remote follower of their collection (404 when it is none). */
export async function removeFediverseFollower(db: Db, viewer: Viewer, supercurationId: string, actorUri: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const collection = await requireFediverseFollowers(trx, viewer, supercurationId);
    if (!(await rejectRemoteFollower(trx, collection.id, actorUri))) throw notFound(SUPERCURATION_MESSAGES.fediverseFollowerNotFound);
  });
}

/** Dashboard: the remote followers of the owner's collections, newest first, per collection. */
export async function ownerFediverseFollowers(db: Db, ownerId: string): Promise<FediverseFollowerGroup[]> {
  const rows = await db.kysely
    .selectFrom('federation_followers as f')
    .innerJoin('supercurations as s', 's.id', 'f.supercuration_id')
    .select(['s.id as supercuration_id', 's.title', 'f.actor_uri', 'f.host', 'f.created_at'])
    .where('s.user_id', '=', ownerId)
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id')
    .orderBy('f.created_at', 'desc')
    .limit(10_000)
    .execute();
  return perCollection(rows).map(({ supercurationId, title, rows: followers }) => ({
    supercurationId,
    title,
    followers: followers.map((r) => ({ actorUri: r.actor_uri, host: r.host, followedAt: r.created_at })),
  }));
}
