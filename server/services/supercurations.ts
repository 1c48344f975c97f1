import { type Kysely, type RawBuilder, type SelectQueryBuilder, type Selectable, sql } from 'kysely';
import type { z } from 'zod';
import {
  type CreateSupercuration,
  type Page,
  SUPERCURATION_MESSAGES,
  SUPERCURATION_PAGE_SIZE,
  type Supercuration,
  type SupercurationChoice,
  type SupercurationSummary,
  type UpdateSupercuration,
  type supercurationListQuerySchema,
} from '../../shared/domain';
import {
  type Authorized,
  type LoadedAccess,
  asTopicOwner,
  createdCollection,
  requireDeletable,
  requireEditable,
  toAccess,
} from '../access/supercurations';
import type { Db } from '../db';
import { newId, now } from '../db/ids';
import { decodeKeyset, encodeKeyset, keysetAfter } from '../db/keyset';
import { jsonRows } from '../db/json-rows';
import { queryTemplate, viewerOfShape, viewerShape } from '../db/query-templates';
import type { Database } from '../db/schema';
import { isUniqueViolation } from '../db/unique-violation';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { canSeePublicPage, canSeeSupercuration } from '../policies/supercurations';
import type { Viewer } from '../policies/viewer';
import { toDetail, toSummaries } from '../presenters/supercurations';
import { ensureFediverseUsername, isNameTaken } from './fediverse-usernames';
import { forgetRemoteFollowers } from './fediverse';
import { type StoredTopic, storeCollectionTopics } from './collection-topics';
import { assertOwnTopics } from './topics';

type Q = Kysely<Database>;
export type SupercurationListParams = z.output<typeof supercurationListQuerySchema>;

const slugTaken = () => conflict(SUPERCURATION_MESSAGES.slugTaken, 'SLUG_TAKEN');

// ---------------------------------------------------------------------------------------------
// Reading

/** The columns of a collection's row that its card (summaryRows) shows, besides topics_json. */
export const SUMMARY_COLUMNS = [
  'id',
  'user_id',
  'title',
  'description',
  'thumbnail_url',
  'is_public',
  'slug',
  'links_count',
  'followers_count',
  'fediverse_followers_count',
  'created_at',
  'updated_at',
] as const;

/** A collection's row as its card reads it (summaryRows' `rows`). */
export type SummaryColumns = Pick<Selectable<Database['supercurations']>, (typeof SUMMARY_COLUMNS)[number] | 'topics_json'>;

/**
 * Collections with their owner, their topics (unsorted) and whether the viewer collaborates on them
 * and follows them; for a visitor (no viewer) both are null without a lookup.
 * The owner's name and avatar are scalar subqueries (a primary-key lookup per row), not joins:
 * PostgreSQL joined a page of 24 by hashing the whole user and profiles tables (~2 ms a page with
 * 2,000 users, growing with them).
 * The rows come from the collections table, or from `rows`: SummaryColumns of collections a query
 * read already (no second lookup of each row by its id).
 */
export function summaryRows(db: Q, viewerId: string | null, rows?: RawBuilder<SummaryColumns>) {
  /** The viewer's id when this table has their row for the collection; null, without a lookup, for a visitor. */
  const viewerRow = (table: 'collaborators' | 'supercuration_followers') =>
    viewerId === null
      ? sql<string | null>`null`
      : sql<string | null>`(select v.user_id from ${sql.table(table)} v where v.supercuration_id = s.id and v.user_id = ${viewerId})`;
  return (rows ? db.selectFrom(rows.as('s')) : db.selectFrom('supercurations as s'))
    .select(SUMMARY_COLUMNS.map((c) => `s.${c}` as const))
    // Stored with the row (./collection-topics.ts): no subquery per card.
    .select(sql<string | StoredTopic[]>`s.topics_json`.as('topics_json'))
    .select((eb) => [
      eb.selectFrom('user as u').select('u.name').whereRef('u.id', '=', 's.user_id').as('owner_name'),
      eb.selectFrom('profiles as p').select('p.avatar_key').whereRef('p.user_id', '=', 's.user_id').as('owner_avatar_key'),
      viewerRow('collaborators').as('collaborator_id'),
      viewerRow('supercuration_followers').as('follower_id'),
    ]);
}
export type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaryRows>['executeTakeFirstOrThrow']>>;

/**
 * A collection's page: its summary row plus its tag categories (one row per category and tag, in
 * the order of tag-categories.ts's tagCategoriesOf) and collaborators, in one query.
 */
