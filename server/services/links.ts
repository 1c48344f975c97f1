import { randomBytes } from 'node:crypto';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import {
  type CreateLink,
  FEED_PAGE_SIZE,
  type FormatId,
  LINK_MESSAGES,
  type LikeState,
  type Link,
  type Page,
  UNKNOWN_USER_NAME,
  type UpdateLink,
  type linkListQuerySchema,
} from '../../shared/domain';
import type { Db } from '../db';
import type { Database } from '../db/schema';
import { HttpError, badRequest, forbidden, notFound } from '../http/errors';
import { canDeleteLink, canEditLink, canRepostLink } from '../policies/links';
import { type SupercurationAccess, canEditSupercuration, canSeeSupercuration } from '../policies/supercurations';
import type { Viewer } from '../policies/viewer';
import { avatarUrl } from './profiles';
import { assertOwnTopics } from './topics';

type Q = Kysely<Database>;
export type LinkListParams = z.output<typeof linkListQuerySchema>;

const now = () => new Date().toISOString();
const newLinkId = () => randomBytes(12).toString('hex');
/** A counter minus one, never below 0 (SPEC §4). */
const decrement = (column: string): RawBuilder<number> =>
  sql<number>`case when ${sql.ref(column)} > 0 then ${sql.ref(column)} - 1 else 0 end`;
const increment = (column: string): RawBuilder<number> => sql<number>`${sql.ref(column)} + 1`;

// ---------------------------------------------------------------------------------------------
// Reading: rows, then the page's topics, likes and collections in three batched queries.

function linkRows(db: Q) {
  return db
    .selectFrom('links')
    .leftJoin('user', 'user.id', 'links.user_id')
    .leftJoin('profiles', 'profiles.user_id', 'links.user_id')
    .selectAll('links')
    .select(['user.name as author_name', 'profiles.avatar_key as author_avatar_key']);
}
type LinkRow = Awaited<ReturnType<ReturnType<typeof linkRows>['executeTakeFirstOrThrow']>>;

/** Collections (with the facts their policies need), as seen by `viewerId`. */
function collectionAccess(db: Q, viewerId: string | null) {
  return db
    .selectFrom('supercurations as s')
    .leftJoin('collaborators as c', (join) =>
      join.onRef('c.supercuration_id', '=', 's.id').on('c.user_id', '=', viewerId ?? ''),
    )
    .select(['s.id as supercuration_id', 's.user_id as owner_id', 's.is_public', 'c.user_id as collaborator_id']);
}

const toAccess = (r: { owner_id: string; is_public: number; collaborator_id: string | null }): SupercurationAccess => ({
  ownerId: r.owner_id,
  isPublic: Number(r.is_public) === 1,
  viewerIsCollaborator: r.collaborator_id !== null,
});

interface Membership extends SupercurationAccess {
  linkId: string;
  supercurationId: string;
  tags: string[];
}

/** Every collection containing one of the links, with that collection's tags on it. */
async function membershipsOf(db: Q, viewerId: string | null, linkIds: string[]): Promise<Membership[]> {
  if (linkIds.length === 0) return [];
  const rows = await collectionAccess(db, viewerId)
    .innerJoin('supercuration_links as sl', 'sl.supercuration_id', 's.id')
    .leftJoin('supercuration_link_tags as slt', (join) =>
      join.onRef('slt.supercuration_id', '=', 'sl.supercuration_id').onRef('slt.link_id', '=', 'sl.link_id'),
    )
    .leftJoin('tags as t', 't.id', 'slt.tag_id')
    .select(['sl.link_id', 't.name as tag'])
    .where('sl.link_id', 'in', linkIds)
    .orderBy('sl.created_at')
    .orderBy('s.id')
    .orderBy('t.name')
    .execute();
  const byKey = new Map<string, Membership>();
  for (const r of rows) {
    const key = `${r.link_id} ${r.supercuration_id}`;
    let m = byKey.get(key);
    if (!m) {
      m = { linkId: r.link_id, supercurationId: r.supercuration_id, tags: [], ...toAccess(r) };
      byKey.set(key, m);
    }
    if (r.tag !== null) m.tags.push(r.tag);
  }
  return [...byKey.values()];
}

