import { type Kysely, type RawBuilder, sql } from 'kysely';
import { SUPERCURATION_MESSAGES } from '../../shared/domain';
import type { Dialect } from '../db';
import type { Database } from '../db/schema';
import { HttpError, notFound } from '../http/errors';
import { type SupercurationAccess, canEditSupercuration } from '../policies/supercurations';
import type { Viewer } from '../policies/viewer';
import { queryTemplate } from './query-templates';

/**
 * Link-in-collection membership (SPEC §4/§7), shared by the links and supercurations services.
 * Every function runs inside the caller's transaction; links_count moves by the rows actually
 * inserted or deleted, so it always equals the number of member rows.
 */

type Q = Kysely<Database>;

/** A counter minus one, never below 0 (SPEC §4). */
export const decrement = (column: string, by: number | RawBuilder<number> = 1): RawBuilder<number> =>
  sql<number>`case when ${sql.ref(column)} > ${by} then ${sql.ref(column)} - ${by} else 0 end`;
export const increment = (column: string, by = 1): RawBuilder<number> => sql<number>`${sql.ref(column)} + ${by}`;

/** Collections (with the facts their policies need), as seen by `viewerId`. */
export function collectionAccess(db: Q, viewerId: string | null) {
  return db
    .selectFrom('supercurations as s')
    .leftJoin('collaborators as c', (join) =>
      join.onRef('c.supercuration_id', '=', 's.id').on('c.user_id', '=', viewerId ?? ''),
    )
    .select(['s.id as supercuration_id', 's.user_id as owner_id', 's.is_public', 'c.user_id as collaborator_id']);
}

export type AccessRow = Awaited<ReturnType<ReturnType<typeof collectionAccess>['executeTakeFirstOrThrow']>>;

export const toAccess = (r: {
  owner_id: string;
  is_public: number;
  collaborator_id: string | null;
}): SupercurationAccess => ({
  ownerId: r.owner_id,
  isPublic: Number(r.is_public) === 1,
  viewerIsCollaborator: r.collaborator_id !== null,
});

/**
 * Serialises membership changes of these collections until the transaction ends: PostgreSQL row
 * locks taken in id order (no deadlock between two multi-collection writes). SQLite has a single
 * writer, and our one connection runs one transaction at a time, so nothing is needed there.
 * Answers how many of them exist (on SQLite: all, as the caller has checked them in this transaction).
 * Take it as late as possible: writers of one collection queue here until the holder commits.
 */
export async function lockCollections(trx: Q, dialect: Dialect, ids: readonly string[]): Promise<number> {
  if (dialect !== 'postgres' || ids.length === 0) return ids.length;
  const locked = await trx
    .selectFrom('supercurations')
    .select('id')
    .where('id', 'in', [...ids])
    .orderBy('id')
    .forUpdate()
    .execute();
  return locked.length;
}

/** The collections, each of which must exist and be editable by the viewer, else 404 (no existence leak). */
export async function assertEditableCollections(trx: Q, viewer: Viewer, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await collectionAccess(trx, viewer.id).where('s.id', 'in', [...ids]).execute();
  if (rows.length !== ids.length || !rows.every((r) => canEditSupercuration(viewer, toAccess(r)))) {
    throw notFound(SUPERCURATION_MESSAGES.notFound);
  }
}

export const duplicateLink = () => new HttpError(409, SUPERCURATION_MESSAGES.duplicateLink, 'DUPLICATE_LINK');

/**
 * A membership of one of the collections (id0…) with this link or another link with its URL
 * (`url`, the link's own: the link itself is among the links with it). Driven from the URL's few
 * links (links_url), then each membership by key; an OR of both conditions let PostgreSQL's
 * generic plan scan every membership of a big collection.
 */
const duplicateMember = queryTemplate<string, { supercuration_id: string }>((db, a, shape) => {
  const [count = '0', url] = shape.split(' ');
  const ids = idArgs(a, count);
  if (url === 'no-url') {
    return db
      .selectFrom('supercuration_links as sl')
      .select('sl.supercuration_id')
      .where('sl.link_id', '=', a.link ?? '')
      .where('sl.supercuration_id', 'in', ids)
      .limit(1);
  }
  return db
    .selectFrom('links as l')
    .innerJoin('supercuration_links as sl', 'sl.link_id', 'l.id')
    .select('sl.supercuration_id')
    .where('l.url', '=', a.url ?? '')
    .where('sl.supercuration_id', 'in', ids)
    .limit(1);
});

const idArgs = (a: Record<string, string>, shape: string) =>
  Array.from({ length: Number(shape) }, (_, i) => a[`id${i}`] ?? '');

/** Memberships of the link (link) in the collections (id0…), added by user at `at`. */
const insertMembers = queryTemplate<string, never>((db, a, shape) =>
  db.insertInto('supercuration_links').values(
    idArgs(a, shape).map((id) => ({ supercuration_id: id, link_id: a.link ?? '', added_by: a.user ?? '', created_at: a.at ?? '' })),
  ),
);

const countAdded = queryTemplate<string, never>((db, a, shape) =>
  db
    .updateTable('supercurations')
    .set({ links_count: increment('links_count') })
    .where('id', 'in', idArgs(a, shape)),
);

/**
 * SPEC §5/§7: adds the link to the collections (locked by the caller), links_count + 1 each.
 * `known` is the link's URL when the caller has just read or written the link (one query less).
 * A collection that already has this link, or another link with the same URL, refuses it with 409
 * 'This link has already been added to this supercuration' and nothing is written.
 */
export async function addToCollections(
  trx: Q,
  linkId: string,
  viewer: Viewer,
  ids: readonly string[],
  known?: { url: string | null },
): Promise<void> {
  if (ids.length === 0) return;
  let url = known?.url;
  if (url === undefined) {
    const link = await trx.selectFrom('links').select('url').where('id', '=', linkId).executeTakeFirst();
    if (!link) throw notFound(SUPERCURATION_MESSAGES.linkNotFound);
    url = link.url;
  }
  const args: Record<string, unknown> = { link: linkId, url };
  ids.forEach((id, i) => {
    args[`id${i}`] = id;
  });
  const [duplicate] = await duplicateMember(trx, args, `${ids.length} ${url === null ? 'no-url' : 'url'}`);
  if (duplicate) throw duplicateLink();
  args.user = viewer.id;
  args.at = new Date().toISOString();
  await insertMembers(trx, args, String(ids.length));
  await countAdded(trx, args, String(ids.length));
}

/**
 * Removes the link, and that collection's tags on it (foreign key cascade), from the collections;
 * links_count - 1 for each membership actually deleted, never below 0. Answers how many were.
 */
export async function removeFromCollections(trx: Q, linkId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const removed = await trx
    .deleteFrom('supercuration_links')
    .where('link_id', '=', linkId)
    .where('supercuration_id', 'in', [...ids])
    .returning('supercuration_id')
    .execute();
  const removedIds = removed.map((r) => r.supercuration_id);
  if (removedIds.length > 0) {
    await trx
      .updateTable('supercurations')
      .set({ links_count: decrement('links_count') })
      .where('id', 'in', removedIds)
      .execute();
  }
  return removedIds;
}
