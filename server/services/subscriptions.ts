import { type Kysely, sql } from 'kysely';
import {
  LINK_MESSAGES,
  MSG,
  SUBSCRIBERS_PAGE_SIZE,
  SUBSCRIPTION_MESSAGES,
  type Subscriber,
  type SubscriberPage,
  type SubscriptionState,
  subscriberNameOf,
} from '../../shared/domain';
import type { Db } from '../db';
import { decrement, increment } from '../db/counters';
import { newId, now } from '../db/ids';
import type { Database } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { canSubscribeTo } from '../policies/subscriptions';
import type { Viewer } from '../policies/viewer';
import { ensureProfile } from './profile-row';
import { ensureReaderDigest } from './reader-digests';

type Q = Kysely<Database>;
type Counter = 'subscribers_count' | 'subscriptions_count';

/**
 * Moves the publisher's subscribers_count and the subscriber's subscriptions_count by one, inside
 * the caller's transaction. Rows are updated in user-id order, so that A subscribing to B while B
 * subscribes to A cannot deadlock on PostgreSQL (both lock the two profile rows in the same order).
 */
async function moveCounters(trx: Q, subscriberId: string, publisherId: string, delta: 1 | -1): Promise<void> {
  const updates: { userId: string; column: Counter }[] = [
    { userId: publisherId, column: 'subscribers_count' },
    { userId: subscriberId, column: 'subscriptions_count' },
  ];
  updates.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  for (const { userId, column } of updates) {
    const update = () =>
      trx
        .updateTable('profiles')
        .set({ [column]: delta > 0 ? increment(column) : decrement(column) })
        .where('user_id', '=', userId)
        .executeTakeFirst();
    const result = await update();
    if (result.numUpdatedRows === 0n) {
      await ensureProfile(trx, userId);
      await update();
    }
  }
}

async function assertUserExists(trx: Q, userId: string): Promise<void> {
  const user = await trx.selectFrom('user').select('id').where('id', '=', userId).executeTakeFirst();
  if (!user) throw notFound(MSG.userNotFound);
}

async function stateAfter(trx: Q, viewerId: string, publisherId: string, isSubscribed: boolean): Promise<SubscriptionState> {
  const rows = await trx
    .selectFrom('profiles')
    .select(['user_id', 'subscribers_count', 'subscriptions_count'])
    .where('user_id', 'in', [viewerId, publisherId])
    .execute();
  const publisher = rows.find((r) => r.user_id === publisherId);
  const viewer = rows.find((r) => r.user_id === viewerId);
  return {
    isSubscribed,
    subscribersCount: Number(publisher?.subscribers_count ?? 0),
    subscriptionsCount: Number(viewer?.subscriptions_count ?? 0),
  };
}

/**
 * SPEC §4 Subscribe: the subscription row and both counters in one transaction. Idempotent: the
 * row is inserted with `on conflict do nothing` and the counters move only when a row was actually
 * inserted, so a double click, a replayed request or two racing requests count once.
 */
export async function subscribe(db: Db, viewer: Viewer, publisherId: string): Promise<SubscriptionState> {
  if (!canSubscribeTo(viewer, publisherId)) throw badRequest(SUBSCRIPTION_MESSAGES.cannotSubscribeToSelf, 'SUBSCRIBE_SELF');
  return db.kysely.transaction().execute(async (trx) => {
    // Insert-select from "user": an unknown publisher inserts nothing (and gets a 404 below).
    const inserted = await trx
      .insertInto('user_subscriptions')
      .columns(['id', 'subscriber_id', 'publisher_id', 'created_at'])
      .expression((eb) =>
        eb
          .selectFrom('user')
          .select([
            sql<string>`${newId()}`.as('id'),
            sql<string>`${viewer.id}`.as('subscriber_id'),
            'user.id as publisher_id',
            sql<string>`${now()}`.as('created_at'),
          ])
          .where('user.id', '=', publisherId),
      )
      .onConflict((oc) => oc.columns(['subscriber_id', 'publisher_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
      await moveCounters(trx, viewer.id, publisherId, 1);
      await ensureReaderDigest(trx, viewer.id);
    } else {
      await assertUserExists(trx, publisherId);
    }
    return stateAfter(trx, viewer.id, publisherId, true);
  });
}

/** SPEC §4 Unsubscribe: deletes the row; the counters move down only when a row was deleted, never below 0. */
export async function unsubscribe(db: Db, viewer: Viewer, publisherId: string): Promise<SubscriptionState> {
  if (!canSubscribeTo(viewer, publisherId)) throw badRequest(SUBSCRIPTION_MESSAGES.cannotSubscribeToSelf, 'SUBSCRIBE_SELF');
  return db.kysely.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('user_subscriptions')
      .where('subscriber_id', '=', viewer.id)
      .where('publisher_id', '=', publisherId)
      .executeTakeFirst();
    if (deleted.numDeletedRows > 0n) {
      await moveCounters(trx, viewer.id, publisherId, -1);
    } else {
      await assertUserExists(trx, publisherId);
    }
    return stateAfter(trx, viewer.id, publisherId, false);
  });
}

