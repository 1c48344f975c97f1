import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import {
  type AddResource,
  FEED_PAGE_SIZE,
  type Link,
  MSG,
  type Page,
  SUPERCURATION_MESSAGES,
  type resourceListQuerySchema,
} from '../../shared/domain';
import {
  type AccessRow,
  type Authorized,
  type LoadedAccess,
  collectionAccess,
  editableAccess,
  requireEditable,
  requireEditableCollections,
  requireVisible,
} from '../access/supercurations';
import type { Db } from '../db';
import { newId, now } from '../db/ids';
import { type CursorValue, decodeKeyset, encodeKeyset, keysetAfter } from '../db/keyset';
import { queryTemplate, viewerOfShape, viewerShape } from '../db/query-templates';
import { groupCommit } from '../db/group-commit';
import { queueByKey } from '../db/queue-by-key';
import type { Database } from '../db/schema';
import { badRequest, notFound, unauthorized } from '../errors';
import { linkVisibleTo } from '../policies/links';
import { supercurationVisibleTo } from '../policies/supercurations';
import type { Viewer } from '../policies/viewer';
import { linkOf } from '../presenters/links';
import { type DocumentSource, indexNewLinks, reindexLinks } from '../db/link-search';
import { windowStart } from './feed';
import { type NewLink, getLink, insertLink, linkCards, toLinks } from './links';
import { type Written, insertNewResource } from './new-resource-postgres';
import { type AudienceRow, heardRemotely, ownerFollowers } from './fediverse';
import { addToCollections, lockCollections, removeFromCollections } from './memberships';
import { cachedFactsOf, previewUrl } from './link-facts';
import { cachedFactsSubquery } from '../preview/cache';

type Q = Kysely<Database>;
export type ResourceListParams = z.output<typeof resourceListQuerySchema>;

/**
 * A collection's resources, keyed by when each link was added to it (supercuration_links.created_at):
 * newest/oldest read the index (supercuration_id, created_at, link_id) in order; most liked sorts
 * the collection's members by likes, then that time.
 */
const RESOURCE_SORTS = {
  newest: { columns: ['sl.created_at', 'sl.link_id'], keys: ['added_at', 'id'], direction: 'desc' },
  oldest: { columns: ['sl.created_at', 'sl.link_id'], keys: ['added_at', 'id'], direction: 'asc' },
  most_liked: {
    columns: ['links.likes_count', 'sl.created_at', 'sl.link_id'],
    keys: ['likes_count', 'added_at', 'id'],
    direction: 'desc',
  },
} as const;

/**
 * The collection's links the viewer may see: for one they may see the collection, that leaves out
 * only reposts of originals hidden from them (canSeeLink).
 */
function resourceRows(db: Q, viewerId: string | null, id: string) {
  return linkCards(db, viewerId)
    .innerJoin('supercuration_links as sl', 'sl.link_id', 'links.id')
    .select('sl.created_at as added_at')
    .where('sl.supercuration_id', '=', id)
    .where(linkVisibleTo(viewerId));
}

type ResourceSort = ResourceListParams['sort'];

/** One page's filters, decoded: the window's start, format, tag and the keyset cursor's values. */
interface ResourceFilter {
  sort: ResourceSort;
  since: string | null;
  format?: string;
  tag?: string;
  broken: boolean;
  after: CursorValue[] | null;
}

function resourceFilter(q: ResourceListParams, at: number): ResourceFilter {
  const sort = RESOURCE_SORTS[q.sort];
  const types = sort.keys.map((k): 'string' | 'number' => (k === 'likes_count' ? 'number' : 'string'));
  return {
    sort: q.sort,
    since: windowStart(q.window, at),
    format: q.format || undefined,
    tag: q.tag || undefined,
    broken: q.broken === true,
    after: q.cursor ? decodeKeyset(`r-${q.sort}`, types, q.cursor) : null,
  };
}

