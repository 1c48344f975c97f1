import { sql } from 'kysely';
import { LINK_MESSAGES, type LikeState } from '../../shared/domain';
import type { Db } from '../db';
import { decrement, increment } from '../db/counters';
import { now } from '../db/ids';
import { notFound } from '../errors';
import { linkVisibleTo } from '../policies/links';
import type { Viewer } from '../policies/viewer';

/**
 * SPEC §4 like toggle. The count moves only by the rows this transaction actually deleted or
 * inserted, so concurrent toggles (PostgreSQL row locks, SQLite's single writer) keep
 * likes_count equal to the number of like rows. A link hidden from the viewer (canSeeLink) is
 * neither liked nor unliked: every statement is limited to visible links, and the last answers 404.
 */
export async function toggleLike(db: Db, viewer: Viewer, linkId: string): Promise<LikeState> {
  return db.kysely.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('likes')
      .where('link_id', '=', linkId)
      .where('user_id', '=', viewer.id)
      .where((eb) =>
        eb.exists(eb.selectFrom('links').select('links.id').where('links.id', '=', linkId).where(linkVisibleTo(viewer.id))),
      )
      .executeTakeFirst();
    let liked = false;
    if (removed.numDeletedRows > 0n) {
      await trx.updateTable('links').set({ likes_count: decrement('likes_count') }).where('id', '=', linkId).execute();
    } else {
      liked = true;
      const added = await trx
        .insertInto('likes')
        .columns(['link_id', 'user_id', 'created_at'])
        .expression((eb) =>
          eb
            .selectFrom('links')
            .select([
              'links.id',
              sql<string>`${viewer.id}`.as('user_id'),
              sql<string>`${now()}`.as('created_at'),
            ])
            .where('links.id', '=', linkId)
            .where(linkVisibleTo(viewer.id)),
        )
        .onConflict((oc) => oc.columns(['link_id', 'user_id']).doNothing())
        .executeTakeFirst();
      if (Number(added.numInsertedOrUpdatedRows ?? 0) > 0) {
        await trx.updateTable('links').set({ likes_count: increment('likes_count') }).where('id', '=', linkId).execute();
      }
    }
    const link = await trx
      .selectFrom('links')
      .select('likes_count')
      .where('id', '=', linkId)
      .where(linkVisibleTo(viewer.id))
      .executeTakeFirst();
    if (!link) throw notFound(LINK_MESSAGES.linkNotFound);
    return { liked, likes: link.likes_count };
  });
}