async function toLinks(db: Q, rows: LinkRow[], viewer: Viewer | null): Promise<Link[]> {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const [topics, likes, memberships] = await Promise.all([
    db.selectFrom('link_topics').select(['link_id', 'topic_id']).where('link_id', 'in', ids).orderBy('topic_id').execute(),
    viewer
      ? db.selectFrom('likes').select('link_id').where('user_id', '=', viewer.id).where('link_id', 'in', ids).execute()
      : [],
    membershipsOf(db, viewer?.id ?? null, ids),
  ]);
  const liked = new Set(likes.map((l) => l.link_id));
  return rows.map((r) => {
    const collections = memberships.filter((m) => m.linkId === r.id);
    const visible = collections.filter((c) => canSeeSupercuration(viewer, c));
    return {
      id: r.id,
      url: r.url,
      title: r.title,
      description: r.description,
      thumbnailUrl: r.thumbnail_url,
      linkText: r.link_text,
      format: r.format as FormatId | null,
      topicIds: topics.filter((t) => t.link_id === r.id).map((t) => t.topic_id),
      isOriginalContent: Number(r.is_original_content) === 1,
      originalPostId: r.original_post_id,
      inMainFeed: Number(r.in_main_feed) === 1,
      likes: r.likes_count,
      repostsCount: r.reposts_count,
      liked: liked.has(r.id),
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      user: {
        id: r.user_id,
        name: r.author_name || UNKNOWN_USER_NAME,
        avatarUrl: avatarUrl(r.user_id, r.author_avatar_key ?? null),
      },
      supercurationIds: visible.map((c) => c.supercurationId),
      supercurationTags: Object.fromEntries(visible.map((c) => [c.supercurationId, c.tags])),
      canEdit: canEditLink(viewer, { userId: r.user_id }, collections),
      canDelete: canDeleteLink(viewer, { userId: r.user_id }),
    };
  });
}

export async function getLink(db: Db, id: string, viewer: Viewer | null): Promise<Link | null> {
  const row = await linkRows(db.kysely).where('links.id', '=', id).executeTakeFirst();
  if (!row) return null;
  const [link] = await toLinks(db.kysely, [row], viewer);
  return link ?? null;
}

/** What the link detail page's HTML head shows (server/http/web-routes.ts). */
export async function getLinkPageMeta(db: Db, id: string) {
  return db.kysely
    .selectFrom('links')
    .select(['title', 'description', 'thumbnail_url'])
    .where('id', '=', id)
    .executeTakeFirst();
}

// ---------------------------------------------------------------------------------------------
// My Feed: keyset pages, each an index range scan (migration 0002).

/** Sort keys, most significant first; the last is the unique id, so the order is total. */
const SORTS = {
  newest: { keys: ['created_at', 'id'], direction: 'desc' },
  oldest: { keys: ['created_at', 'id'], direction: 'asc' },
  most_liked: { keys: ['likes_count', 'created_at', 'id'], direction: 'desc' },
} as const;
type Sort = keyof typeof SORTS;
type CursorValue = string | number;

const WINDOW_MS = { today: 24 * 3600_000, week: 7 * 24 * 3600_000, month: 30 * 24 * 3600_000 } as const;

/** The opaque cursor: the sort keys of a page's last link, in base64url JSON. */
export function encodeCursor(sort: Sort, row: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify([sort, ...SORTS[sort].keys.map((k) => row[k])])).toString('base64url');
}

export function decodeCursor(sort: Sort, cursor: string): CursorValue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const keys = SORTS[sort].keys;
  const valid =
    Array.isArray(parsed) &&
    parsed.length === keys.length + 1 &&
    parsed[0] === sort &&
    keys.every((k, i) => typeof parsed[i + 1] === (k === 'likes_count' ? 'number' : 'string'));
  if (!valid) throw badRequest(LINK_MESSAGES.invalidCursor);
  return (parsed as CursorValue[]).slice(1);
}

/** The query of one feed page (one row more than a page, to learn whether there is more). */
export function feedQuery(db: Q, viewerId: string, q: LinkListParams, at = Date.now()) {
  const { keys, direction } = SORTS[q.sort];
  let query = linkRows(db).where('links.user_id', '=', viewerId);
  query =
    q.scope === 'mine'
      ? query.where('links.in_main_feed', '=', 1)
      : query.where('links.original_post_id', 'is not', null);
  if (q.window !== 'all') query = query.where('links.created_at', '>=', new Date(at - WINDOW_MS[q.window]).toISOString());
  if (q.format) query = query.where('links.format', '=', q.format);
  const topic = q.topic;
  if (topic) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('link_topics')
          .select('link_topics.link_id')
          .whereRef('link_topics.link_id', '=', 'links.id')
          .where('link_topics.topic_id', '=', topic),
      ),
    );
  }
  if (q.cursor) {
    // Row-value comparison: one range bound on the index, unlike `a < ? or (a = ? and id < ?)`.
    const values = decodeCursor(q.sort, q.cursor);
    const columns = sql.join(keys.map((k) => sql.ref(`links.${k}`)));
    const op = sql.raw(direction === 'desc' ? '<' : '>');
    query = query.where(sql<boolean>`(${columns}) ${op} (${sql.join(values)})`);
  }
  for (const k of keys) query = query.orderBy(`links.${k}`, direction);
  return query.limit(FEED_PAGE_SIZE + 1);
}