function resourcePage(db: Q, viewerId: string | null, id: string, f: ResourceFilter) {
  const sort = RESOURCE_SORTS[f.sort];
  let query = resourceRows(db, viewerId, id);
  if (f.since) query = query.where('sl.created_at', '>=', f.since);
  if (f.format) query = query.where('links.format', '=', f.format);
  if (f.broken) query = query.where('links.broken_at', 'is not', null);
  // The collection's own visibility (requireVisible's rule): a page with rows needs no check of its own.
  else query = query.where((eb) => eb.exists(eb.selectFrom('supercurations as rs').select('rs.id').where('rs.id', '=', id).where(supercurationVisibleTo(viewerId ?? '', 'rs'))));
  const tag = f.tag;
  if (tag) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('supercuration_link_tags as slt')
          .innerJoin('tags as t', 't.id', 'slt.tag_id')
          .select('slt.tag_id')
          .whereRef('slt.supercuration_id', '=', 'sl.supercuration_id')
          .whereRef('slt.link_id', '=', 'sl.link_id')
          .where('t.name', '=', tag),
      ),
    );
  }
  if (f.after) query = query.where(keysetAfter(sort.columns, sort.direction, f.after));
  for (const c of sort.columns) query = query.orderBy(c, sort.direction);
  // A literal LIMIT: with a parameter, a prepared statement's generic plan can't tell a page from a scan.
  return query.limit(sql.lit(FEED_PAGE_SIZE + 1));
}
type ResourceRow = Awaited<ReturnType<ReturnType<typeof resourcePage>['executeTakeFirstOrThrow']>>;

/** The query of one page of resources (one row more than a page). */
export function resourceQuery(db: Q, viewerId: string | null, id: string, q: ResourceListParams, at = Date.now()) {
  return resourcePage(db, viewerId, id, resourceFilter(q, at));
}

/**
 * resourcePage as a template: its shape is the sort, whether there is a viewer and which filters
 * are set; their values are the arguments.
 */
const resourcePageTemplate = queryTemplate<string, ResourceRow>((db, a, shape) => {
  const [sort = 'newest', viewer, since, format, tag, broken, after] = shape.split(' ');
  const s = sort as ResourceSort;
  return resourcePage(db, viewerOfShape(viewer, a.viewer ?? ''), a.id ?? '', {
    sort: s,
    since: since === '1' ? (a.since ?? '') : null,
    format: format === '1' ? a.format : undefined,
    tag: tag === '1' ? a.tag : undefined,
    broken: broken === '1',
    after: after === '1' ? RESOURCE_SORTS[s].keys.map((_, i) => a[`after${i}`] ?? '') : null,
  });
});

function pageOfResources(db: Q, viewerId: string | null, id: string, f: ResourceFilter): Promise<ResourceRow[]> {
  const flag = (v: unknown) => (v ? '1' : '0');
  const shape = [f.sort, viewerShape(viewerId), flag(f.since), flag(f.format), flag(f.tag), flag(f.broken), flag(f.after)].join(' ');
  const args: Record<string, unknown> = { viewer: viewerId, id, since: f.since, format: f.format, tag: f.tag };
  f.after?.forEach((v, i) => {
    args[`after${i}`] = v;
  });
  return resourcePageTemplate(db, args, shape);
}

/**
 * Resources of a collection the viewer may see (links hidden from the main feed included), 10 a
 * page; its broken links only (?broken=1) for its editors, like their count (link-checks.ts).
 */
export async function listResources(
  db: Db,
  viewer: Viewer | null,
  id: string,
  q: ResourceListParams,
): Promise<Page<Link>> {
  if (q.broken) {
    if (!viewer) throw unauthorized(MSG.notAuthenticated);
    await requireEditable(db.kysely, viewer, id);
  }
  const rows = await pageOfResources(db.kysely, viewer?.id ?? null, id, resourceFilter(q, Date.now()));
  // Rows only come from a collection the viewer may see (resourcePage); no rows: 404, or none yet.
  if (rows.length === 0 && !q.broken) await requireVisible(db.kysely, viewer, id);
  const hasMore = rows.length > FEED_PAGE_SIZE;
  const items = rows.slice(0, FEED_PAGE_SIZE);
  const last = items[items.length - 1];
  const keys = RESOURCE_SORTS[q.sort].keys;
  return {
    items: await toLinks(db.kysely, items, viewer),
    nextCursor: hasMore && last ? encodeKeyset(`r-${q.sort}`, keys.map((k) => last[k])) : null,
    hasMore,
  };
}