function detailRows(db: Q, viewerId: string | null) {
  return summaryRows(db, viewerId).select((eb) => [
    jsonRows(
      db,
      eb
        .selectFrom('tag_categories as tc')
        .leftJoin('tags as tg', 'tg.category_id', 'tc.id')
        .select(['tc.id', 'tc.name', 'tc.color', 'tg.name as tag'])
        .whereRef('tc.supercuration_id', '=', 's.id')
        .orderBy('tc.position')
        .orderBy('tc.id')
        .orderBy('tg.name'),
    ).as('tags_json'),
    jsonRows(
      db,
      eb
        .selectFrom('collaborators as c')
        .innerJoin('user as cu', 'cu.id', 'c.user_id')
        .leftJoin('profiles as cp', 'cp.user_id', 'c.user_id')
        .select(['cu.id', 'cu.name', 'cp.avatar_key'])
        .whereRef('c.supercuration_id', '=', 's.id')
        .orderBy('c.created_at')
        .orderBy('cu.id'),
    ).as('collaborators_json'),
  ]);
}
export type DetailRow = Awaited<ReturnType<ReturnType<typeof detailRows>['executeTakeFirstOrThrow']>>;

const detailById = queryTemplate<'viewer' | 'id', DetailRow>((db, a, shape) =>
  detailRows(db, viewerOfShape(shape, a.viewer)).where('s.id', '=', a.id),
);
const publicDetailBySlug = queryTemplate<'viewer' | 'slug', DetailRow>((db, a, shape) =>
  detailRows(db, viewerOfShape(shape, a.viewer)).where('s.slug', '=', a.slug).where('s.is_public', '=', 1),
);

/** The detail of a collection the viewer may see, else 404 'Supercuration not found'. */
export async function getSupercuration(db: Db, viewer: Viewer | null, id: string): Promise<Supercuration> {
  const [row] = await detailById(db.kysely, { viewer: viewer?.id ?? '', id }, viewerShape(viewer?.id));
  if (!row || !canSeeSupercuration(viewer, toAccess({ owner_id: row.user_id, ...row }))) {
    throw notFound(SUPERCURATION_MESSAGES.notFound);
  }
  return toDetail(row, viewer);
}

/** The public page's collection: public ones only, else 404 "This supercuration doesn't exist or is private". */
export async function getPublicSupercuration(db: Db, viewer: Viewer | null, slug: string): Promise<Supercuration> {
  const [row] = await publicDetailBySlug(db.kysely, { viewer: viewer?.id ?? '', slug }, viewerShape(viewer?.id));
  if (!row || !canSeePublicPage(toAccess({ owner_id: row.user_id, ...row }))) {
    throw notFound(SUPERCURATION_MESSAGES.publicNotFound);
  }
  return toDetail(row, viewer);
}

export const LIST_TAG = 'sc';

export interface Ranked {
  id: string;
  created_at: string;
}

/** A page of rows newest first, from rows sorted newest first, one more than a page. */
export function pageOf<R extends Ranked>(rows: R[], size: number) {
  const hasMore = rows.length > size;
  const ids = rows.slice(0, size);
  const last = ids[ids.length - 1];
  return { ids, hasMore, nextCursor: hasMore && last ? encodeKeyset(LIST_TAG, [last.created_at, last.id]) : null };
}

/** Summary rows by id; the shape is the number of ids (a page has at most 25) and viewerShape. */
const summariesByIds = queryTemplate<string, SummaryRow>((db, a, shape) => {
  const [count, who = ''] = shape.split(' ');
  return summaryRows(db, viewerOfShape(who, a.viewer ?? '')).where(
    's.id',
    'in',
    Array.from({ length: Number(count) }, (_, i) => a[`id${i}`] ?? ''),
  );
});

/** The summaries of these collections, in this order. */
export async function summariesOf(db: Q, ids: readonly string[], viewer: Viewer | null): Promise<SupercurationSummary[]> {
  if (ids.length === 0) return [];
  const args: Record<string, string> = { viewer: viewer?.id ?? '' };
  ids.forEach((id, i) => {
    args[`id${i}`] = id;
  });
  const rows = await summariesByIds(db, args, `${ids.length} ${viewerShape(viewer?.id)}`);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return toSummaries(
    ids.flatMap((id) => byId.get(id) ?? []),
    viewer,
  );
}

/** Newest first with the keyset cursor on (created_at, id), one row more than a page. */
export function newestFirst<T extends SelectQueryBuilder<Database & { s: Database['supercurations'] }, 's', Ranked>>(
  query: T,
  cursor: string | undefined,
  size: number,
): T {
  let q = query;
  if (cursor) {
    q = q.where(keysetAfter(['s.created_at', 's.id'], 'desc', decodeKeyset(LIST_TAG, ['string', 'string'], cursor))) as T;
  }
  return q.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(size + 1) as T;
}

