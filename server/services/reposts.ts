import { sql } from 'kysely';
import { LINK_MESSAGES, type Link } from '../../shared/domain';
import type { Db } from '../db';
import { increment } from '../db/counters';
import { newId, now } from '../db/ids';
import { reindexLinks } from '../db/link-search';
import { conflict, forbidden, notFound } from '../errors';
import { canRepostLink, linkVisibleTo } from '../policies/links';
import type { Viewer } from '../policies/viewer';
import { getLink, insertLinkWithJobs } from './links';
import { storeLinkTopics } from './link-topics';

/**
 * A repost is the viewer's own copy pointing at the original (a repost of a repost points at its
 * original). The original's reposts_count moves with it. Own links and second reposts are refused.
 */
export async function repostLink(db: Db, viewer: Viewer, id: string): Promise<Link> {
  const copyId = newId();
  await db.kysely.transaction().execute(async (trx) => {
    // Only a link the viewer may see, and whose original they may see, is reposted (else 404).
    const source = await trx
      .selectFrom('links')
      .select(['id', 'original_post_id'])
      .where('id', '=', id)
      .where(linkVisibleTo(viewer.id))
      .executeTakeFirst();
    if (!source) throw notFound(LINK_MESSAGES.linkNotFound);
    const original = await trx
      .selectFrom('links')
      .selectAll()
      .where('id', '=', source.original_post_id ?? source.id)
      .where(linkVisibleTo(viewer.id))
      .executeTakeFirst();
    if (!original) throw notFound(LINK_MESSAGES.linkNotFound);
    if (!canRepostLink(viewer, { userId: original.user_id })) throw forbidden(LINK_MESSAGES.cannotRepostOwn);
    const at = now();
    // The copy has the original's facts: it needs its check and readable copy only.
    const inserted = await insertLinkWithJobs(trx, {
      ...original,
      id: copyId,
      user_id: viewer.id,
      original_post_id: original.id,
      in_main_feed: 1,
      likes_count: 0,
      reposts_count: 0,
      created_at: at,
      updated_at: at,
      topic_ids: null,
    }, false);
    if (!inserted) throw conflict(LINK_MESSAGES.alreadyReposted);
    // The copy keeps the original's topics that the reposter has too (topics are per user).
    await trx
      .insertInto('link_topics')
      .columns(['link_id', 'user_id', 'topic_id'])
      .expression((eb) =>
        eb
          .selectFrom('link_topics as lt')
          .innerJoin('topics as t', (join) => join.onRef('t.id', '=', 'lt.topic_id').on('t.user_id', '=', viewer.id))
          .select([sql<string>`${copyId}`.as('link_id'), 't.user_id', 't.id'])
          .where('lt.link_id', '=', original.id),
      )
      .execute();
    await storeLinkTopics(trx, [copyId]);
    await reindexLinks(trx, [copyId]);
    await trx.updateTable('links').set({ reposts_count: increment('reposts_count') }).where('id', '=', original.id).execute();
  });
  return (await getLink(db, copyId, viewer)) as Link;
}