/**
 * What Add New Resource reads first, in one query: the collection's access facts (collectionAccess),
 * the viewer's avatar key (a new link's card shows it) and, with a URL (shape 'url'), the viewer's
 * own link with that URL, the original first, then the oldest, and the URL's cached facts (a new
 * link stores them: cachedFactsOf). Shape 'url lock' (PostgreSQL) also locks the collection's row
 * for the rest of the transaction, as its counter's update would, and reads who remote hears of it
 * (insertNewResource; those two columns are in that shape only).
 */
const addContext = queryTemplate<
  'viewer' | 'id' | 'url' | 'page' | 'now',
  AccessRow & { own_link_id: string | null; avatar_key: string | null; preview_facts: string | null } & Pick<AudienceRow, 'fediverse_followers_count' | 'owner_followers'>
>((db, a, shape) =>
  collectionAccess(db, a.viewer)
    .where('s.id', '=', a.id)
    .$if(shape === 'url lock', (q) => q.select(['s.fediverse_followers_count', ownerFollowers('s')]))
    .select((eb) => [
      eb.selectFrom('profiles').select('profiles.avatar_key').where('profiles.user_id', '=', a.viewer).as('avatar_key'),
      ...(shape.startsWith('url')
        ? [
            eb
              .selectFrom('links')
              .select('links.id')
              .where('links.user_id', '=', a.viewer)
              .where('links.url', '=', a.url)
              .orderBy((o) => o.case().when('links.original_post_id', 'is', null).then(0).else(1).end())
              .orderBy('links.created_at')
              .orderBy('links.id')
              .limit(1)
              .as('own_link_id'),
            cachedFactsSubquery(db, a.page, a.now).as('preview_facts'),
          ]
        : [sql<string | null>`null`.as('own_link_id'), sql<string | null>`null`.as('preview_facts')]),
    ])
    .$if(shape === 'url lock', (q) => q.forUpdate('s')),
);

/** A saved post of the viewer's ('Add from saved'). */
const ownLinkById = queryTemplate<'id' | 'user', { id: string; url: string | null }>((db, a) =>
  db.selectFrom('links').select(['id', 'url']).where('id', '=', a.id).where('user_id', '=', a.user),
);

const addsByCollection = queueByKey();
const addsTogether = groupCommit<Database>();

/**
 * Add New Resource (SPEC §7 transaction): checks the collection, checks for a duplicate URL, adds
 * one of the viewer's saved links, or a new link — reusing the viewer's link with the same URL
 * when there is one — and increments links_count, all in one transaction. A new link may name
 * further collections (supercurationIds), which get it in the same transaction.
 * On PostgreSQL the collections' rows are locked only for the membership writes at the end (not
 * while the link is read or written; addToCollections' counter update takes the lock), since
 * every writer of a collection queues on that lock; except for a new link to one collection, the
 * common case, which takes two round trips where it took seven (`begin` with the first query,
 * which locks its collection; `commit` right behind the statement of insertNewResource, whose
 * answer, `written`, is awaited after the transaction). On SQLite, adds that arrive together
 * share one transaction and its commit, each in a savepoint (groupCommit). A new link is answered
 * from what was just written (its row, its collections' access rows: a new link has no likes and no
 * tags); a saved or reused link, which has its own likes, collections and tags, is read back after
 * the commit.
 */