const hasTopic = (topic: string) =>
  sql<boolean>`exists (select 1 from supercuration_topics st where st.supercuration_id = s.id and st.topic_id = ${topic})`;

/**
 * My Supercurations (SPEC §2): the viewer's own and collaborating collections, plus (scope 'all')
 * other users' public ones; topic filter by topic id; newest first. Each source is read from its
 * own index in order (own: user_id, public: is_public, collaborating: the viewer's few rows), a
 * page from each, merged: no OR across indexes, no sort of every collection.
 */
export async function listSupercurations(
  db: Db,
  viewer: Viewer,
  q: SupercurationListParams,
): Promise<Page<SupercurationSummary>> {
  const size = SUPERCURATION_PAGE_SIZE;
  const k = db.kysely;
  const filtered = <T extends SelectQueryBuilder<Database & { s: Database['supercurations'] }, 's', Ranked>>(query: T) =>
    newestFirst(q.topic ? (query.where(hasTopic(q.topic)) as T) : query, q.cursor, size);
  const sources = [
    filtered(k.selectFrom('supercurations as s').select(['s.id', 's.created_at']).where('s.user_id', '=', viewer.id)),
    // Driven from the viewer's collaborator rows (collaborators_user), then sorted: a user collaborates on few.
    filtered(
      k
        .selectFrom('collaborators as c')
        .innerJoin('supercurations as s', 's.id', 'c.supercuration_id')
        .select(['s.id', 's.created_at'])
        .where('c.user_id', '=', viewer.id),
    ),
    ...(q.scope === 'all'
      ? [filtered(k.selectFrom('supercurations as s').select(['s.id', 's.created_at']).where('s.is_public', '=', 1))]
      : []),
  ];
  const merged = new Map<string, Ranked>();
  for (const rows of await Promise.all(sources.map((source) => source.execute()))) {
    for (const r of rows) merged.set(r.id, r);
  }
  const sorted = [...merged.values()].sort((a, b) =>
    a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
  );
  const { ids, hasMore, nextCursor } = pageOf(sorted, size);
  return { items: await summariesOf(k, ids.map((r) => r.id), viewer), hasMore, nextCursor };
}

/**
 * A user's public collections (their profile's 'Public Supercurations'), newest first, 24 a page,
 * open to anyone; 404 'User not found' for an unknown user. Private ones are never listed, whoever asks.
 */
export async function userPublicSupercurations(
  db: Db,
  viewer: Viewer | null,
  userId: string,
  cursor: string | undefined,
): Promise<Page<SupercurationSummary>> {
  const k = db.kysely;
  const user = await k.selectFrom('user').select('id').where('id', '=', userId).executeTakeFirst();
  if (!user) throw notFound(SUPERCURATION_MESSAGES.userNotFound);
  const rows = await newestFirst(
    k.selectFrom('supercurations as s').select(['s.id', 's.created_at']).where('s.user_id', '=', userId).where('s.is_public', '=', 1),
    cursor,
    SUPERCURATION_PAGE_SIZE,
  ).execute();
  const { ids, hasMore, nextCursor } = pageOf(rows, SUPERCURATION_PAGE_SIZE);
  return { items: await summariesOf(k, ids.map((r) => r.id), viewer), hasMore, nextCursor };
}

/** Collections the viewer may add links to: own and collaborating, newest first. */
export async function supercurationChoices(db: Db, viewer: Viewer): Promise<SupercurationChoice[]> {
  const rows = await db.kysely
    .selectFrom('supercurations as s')
    .leftJoin('collaborators as c', (join) => join.onRef('c.supercuration_id', '=', 's.id').on('c.user_id', '=', viewer.id))
    .select(['s.id', 's.title', 's.is_public', 's.user_id'])
    .where((eb) => eb.or([eb('s.user_id', '=', viewer.id), eb('c.user_id', 'is not', null)]))
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(1000)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    isPublic: Number(r.is_public) === 1,
    isOwner: r.user_id === viewer.id,
  }));
}

// ---------------------------------------------------------------------------------------------
// Writing

/** A slug is taken by another collection, or by a user's fediverse username (both answer WebFinger). */
async function assertSlugFree(trx: Q, slug: string, exceptId?: string): Promise<void> {
  if (await isNameTaken(trx, slug, { collectionId: exceptId })) throw slugTaken();
}

