import type { Kysely } from 'kysely';
import type { SupercurationFollowState } from '../../shared/domain';
import { requireFollowable, requireVisible } from '../access/supercurations';
import type { Db } from '../db';
import { decrement, increment } from '../db/counters';
import { now } from '../db/ids';
import type { Database } from '../db/schema';
import type { Viewer } from '../policies/viewer';
import { ensureReaderDigest } from './reader-digests';

type Q = Kysely<Database>;

async function stateAfter(trx: Q, id: string, isFollowing: boolean): Promise<SupercurationFollowState> {
  const row = await trx.selectFrom('supercurations').select('followers_count').where('id', '=', id).executeTakeFirstOrThrow();
  return { isFollowing, followersCount: Number(row.followers_count) };
}

/**
 * Follows a public collection: the row and followers_count in one transaction. Idempotent like a
 * user subscription: the count moves only when a row was inserted, so a double click or two racing
 * requests count once. A private collection is 404 to those who don't edit it; its editors get 400.
 */
export async function followSupercuration(db: Db, viewer: Viewer, id: string): Promise<SupercurationFollowState> {
  return db.kysely.transaction().execute(async (trx) => {
    await requireFollowable(trx, viewer, id);
    const inserted = await trx
      .insertInto('supercuration_followers')
      .values({ supercuration_id: id, user_id: viewer.id, created_at: now() })
      .onConflict((oc) => oc.columns(['supercuration_id', 'user_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
      await trx.updateTable('supercurations').set({ followers_count: increment('followers_count') }).where('id', '=', id).execute();
      await ensureReaderDigest(trx, viewer.id);
    }
    return stateAfter(trx, id, true);
  });
}

/**
 * Unfollows: deletes the viewer's row, never below 0. Allowed whatever the collection became (a
 * follower of a collection turned private may still leave it), but 404 for one that doesn't exist.
 */
export async function unfollowSupercuration(db: Db, viewer: Viewer, id: string): Promise<SupercurationFollowState> {
  return db.kysely.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('supercuration_followers')
      .where('supercuration_id', '=', id)
      .where('user_id', '=', viewer.id)
      .executeTakeFirst();
    if (deleted.numDeletedRows > 0n) {
      await trx.updateTable('supercurations').set({ followers_count: decrement('followers_count') }).where('id', '=', id).execute();
    } else {
      await requireVisible(trx, viewer, id);
    }
    return stateAfter(trx, id, false);
  });
}