/** Whether `subscriberId` subscribes to `publisherId` (the profile page's button). */
export async function isSubscribed(db: Db, subscriberId: string, publisherId: string): Promise<boolean> {
  const row = await db.kysely
    .selectFrom('user_subscriptions')
    .select('id')
    .where('subscriber_id', '=', subscriberId)
    .where('publisher_id', '=', publisherId)
    .executeTakeFirst();
  return row !== undefined;
}

// ---------------------------------------------------------------------------------------------
// The Subscriber Dashboard: keyset pages newest first on (publisher_id, created_at, id) (migration 0005).

const CURSOR_TAG = 'subscribers';

function encodeSubscriberCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([CURSOR_TAG, createdAt, id])).toString('base64url');
}

/** The keys of a cursor made by encodeSubscriberCursor; anything else is 400 'Invalid page cursor'. */
function decodeSubscriberCursor(cursor: string): [string, string] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (
    Array.isArray(parsed) &&
    parsed.length === 3 &&
    parsed[0] === CURSOR_TAG &&
    typeof parsed[1] === 'string' &&
    typeof parsed[2] === 'string'
  ) {
    return [parsed[1], parsed[2]];
  }
  throw badRequest(LINK_MESSAGES.invalidCursor);
}

interface SubscriberRow {
  id: string;
  created_at: string;
  user_id: string;
  name: string;
  email: string;
}

/** One keyset page of `publisherId`'s subscribers, newest first, plus one row to tell whether there is more. */
function subscriberRows(db: Q, publisherId: string, after: [string, string] | null, limit: number) {
  let query = db
    .selectFrom('user_subscriptions as us')
    .innerJoin('user as u', 'u.id', 'us.subscriber_id')
    .select(['us.id', 'us.created_at', 'u.id as user_id', 'u.name', 'u.email'])
    .where('us.publisher_id', '=', publisherId);
  if (after) {
    // Row-value comparison: one range bound on the index (decisions.md, keyset pages).
    query = query.where(sql<boolean>`(us.created_at, us.id) < (${after[0]}, ${after[1]})`);
  }
  return query.orderBy('us.created_at', 'desc').orderBy('us.id', 'desc').limit(limit + 1);
}

const toSubscriber = (r: SubscriberRow): Subscriber => ({
  id: r.user_id,
  name: subscriberNameOf(r.name, r.email),
  email: r.email,
  subscribedAt: r.created_at,
});

/**
 * A page of the publisher's own subscribers. There is deliberately no parameter naming another
 * publisher: the route passes the signed-in user's id (policies/subscriptions.ts canSeeSubscribers).
 */
export async function listSubscribers(
  db: Db,
  publisherId: string,
  cursor?: string,
  limit = SUBSCRIBERS_PAGE_SIZE,
): Promise<SubscriberPage> {
  const after = cursor ? decodeSubscriberCursor(cursor) : null;
  const [rows, profile] = await Promise.all([
    subscriberRows(db.kysely, publisherId, after, limit).execute(),
    db.kysely.selectFrom('profiles').select('subscribers_count').where('user_id', '=', publisherId).executeTakeFirst(),
  ]);
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toSubscriber),
    nextCursor: hasMore && last ? encodeSubscriberCursor(last.created_at, last.id) : null,
    hasMore,
    total: Number(profile?.subscribers_count ?? 0),
  };
}

/** Every subscriber of the publisher, newest first, read in pages of `batch` (the CSV export streams these). */
export async function* allSubscribers(db: Db, publisherId: string, batch = 1000): AsyncGenerator<Subscriber> {
  let after: [string, string] | null = null;
  for (;;) {
    const rows: SubscriberRow[] = await subscriberRows(db.kysely, publisherId, after, batch).execute();
    for (const row of rows.slice(0, batch)) yield toSubscriber(row);
    const last = rows[Math.min(rows.length, batch) - 1];
    if (rows.length <= batch || !last) return;
    after = [last.created_at, last.id];
  }
}