export async function addResource(db: Db, viewer: Viewer, id: string, input: AddResource): Promise<Link> {
  const collections = [...new Set([id, ...(input.link?.supercurationIds ?? [])])];
  const url = input.link?.url ?? null;
  const inOneStatement = url !== null && collections.length === 1 && db.dialect === 'postgres';
  let created: Link | undefined;
  let written: Written | undefined;
  const add = async (trx: Q) => {
    const shape = url === null ? '' : inOneStatement ? 'url lock' : 'url';
    const [context] = await addContext(trx, { viewer: viewer.id, id, url, page: url && previewUrl(url), now: now() }, shape);
    const collection = editableAccess(viewer, id, context);
    const access = [
      collection,
      ...(await requireEditableCollections(
        trx,
        viewer,
        collections.filter((c) => c !== id),
      )),
    ];
    let target: string;
    let newDocument: DocumentSource | null = null;
    if (input.linkId !== undefined) {
      // Saved posts are the viewer's own: adding someone else's link would let editors edit it.
      const [own] = await ownLinkById(trx, { id: input.linkId, user: viewer.id });
      if (!own) throw notFound(SUPERCURATION_MESSAGES.linkNotFound);
      await addToCollections(trx, own.id, viewer, access, { url: own.url });
      target = own.id;
    } else if (input.link) {
      target = context?.own_link_id ?? newId();
      const known = { avatarKey: context?.avatar_key ?? null, facts: cachedFactsOf(url, context?.preview_facts ?? null) };
      let inserted: NewLink | null = null;
      if (context?.own_link_id) await addToCollections(trx, target, viewer, access, { url });
      else if (inOneStatement) {
        const heard = heardRemotely(context as NonNullable<typeof context>);
        const added = await insertNewResource(trx, viewer, collection, target, { ...input.link, url: url as string }, { ...known, heard });
        inserted = added.link;
        written = added.written;
      } else {
        inserted = await insertLink(trx, viewer, target, input.link, known);
        await addToCollections(trx, target, viewer, access, { url });
        newDocument = { ...inserted.document, collectionIds: access.map((a) => a.id) };
      }
      if (inserted) {
        // In membershipsOf's order: by when added (all now), then collection id.
        const memberships = access
          .map(({ id: supercurationId, ...a }) => ({ ...a, linkId: target, supercurationId, tags: [] }))
          .sort((a, b) => (a.supercurationId < b.supercurationId ? -1 : 1));
        created = linkOf(inserted.row, memberships, viewer);
      }
    } else {
      throw badRequest(SUPERCURATION_MESSAGES.invalidInput);
    }
    if (newDocument) await indexNewLinks(trx, [newDocument]);
    // A new link's document went in with it (insertNewResource); a saved or reused link's is recomputed.
    else if (!created) await reindexLinks(trx, [target]);
    return target;
  };
  const alone = () => db.kysely.transaction().execute(add);
  // Adds that lock their collection's row in their first query wait here for it, not at the lock.
  const onPostgres = () => (inOneStatement ? addsByCollection(id, alone) : alone());
  const linkId = await (db.dialect === 'sqlite' ? addsTogether(db.kysely, add) : onPostgres());
  await written;
  return created ?? ((await getLink(db, linkId, viewer)) as Link);
}

async function assertMember(trx: Q, collection: Authorized<LoadedAccess, 'edit'>, linkId: string): Promise<void> {
  const member = await trx
    .selectFrom('supercuration_links')
    .select('link_id')
    .where('supercuration_id', '=', collection.id)
    .where('link_id', '=', linkId)
    .executeTakeFirst();
  if (!member) throw notFound(SUPERCURATION_MESSAGES.linkNotFound);
}

/** Replaces the link's tags in this collection; every name must be a tag of one of its categories. */
export async function setResourceTags(
  db: Db,
  viewer: Viewer,
  id: string,
  linkId: string,
  names: readonly string[],
): Promise<Link> {
  await db.kysely.transaction().execute(async (trx) => {
    await lockCollections(trx, db.dialect, [id]);
    const collection = await requireEditable(trx, viewer, id);
    await assertMember(trx, collection, linkId);
    const tags =
      names.length === 0
        ? []
        : await trx
            .selectFrom('tags as t')
            .innerJoin('tag_categories as c', 'c.id', 't.category_id')
            .select(['t.id', 't.name'])
            .where('c.supercuration_id', '=', collection.id)
            .where('t.name', 'in', [...names])
            .execute();
    const found = new Set(tags.map((t) => t.name));
    if (names.some((n) => !found.has(n))) throw badRequest(SUPERCURATION_MESSAGES.unknownTags);
    await trx
      .deleteFrom('supercuration_link_tags')
      .where('supercuration_id', '=', collection.id)
      .where('link_id', '=', linkId)
      .execute();
    if (tags.length > 0) {
      await trx
        .insertInto('supercuration_link_tags')
        .values(tags.map((t) => ({ supercuration_id: collection.id, link_id: linkId, tag_id: t.id })))
        .execute();
    }
  });
  return (await getLink(db, linkId, viewer)) as Link;
}

/** SPEC §4: removes the link and this collection's tags on it; links_count - 1, never below 0. */
export async function removeResource(db: Db, viewer: Viewer, id: string, linkId: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await lockCollections(trx, db.dialect, [id]);
    const collection = await requireEditable(trx, viewer, id);
    const removed = await removeFromCollections(trx, linkId, [collection]);
    if (removed.length === 0) throw notFound(SUPERCURATION_MESSAGES.linkNotFound);
  });
}
