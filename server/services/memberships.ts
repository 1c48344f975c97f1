import type { Kysely } from 'kysely';
import { SUPERCURATION_MESSAGES } from '../../shared/domain';
import { type Authorized, type LoadedAccess, collectionAccess, toAccess } from '../access/supercurations';
import type { Dialect } from '../db';
import { decrement, increment } from '../db/counters';
import { now } from '../db/ids';
import { isPostgres, queryTemplate } from '../db/query-templates';
import type { Database } from '../db/schema';
import { conflict, notFound } from '../errors';
import type { SupercurationAccess } from '../policies/supercurations';
import type { Viewer } from '../policies/viewer';
import { type AudienceRow, AUDIENCE_COLUMNS, followedRemotely, queueDeliveries } from './fediverse';

/**
 * Link-in-collection membership (SPEC §4/§7), shared by the links and supercurations services.
 * Every function runs inside the caller's transaction; links_count moves by the rows actually
 * inserted or deleted, so it always equals the number of member rows.
 */

type Q = Kysely<Database>;

export interface Membership extends SupercurationAccess {
  linkId: string;
  supercurationId: string;
  tags: string[];
}

/**
 * Every collection containing a link, as the viewer sees it (collectionAccess), one row per tag the
 * link has there, oldest membership first; the caller says which links (a list, or the row of an
 * outer query). Read back with groupMemberships.
 */
export function membershipRows(db: Q, viewerId: string | null) {
  return collectionAccess(db, viewerId)
    .innerJoin('supercuration_links as sl', 'sl.supercuration_id', 's.id')
    .leftJoin('supercuration_link_tags as slt', (join) =>
      join.onRef('slt.supercuration_id', '=', 'sl.supercuration_id').onRef('slt.link_id', '=', 'sl.link_id'),
    )
    .leftJoin('tags as t', 't.id', 'slt.tag_id')
    .select(['sl.link_id', 't.name as tag'])
    .orderBy('sl.created_at')
    .orderBy('s.id')
    .orderBy('t.name');
}
export type MembershipRow = Awaited<ReturnType<ReturnType<typeof membershipRows>['executeTakeFirstOrThrow']>>;

/** Memberships from membershipRows' rows, in their order. */
export function groupMemberships(rows: readonly MembershipRow[]): Membership[] {
  const byKey = new Map<string, Membership>();
  for (const r of rows) {
    const key = `${r.link_id} ${r.supercuration_id}`;
    let m = byKey.get(key);
    if (!m) {
      m = { linkId: r.link_id, supercurationId: r.supercuration_id, tags: [], ...toAccess(r) };
      byKey.set(key, m);
    }
    // Names are unique per category; two categories may share one, shown once.
    if (r.tag !== null && !m.tags.includes(r.tag)) m.tags.push(r.tag);
  }
  return [...byKey.values()];
}

/** membershipRows of a list of links: compiled once per number of links. */
const membershipTemplate = queryTemplate((db, args, count) =>
  membershipRows(db, args.viewer as string).where(
    'sl.link_id',
    'in',
    Array.from({ length: Number(count) }, (_, i) => args[`link${i}`] as string),
  ),
);

export async function membershipsOf(db: Q, viewerId: string | null, linkIds: string[]): Promise<Membership[]> {
  if (linkIds.length === 0) return [];
  const args: Record<string, unknown> = { viewer: viewerId ?? '' };
  linkIds.forEach((id, i) => (args[`link${i}`] = id));
  return groupMemberships(await membershipTemplate(db, args, String(linkIds.length)));
}

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

export const duplicateLink = () => conflict(SUPERCURATION_MESSAGES.duplicateLink, 'DUPLICATE_LINK');

const idArgs = (a: Record<string, string>, shape: string) =>
  Array.from({ length: Number(shape) }, (_, i) => a[`id${i}`] ?? '');

/**
 * links_count + 1 on the collections (id0…), answering the ids updated: on PostgreSQL this takes
 * their row locks (as lockCollections does), so it also serialises the duplicate check after it.
 */
export const countAddedQuery = (db: Q, a: Record<string, string>, shape: string) =>
  db
    .updateTable('supercurations')
    .set({ links_count: increment('links_count') })
    .where('id', 'in', idArgs(a, shape))
    .returning(AUDIENCE_COLUMNS);
const countAdded = queryTemplate<string, AudienceRow>(countAddedQuery);

/**
 * Memberships of the link (link) in those of the collections (id0…) that have neither it nor
 * another link with its URL (`url`, the link's own: the link itself is among the links with it),
 * added by user at `at`; answers the collections it was added to. The duplicate check is driven
 * from the URL's few links (links_url_user), then each membership by key: an OR of both conditions let
 * PostgreSQL's generic plan scan every membership of a big collection.
 */
