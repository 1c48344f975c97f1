import { sql } from 'kysely';
import { LINK_MESSAGES, type LikeState } from '../../shared/domain';
import type { Db } from '../db';
import { decrement, increment } from '../db/counters';
import { now } from '../db/ids';
import { queryTemplate } from '../db/query-templates';
import { notFound } from '../errors';
import { linkVisibleTo } from '../policies/links';
import type { Viewer } from '../policies/viewer';

// Each statement compiled once (server/db/query-templates.ts): a toggle runs three or four of them.

/** The viewer's like of the link, removed if the link is visible to them. */
const removeLike = queryTemplate<'link' | 'user', { link_id: string }>((db, a) =>
  db
    .deleteFrom('likes')
    .where('link_id', '=', a.link)
    .where('user_id', '=', a.user)
    .where((eb) => eb.exists(eb.selectFrom('links').select('links.id').where('links.id', '=', a.link).where(linkVisibleTo(a.user))))
    .returning('link_id'),
);

/** A like of the link by the viewer, if the link is visible to them and not liked yet. */
const addLike = queryTemplate<'link' | 'user' | 'at', { link_id: string }>((db, a) =>
  db
    .insertInto('likes')
    .columns(['link_id', 'user_id', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('links')
        .select(['links.id', sql<string>`${a.user}`.as('user_id'), sql<string>`${a.at}`.as('created_at')])
        .where('links.id', '=', a.link)
        .where(linkVisibleTo(a.user)),
    )
    .onConflict((oc) => oc.columns(['link_id', 'user_id']).doNothing())
    .returning('link_id'),
);

const countDown = queryTemplate<'link', { likes_count: number }>((db, a) =>
  db.updateTable('links').set({ likes_count: decrement('likes_count') }).where('id', '=', a.link).returning('likes_count'),
);

const countUp = queryTemplate<'link', { likes_count: number }>((db, a) =>
  db.updateTable('links').set({ likes_count: increment('likes_count') }).where('id', '=', a.link).returning('likes_count'),
);

const visibleCount = queryTemplate<'link' | 'user', { likes_count: number }>((db, a) =>
  db.selectFrom('links').select('likes_count').where('id', '=', a.link).where(linkVisibleTo(a.user)),
);

/**
 * SPEC §4 like toggle. The count moves only by the rows this transaction actually deleted or
 * inserted, so concurrent toggles (PostgreSQL row locks, SQLite's single writer) keep
 * likes_count equal to the number of like rows. A link hidden from the viewer (canSeeLink) is
 * neither liked nor unliked: every statement is limited to visible links, and when none changed
 * a row, the count is read only for a visible link (else 404).
 */
export async function toggleLike(db: Db, viewer: Viewer, linkId: string): Promise<LikeState> {
  return db.kysely.transaction().execute(async (trx) => {
    const ids = { link: linkId, user: viewer.id };
    if ((await removeLike(trx, ids)).length > 0) {
      const [link] = await countDown(trx, ids);
      return { liked: false, likes: link?.likes_count ?? 0 };
    }
    // Not liked (or liked at the same moment by a concurrent request: then nothing is inserted).
    const [counted] = (await addLike(trx, { ...ids, at: now() })).length > 0 ? await countUp(trx, ids) : await visibleCount(trx, ids);
    if (!counted) throw notFound(LINK_MESSAGES.linkNotFound);
    return { liked: true, likes: counted.likes_count };
  });
}