/** A collection's topics are its owner's (topics are per user). */
async function replaceTopics(trx: Q, collection: Authorized<LoadedAccess, 'owner'>, topicIds: readonly string[]): Promise<void> {
  const { id, ownerId } = collection;
  await assertOwnTopics(trx, ownerId, topicIds);
  await trx.deleteFrom('supercuration_topics').where('supercuration_id', '=', id).execute();
  if (topicIds.length > 0) {
    await trx
      .insertInto('supercuration_topics')
      .values(topicIds.map((topic_id) => ({ supercuration_id: id, user_id: ownerId, topic_id })))
      .execute();
  }
  await storeCollectionTopics(trx, [id]);
}

/** Whether the collection has exactly these topics. */
async function sameTopics(trx: Q, id: string, topicIds: readonly string[]): Promise<boolean> {
  const rows = await trx.selectFrom('supercuration_topics').select('topic_id').where('supercuration_id', '=', id).execute();
  const wanted = new Set(topicIds);
  return rows.length === wanted.size && rows.every((r) => wanted.has(r.topic_id));
}

/** Runs a write, answering a slug taken by a concurrent write with 409 too. */
async function slugSafe<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err)) throw slugTaken();
    throw err;
  }
}

/** SPEC §5 Create Supercuration: title, description, visibility, slug (public only), the creator's topics. */
export async function createSupercuration(db: Db, viewer: Viewer, input: CreateSupercuration): Promise<Supercuration> {
  const id = newId();
  await slugSafe(() =>
    db.kysely.transaction().execute(async (trx) => {
      if (input.slug) await assertSlugFree(trx, input.slug);
      const at = now();
      await trx
        .insertInto('supercurations')
        .values({
          id,
          user_id: viewer.id,
          title: input.title,
          description: input.description,
          thumbnail_url: input.thumbnailUrl,
          is_public: input.isPublic ? 1 : 0,
          slug: input.isPublic ? input.slug : null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await replaceTopics(trx, createdCollection(viewer, id, input.isPublic), input.topics);
      if (input.isPublic) await ensureFediverseUsername(trx, viewer.id);
    }),
  );
  return getSupercuration(db, viewer, id);
}

/**
 * Editors change any field. Private → the slug is dropped (not stored for private collections,
 * SPEC §5); public needs a slug, given or kept. Topics are the owner's (topics are per user): only
 * the owner changes them (canEditSupercurationTopics).
 */
export async function updateSupercuration(
  db: Db,
  viewer: Viewer,
  id: string,
  changes: UpdateSupercuration,
): Promise<Supercuration> {
  await slugSafe(() =>
    db.kysely.transaction().execute(async (trx) => {
      const access = await requireEditable(trx, viewer, id);
      const topicOwner = asTopicOwner(viewer, access);
      const current = await trx.selectFrom('supercurations').select(['slug']).where('id', '=', access.id).executeTakeFirstOrThrow();
      const isPublic = changes.isPublic ?? access.isPublic;
      const slug = isPublic ? (changes.slug !== undefined ? changes.slug : current.slug) : null;
      if (isPublic && !slug) throw badRequest(SUPERCURATION_MESSAGES.slugRequired, 'VALIDATION_ERROR');
      if (slug && slug !== current.slug) await assertSlugFree(trx, slug, access.id);
      // Another editor may send the topics back unchanged (the edit form sends every field).
      if (changes.topics && !topicOwner && !(await sameTopics(trx, access.id, changes.topics))) {
        throw forbidden(SUPERCURATION_MESSAGES.ownerOnlyTopics);
      }
      await trx
        .updateTable('supercurations')
        .set({
          title: changes.title,
          description: changes.description,
          thumbnail_url: changes.thumbnailUrl,
          is_public: isPublic ? 1 : 0,
          slug,
          updated_at: now(),
        })
        .where('id', '=', access.id)
        .execute();
      if (changes.topics && topicOwner) await replaceTopics(trx, topicOwner, changes.topics);
      if (access.isPublic && !isPublic) await forgetRemoteFollowers(trx, access.id);
      if (isPublic && !access.isPublic) await ensureFediverseUsername(trx, access.ownerId);
    }),
  );
  return getSupercuration(db, viewer, id);
}

/** Owner only. Its memberships, tags, categories, collaborators and e-mail subscribers go with it; links stay. */
export async function deleteSupercuration(db: Db, viewer: Viewer, id: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const collection = await requireDeletable(trx, viewer, id);
    await trx.deleteFrom('supercurations').where('id', '=', collection.id).execute();
  });
}
