import { type Kysely, type RawBuilder, sql } from 'kysely';
import { SUPERCURATION_MESSAGES } from '../../shared/domain';
import type { Dialect } from '../db';
import type { Database } from '../db/schema';
import { HttpError, notFound } from '../http/errors';
import { type SupercurationAccess, canEditSupercuration } from '../policies/supercurations';
import type { Viewer } from '../policies/viewer';

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
 */
export async function lockCollections(trx: Q, dialect: Dialect, ids: readonly string[]): Promise<void> {
  if (dialect !== 'postgres' || ids.length === 0) return;
  await trx
    .selectFrom('supercurations')
    .select('id')
    .where('id', 'in', [...ids])
    .orderBy('id')
    .forUpdate()
    .execute();
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
 * SPEC §5/§7: adds the link to the collections (locked by the caller), links_count + 1 each.
 * A collection that already has this link, or another link with the same URL, refuses it with 409
 * 'This link has already been added to this supercuration' and nothing is written.
 */
export async function addToCollections(trx: Q, linkId: string, viewer: Viewer, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const link = await trx.selectFrom('links').select('url').where('id', '=', linkId).executeTakeFirst();
  if (!link) throw notFound(SUPERCURATION_MESSAGES.linkNotFound);
  const url = link.url;
  const duplicate = await trx
    .selectFrom('supercuration_links as sl')
    .select('sl.supercuration_id')
    .where('sl.supercuration_id', 'in', [...ids])
    .where((eb) =>
      url === null
        ? eb('sl.link_id', '=', linkId)
        : eb.or([
            eb('sl.link_id', '=', linkId),
            eb(
              'sl.link_id',
              'in',
              eb.selectFrom('links as l').select('l.id').where('l.url', '=', url),
            ),
          ]),
    )
    .limit(1)
    .executeTakeFirst();
  if (duplicate) throw duplicateLink();
  const at = new Date().toISOString();
  await trx
    .insertInto('supercuration_links')
    .values(ids.map((id) => ({ supercuration_id: id, link_id: linkId, added_by: viewer.id, created_at: at })))
    .execute();
  await trx.updateTable('supercurations').set({ links_count: increment('links_count') }).where('id', 'in', [...ids]).execute();
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
