import { type Kysely, type RawBuilder, sql } from 'kysely';
import { LINK_MESSAGES, type LikeState } from '../../shared/domain';
import type { Db } from '../db';
import type { Database } from '../db/schema';
import { decrement, increment } from '../db/counters';
import { now } from '../db/ids';
import { queryTemplate } from '../db/query-templates';
import { notFound } from '../errors';
import { linkVisibleTo } from '../policies/links';
import type { Viewer } from '../policies/viewer';

// Each statement compiled once (server/db/query-templates.ts): on SQLite a toggle runs three or four
// of them; on PostgreSQL one (toggleInOneStatement).

type Q = Kysely<Database>;
type Args = Record<'link' | 'user' | 'at', string>;

/** The viewer's like of the link, removed if the link is visible to them. */
const removeLikeQuery = (db: Q, a: Omit<Args, 'at'>) =>
  db
    .deleteFrom('likes')
    .where('link_id', '=', a.link)
    .where('user_id', '=', a.user)
    .where((eb) => eb.exists(eb.selectFrom('links').select('links.id').where('links.id', '=', a.link).where(linkVisibleTo(a.user))))
    .returning('link_id');
const removeLike = queryTemplate<'link' | 'user', { link_id: string }>(removeLikeQuery);

/** A like of the link by the viewer, if the link is visible to them (and `also`) and not liked yet. */
const addLikeQuery = (db: Q, a: Args, also: RawBuilder<boolean> = sql<boolean>`true`) =>
  db
    .insertInto('likes')
    .columns(['link_id', 'user_id', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('links')
        .select(['links.id', sql<string>`${a.user}`.as('user_id'), sql<string>`${a.at}`.as('created_at')])
        .where('links.id', '=', a.link)
        .where(linkVisibleTo(a.user))
        .where(also),
    )
    .onConflict((oc) => oc.columns(['link_id', 'user_id']).doNothing())
    .returning('link_id');
const addLike = queryTemplate<'link' | 'user' | 'at', { link_id: string }>((db, a) => addLikeQuery(db, a));

const countDown = queryTemplate<'link', { likes_count: number }>((db, a) =>
  db.updateTable('links').set({ likes_count: decrement('likes_count') }).where('id', '=', a.link).returning('likes_count'),
);

const countUp = queryTemplate<'link', { likes_count: number }>((db, a) =>
  db.updateTable('links').set({ likes_count: increment('likes_count') }).where('id', '=', a.link).returning('likes_count'),
);

const visibleCountQuery = (db: Q, a: Omit<Args, 'at'>) =>
  db.selectFrom('links').select('likes_count').where('id', '=', a.link).where(linkVisibleTo(a.user));
const visibleCount = queryTemplate<'link' | 'user', { likes_count: number }>(visibleCountQuery);

/**
 * The whole toggle as one statement (PostgreSQL's data-modifying WITH): the like removed, or else
 * added, the count moved by what changed, and the count as the answer; likes_count is null when
 * the link is hidden from the viewer. Each statement is a round trip with its begin and commit
 * (docs/decisions.md), and this one needs no transaction: 3-4 round trips become one. Should a
 * concurrent request have liked the link first, nothing changes and the count is read as this
 * statement's snapshot saw it, which may be one short of that like.
 */
const toggleInOneStatement = queryTemplate<'link' | 'user' | 'at', { liked: boolean; likes_count: number | null }>((db, a) =>
  db
    .with('removed', () => removeLikeQuery(db, a))
    .with('added', () => addLikeQuery(db, a, sql<boolean>`not exists (select 1 from removed)`))
    .with('counted', () =>
      db
        .updateTable('links')
        .set({
          likes_count: sql<number>`case when exists (select 1 from added) then ${increment('likes_count')} else ${decrement('likes_count')} end`,
        })
        .where('id', '=', a.link)
        .where(sql<boolean>`(exists (select 1 from added) or exists (select 1 from removed))`)
        .returning('likes_count'),
    )
    .selectNoFrom([
      sql<boolean>`not exists (select 1 from removed)`.as('liked'),
      sql<number | null>`coalesce((select likes_count from counted), (${visibleCountQuery(db, a)}))`.as('likes_count'),
    ]),
);

/**
 * SPEC §4 like toggle. The count moves only by the rows this transaction actually deleted or
 * inserted, so concurrent toggles (PostgreSQL row locks, SQLite's single writer) keep
 * likes_count equal to the number of like rows. A link hidden from the viewer (canSeeLink) is
 * neither liked nor unliked: every statement is limited to visible links, and when none changed
 * a row, the count is read only for a visible link (else 404).
 */
export async function toggleLike(db: Db, viewer: Viewer, linkId: string): Promise<LikeState> {
  const ids = { link: linkId, user: viewer.id };
  if (db.dialect === 'postgres') {
    const [toggled] = await toggleInOneStatement(db.kysely, { ...ids, at: now() });
    if (!toggled || toggled.likes_count === null) throw notFound(LINK_MESSAGES.linkNotFound);
    return { liked: toggled.liked, likes: toggled.likes_count };
  }
  return db.kysely.transaction().execute(async (trx) => {
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