export async function listLinks(db: Db, viewer: Viewer, q: LinkListParams): Promise<Page<Link>> {
  const rows = await feedQuery(db.kysely, viewer.id, q).execute();
  const hasMore = rows.length > FEED_PAGE_SIZE;
  const page = rows.slice(0, FEED_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    items: await toLinks(db.kysely, page, viewer),
    nextCursor: hasMore && last ? encodeCursor(q.sort, last) : null,
    hasMore,
  };
}

// ---------------------------------------------------------------------------------------------
// Writing: each use case is one transaction, counters included.

/** The collections, each of which must exist and be editable by the viewer, else 404 (no existence leak). */
async function assertEditableCollections(trx: Q, viewer: Viewer, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await collectionAccess(trx, viewer.id).where('s.id', 'in', ids).execute();
  if (rows.length !== ids.length || !rows.every((r) => canEditSupercuration(viewer, toAccess(r)))) {
    throw notFound(LINK_MESSAGES.supercurationNotFound);
  }
}

/** Adds a link to collections, links_count + 1 each (SPEC §4). */
async function addToCollections(trx: Q, linkId: string, viewer: Viewer, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const at = now();
  await trx
    .insertInto('supercuration_links')
    .values(ids.map((id) => ({ supercuration_id: id, link_id: linkId, added_by: viewer.id, created_at: at })))
    .execute();
  await trx.updateTable('supercurations').set({ links_count: increment('links_count') }).where('id', 'in', ids).execute();
}

/** Removes a link (and its tags there) from collections, links_count - 1 each, never below 0. */
async function removeFromCollections(trx: Q, linkId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx.deleteFrom('supercuration_links').where('link_id', '=', linkId).where('supercuration_id', 'in', ids).execute();
  await trx.updateTable('supercurations').set({ links_count: decrement('links_count') }).where('id', 'in', ids).execute();
}

async function replaceTopics(trx: Q, linkId: string, authorId: string, topicIds: string[]): Promise<void> {
  await assertOwnTopics(trx, authorId, topicIds);
  await trx.deleteFrom('link_topics').where('link_id', '=', linkId).execute();
  if (topicIds.length === 0) return;
  await trx
    .insertInto('link_topics')
    .values(topicIds.map((topic_id) => ({ link_id: linkId, user_id: authorId, topic_id })))
    .execute();
}