export function insertMembersQuery(db: Q, a: Record<string, string>, shape: string) {
  const [count = '0', url] = shape.split(' ');
  return db
    .insertInto('supercuration_links')
    .columns(['supercuration_id', 'link_id', 'added_by', 'created_at'])
    .expression(
      db
        .selectFrom('supercurations as s')
        .select((eb) => [
          's.id',
          eb.val(a.link ?? '').as('link_id'),
          eb.val(a.user ?? '').as('added_by'),
          eb.val(a.at ?? '').as('created_at'),
        ])
        .where('s.id', 'in', idArgs(a, count))
        .where((eb) =>
          eb.not(
            eb.exists(
              url === 'no-url'
                ? eb
                    .selectFrom('supercuration_links as sl')
                    .select('sl.link_id')
                    .where('sl.link_id', '=', a.link ?? '')
                    .whereRef('sl.supercuration_id', '=', 's.id')
                : eb
                    .selectFrom('links as l')
                    // SQLite takes a CROSS JOIN's left side as the outer loop: without it, it may
                    // walk every membership of the collection and read each link's URL.
                    .crossJoin('supercuration_links as sl')
                    .select('sl.link_id')
                    .where('l.url', '=', a.url ?? '')
                    .whereRef('sl.link_id', '=', 'l.id')
                    .whereRef('sl.supercuration_id', '=', 's.id'),
            ),
          ),
        ),
    )
    .returning('supercuration_id');
}
const insertMembers = queryTemplate<string, { supercuration_id: string }>(insertMembersQuery);

/**
 * SPEC §5/§7: adds the link to the collections, links_count + 1 each, in two statements: the
 * counters first (on PostgreSQL that locks the collections' rows, several in id order, so a
 * caller needs no lockCollections of its own for them, and the duplicate check below sees every membership
 * committed before), then the memberships, each inserted only if its collection has neither this
 * link nor another link with the same URL. A collection that has refuses it with 409 'This link
 * has already been added to this supercuration', a collection that no longer exists with 404; the
 * error rolls the caller's transaction back, counters included, so nothing is written (callers
 * must not catch it and commit). `known` is the link's URL when the caller has just read or
 * written the link (one query less).
 */
export async function addToCollections(
  trx: Q,
  linkId: string,
  viewer: Viewer,
  collections: readonly Authorized<LoadedAccess, 'edit'>[],
  known?: { url: string | null },
): Promise<void> {
  if (collections.length === 0) return;
  const ids = collections.map((c) => c.id);
  let url = known?.url;
  if (url === undefined) {
    const link = await trx.selectFrom('links').select('url').where('id', '=', linkId).executeTakeFirst();
    if (!link) throw notFound(SUPERCURATION_MESSAGES.linkNotFound);
    url = link.url;
  }
  const args: Record<string, unknown> = { link: linkId, url, user: viewer.id, at: now() };
  ids.forEach((id, i) => {
    args[`id${i}`] = id;
  });
  // The update's row locks come in scan order: several collections are locked in id order first.
  if (ids.length > 1) await lockCollections(trx, isPostgres(trx) ? 'postgres' : 'sqlite', ids);
  // A collection deleted since the caller's checks is not found, as it would have been before them.
  const counted = await countAdded(trx, args, String(ids.length));
  if (counted.length !== ids.length) throw notFound(SUPERCURATION_MESSAGES.notFound);
  const added = await insertMembers(trx, args, `${ids.length} ${url === null ? 'no-url' : 'url'}`);
  if (added.length !== ids.length) throw duplicateLink();
  await queueDeliveries(trx, 'create', followedRemotely(counted), linkId);
}

/**
 * Removes the link, and that collection's tags on it (foreign key cascade), from the collections;
 * links_count - 1 for each membership actually deleted, never below 0. Answers how many were.
 */
export async function removeFromCollections(
  trx: Q,
  linkId: string,
  collections: readonly Authorized<LoadedAccess, 'edit'>[],
): Promise<string[]> {
  if (collections.length === 0) return [];
  const ids = collections.map((c) => c.id);
  const removed = await trx
    .deleteFrom('supercuration_links')
    .where('link_id', '=', linkId)
    .where('supercuration_id', 'in', [...ids])
    .returning('supercuration_id')
    .execute();
  const removedIds = removed.map((r) => r.supercuration_id);
  if (removedIds.length > 0) {
    const counted = await trx
      .updateTable('supercurations')
      .set({ links_count: decrement('links_count') })
      .where('id', 'in', removedIds)
      .returning(AUDIENCE_COLUMNS)
      .execute();
    await queueDeliveries(trx, 'delete', followedRemotely(counted), linkId);
  }
  return removedIds;
}