/** SPEC §5 + §4: a new link, its topics and its collection memberships (with links_count), at once. */
export async function createLink(db: Db, viewer: Viewer, input: CreateLink): Promise<Link> {
  const id = newLinkId();
  const collections = [...new Set(input.supercurationIds ?? [])];
  await db.kysely.transaction().execute(async (trx) => {
    await assertEditableCollections(trx, viewer, collections);
    const at = now();
    await trx
      .insertInto('links')
      .values({
        id,
        user_id: viewer.id,
        url: input.url ?? null,
        title: input.title,
        description: input.description,
        thumbnail_url: input.thumbnailUrl ?? null,
        link_text: input.linkText,
        format: input.format ?? null,
        is_original_content: input.isOriginalContent ? 1 : 0,
        in_main_feed: input.inMainFeed === false ? 0 : 1,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await replaceTopics(trx, id, viewer.id, input.topicIds);
    await addToCollections(trx, id, viewer, collections);
  });
  return (await getLink(db, id, viewer)) as Link;
}

/**
 * SPEC §6: the author or an editor of a collection containing the link edits it; updated_at is
 * stamped. topicIds replaces the link's topics (which are its author's). supercurationIds sets
 * which of the collections the viewer edits contain the link; others' collections are untouched.
 */
export async function updateLink(db: Db, viewer: Viewer, id: string, changes: UpdateLink): Promise<Link> {
  await db.kysely.transaction().execute(async (trx) => {
    const link = await trx.selectFrom('links').select(['id', 'user_id']).where('id', '=', id).executeTakeFirst();
    if (!link) throw notFound(LINK_MESSAGES.linkNotFound);
    const memberships = await membershipsOf(trx, viewer.id, [id]);
    if (!canEditLink(viewer, { userId: link.user_id }, memberships)) throw forbidden(LINK_MESSAGES.cannotEditLink);

    if (changes.topicIds) await replaceTopics(trx, id, link.user_id, [...new Set(changes.topicIds)]);
    if (changes.supercurationIds) {
      const wanted = new Set(changes.supercurationIds);
      const current = new Set(memberships.map((m) => m.supercurationId));
      const added = [...wanted].filter((c) => !current.has(c));
      const removed = memberships
        .filter((m) => !wanted.has(m.supercurationId) && canEditSupercuration(viewer, m))
        .map((m) => m.supercurationId);
      await assertEditableCollections(trx, viewer, added);
      await addToCollections(trx, id, viewer, added);
      await removeFromCollections(trx, id, removed);
    }
    await trx
      .updateTable('links')
      .set({
        url: changes.url,
        title: changes.title,
        description: changes.description,
        thumbnail_url: changes.thumbnailUrl,
        link_text: changes.linkText,
        format: changes.format,
        is_original_content: changes.isOriginalContent === undefined ? undefined : changes.isOriginalContent ? 1 : 0,
        in_main_feed: changes.inMainFeed === undefined ? undefined : changes.inMainFeed ? 1 : 0,
        updated_at: now(),
      })
      .where('id', '=', id)
      .execute();
  });
  return (await getLink(db, id, viewer)) as Link;
}

/** SPEC §5: only the creator deletes. Counters of its collections and of the reposted original follow. */
export async function deleteLink(db: Db, viewer: Viewer, id: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const link = await trx
      .selectFrom('links')
      .select(['user_id', 'original_post_id'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!link) throw notFound(LINK_MESSAGES.linkNotFound);
    if (!canDeleteLink(viewer, { userId: link.user_id })) throw forbidden(LINK_MESSAGES.onlyOwnLinksDeleted);
    await trx
      .updateTable('supercurations')
      .set({ links_count: decrement('links_count') })
      .where('id', 'in', (eb) => eb.selectFrom('supercuration_links').select('supercuration_id').where('link_id', '=', id))
      .execute();
    if (link.original_post_id) {
      await trx
        .updateTable('links')
        .set({ reposts_count: decrement('reposts_count') })
        .where('id', '=', link.original_post_id)
        .execute();
    }
    // Cascades to its topics, likes and memberships; its reposts keep their copy (original_post_id → null).
    await trx.deleteFrom('links').where('id', '=', id).execute();
  });
}

/**
 * SPEC §4 like toggle. The count moves only by the rows this transaction actually deleted or
 * inserted, so concurrent toggles (PostgreSQL row locks, SQLite's single writer) keep
 * likes_count equal to the number of like rows.
 */
export async function toggleLike(db: Db, viewer: Viewer, linkId: string): Promise<LikeState> {
  return db.kysely.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('likes')
      .where('link_id', '=', linkId)
      .where('user_id', '=', viewer.id)
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
            .where('links.id', '=', linkId),
        )
        .onConflict((oc) => oc.columns(['link_id', 'user_id']).doNothing())
        .executeTakeFirst();
      if (Number(added.numInsertedOrUpdatedRows ?? 0) > 0) {
        await trx.updateTable('links').set({ likes_count: increment('likes_count') }).where('id', '=', linkId).execute();
      }
    }
    const link = await trx.selectFrom('links').select('likes_count').where('id', '=', linkId).executeTakeFirst();
    if (!link) throw notFound(LINK_MESSAGES.linkNotFound);
    return { liked, likes: link.likes_count };
  });
}

/**
 * A repost is the viewer's own copy pointing at the original (a repost of a repost points at its
 * original). The original's reposts_count moves with it. Own links and second reposts are refused.
 */
export async function repostLink(db: Db, viewer: Viewer, id: string): Promise<Link> {
  const copyId = newLinkId();
  await db.kysely.transaction().execute(async (trx) => {
    const source = await trx.selectFrom('links').select(['id', 'original_post_id']).where('id', '=', id).executeTakeFirst();
    if (!source) throw notFound(LINK_MESSAGES.linkNotFound);
    const original = await trx
      .selectFrom('links')
      .selectAll()
      .where('id', '=', source.original_post_id ?? source.id)
      .executeTakeFirstOrThrow();
    if (!canRepostLink(viewer, { userId: original.user_id })) throw forbidden(LINK_MESSAGES.cannotRepostOwn);
    const at = now();
    const inserted = await trx
      .insertInto('links')
      .values({
        id: copyId,
        user_id: viewer.id,
        url: original.url,
        title: original.title,
        description: original.description,
        thumbnail_url: original.thumbnail_url,
        link_text: original.link_text,
        format: original.format,
        is_original_content: original.is_original_content,
        original_post_id: original.id,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.columns(['user_id', 'original_post_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      throw new HttpError(409, LINK_MESSAGES.alreadyReposted, 'CONFLICT');
    }
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
    await trx.updateTable('links').set({ reposts_count: increment('reposts_count') }).where('id', '=', original.id).execute();
  });
  return (await getLink(db, copyId, viewer)) as Link;
}
