import { type Kysely, type QueryCreator, type Selectable, sql } from 'kysely';
import { type CreateLink, LINK_MESSAGES, type Link, type UpdateLink } from '../../shared/domain';
import { editableAmong, requireEditableCollections } from '../access/supercurations';
import type { Db } from '../db';
import { decrement } from '../db/counters';
import { newId, now } from '../db/ids';
import { jsonRows, jsonRowsOf } from '../db/json-rows';
import { rowidColumn } from '../db/link-rowids';
import { type DocumentSource, indexNewLinks, linkRowid, reindexLinks } from '../db/link-search';
import { isPostgres, queryTemplate } from '../db/query-templates';
import type { Database } from '../db/schema';
import { forbidden, notFound } from '../errors';
import { canDeleteLink, canEditLink, canPlaceLink, canSeeLink, linkVisibleTo } from '../policies/links';
import type { Viewer } from '../policies/viewer';
import { linkOf } from '../presenters/links';
import {
  addToCollections,
  duplicateLink,
  groupMemberships,
  type Membership,
  lockCollections,
  membershipRows,
  membershipsOf,
  removeFromCollections,
} from './memberships';
import { restartLinkCheck } from './link-checks';
import type { ReadableCopy } from '../readable/extract';
import { AUDIENCE_COLUMNS, audienceOf, followedRemotely, queueDeliveries } from './fediverse';
import { type FactColumns, NO_FACT_COLUMNS, cachedFacts } from './link-facts';
import { enqueueLinkPreviews } from './import-previews';
import { keepExtensionCopy, restartReadableCopy } from './readable-copies';
import { queueNewLinkJobs } from './new-link-jobs';
import { assertOwnTopics } from './topics';
import { topicIdsColumn } from './link-topics';

type Q = Kysely<Database>;

// ---------------------------------------------------------------------------------------------
// Reading: rows with their author, topics and the viewer's like in one query, then the page's
// collections in a second.

/**
 * Links with what a card shows beside the row (its topic ids are on it: link-topics.ts): the
 * author's name and avatar, and whether `viewerId` liked each. Folding the like into the row query
 * saves a query per page. `authorId`: every row is this user's (the caller's filter says so), whose
 * name and avatar are then read once, not joined to each row: SQLite joined them to every row a
 * filter scanned (a format + topic page of a heavy user: ~45 rows for 11).
 */
export function linkRows(db: Q, viewerId: string | null, authorId?: string) {
  return db
    .selectFrom('links')
    .$if(authorId === undefined, (qb) =>
      qb.leftJoin('user', 'user.id', 'links.user_id').leftJoin('profiles', 'profiles.user_id', 'links.user_id'),
    )
    .selectAll('links')
    .select((eb) => [
      authorId === undefined
        ? sql.ref<string | null>('user.name').as('author_name')
        : eb.selectFrom('user').select('user.name').where('user.id', '=', authorId).as('author_name'),
      authorId === undefined
        ? sql.ref<string | null>('profiles.avatar_key').as('author_avatar_key')
        : eb.selectFrom('profiles').select('profiles.avatar_key').where('profiles.user_id', '=', authorId).as('author_avatar_key'),
      viewerId
        ? eb
            .exists(
              eb
                .selectFrom('likes')
                .select('likes.link_id')
                .whereRef('likes.link_id', '=', 'links.id')
                .where('likes.user_id', '=', viewerId),
            )
            .as('liked')
        : sql<boolean>`0`.as('liked'),
    ]);
}
export type LinkRow = Awaited<ReturnType<ReturnType<typeof linkRows>['executeTakeFirstOrThrow']>>;

/**
 * linkRows for a page of cards (toLinks). On PostgreSQL each row also brings the collections
 * containing it (memberships_json): one more statement there is a round trip, which cost more
 * server and database CPU than a subquery per row (~300 µs a feed page, measured). On SQLite, in
 * process, it is the reverse, so toLinks reads a page's collections in one more query.
 */
export function linkCards(db: Q, viewerId: string | null, authorId?: string) {
  return linkRows(db, viewerId, authorId).$if(isPostgres(db), (qb) =>
    qb.select(jsonRows(db, membershipRows(db, viewerId).where(sql<boolean>`sl.link_id = links.id`)).as('memberships_json')),
  );
}
type LinkCardRow = Awaited<ReturnType<ReturnType<typeof linkCards>['executeTakeFirstOrThrow']>>;

export async function toLinks(db: Q, rows: LinkCardRow[], viewer: Viewer | null): Promise<Link[]> {
  if (rows.length === 0) return [];
  // PostgreSQL answers null for a link in no collection; SQLite's rows have no such column.
  const memberships = rows.every((r) => r.memberships_json !== undefined)
    ? groupMemberships(rows.flatMap((r) => jsonRowsOf(r.memberships_json ?? null)))
    : await membershipsOf(
        db,
        viewer?.id ?? null,
        rows.map((r) => r.id),
      );
  return rows.map((r) =>
    linkOf(
      r,
      memberships.filter((m) => m.linkId === r.id),
      viewer,
    ),
  );
}

/** These links' cards, in the order of `ids` (a page chosen by another query); missing ids are left out. */
export async function linksInOrder(db: Q, ids: readonly string[], viewer: Viewer): Promise<Link[]> {
  if (ids.length === 0) return [];
  const links = await toLinks(db, await linkCards(db, viewer.id).where('links.id', 'in', ids).execute(), viewer);
  const byId = new Map(links.map((l) => [l.id, l]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The link as the viewer sees it, or null when it is missing or hidden from them (canSeeLink). A
 * repost's original and its collections come with the link's own (one query for both).
 */
export async function getLink(db: Db, id: string, viewer: Viewer | null): Promise<Link | null> {
  const row = await linkRows(db.kysely, viewer?.id ?? null).where('links.id', '=', id).executeTakeFirst();
  if (!row) return null;
  const original = row.original_post_id
    ? await db.kysely
        .selectFrom('links')
        .select(['id', 'user_id', 'in_main_feed'])
        .where('id', '=', row.original_post_id)
        .executeTakeFirst()
    : undefined;
  const memberships = await membershipsOf(db.kysely, viewer?.id ?? null, original ? [id, original.id] : [id]);
  const own = memberships.filter((m) => m.linkId === id);
  const facts = (r: { user_id: string; in_main_feed: number }, collections: Membership[]) => ({
    userId: r.user_id,
    inMainFeed: Number(r.in_main_feed) === 1,
    collections,
  });
  const originalFacts = original ? facts(original, memberships.filter((m) => m.linkId === original.id)) : null;
  if (!canSeeLink(viewer, facts(row, own), originalFacts)) return null;
  return linkOf(row, own, viewer);
}

/**
 * What the link detail page's HTML head shows (server/http/web-routes.ts): only for a link
 * everyone may see, since the head is the same for every visitor (unfurlers have no session).
 */
export async function getLinkPageMeta(db: Db, id: string) {
  return db.kysely
    .selectFrom('links')
    .select(['title', 'description', 'thumbnail_url'])
    .where('id', '=', id)
    .where(linkVisibleTo(null))
    .executeTakeFirst();
}

// ---------------------------------------------------------------------------------------------
// Writing: each use case is one transaction, counters included.

async function replaceTopics(trx: Q, linkId: string, authorId: string, topicIds: string[]): Promise<void> {
  await assertOwnTopics(trx, authorId, topicIds);
  await trx.deleteFrom('link_topics').where('link_id', '=', linkId).execute();
  await insertTopics(trx, linkId, authorId, topicIds);
}

export async function insertTopics(trx: Q, linkId: string, authorId: string, topicIds: string[]): Promise<void> {
  if (topicIds.length === 0) return;
  await trx
    .insertInto('link_topics')
    .values(topicIds.map((topic_id) => ({ link_id: linkId, user_id: authorId, topic_id })))
    .execute();
}

type LinkColumns = Selectable<Database['links']>;
export const LINK_COLUMNS = [
  'id',
  'user_id',
  'url',
  'title',
  'description',
  'thumbnail_url',
  'link_text',
  'format',
  'is_original_content',
  'original_post_id',
  'in_main_feed',
  'likes_count',
  'reposts_count',
  'created_at',
  'updated_at',
  'broken_at',
  'site_name',
  'favicon_url',
  'author',
  'published_at',
  'lang',
  'topic_ids',
] as const satisfies readonly (keyof LinkColumns)[];

/** `into`: where the insert is built (a WITH's query creator), on `db`'s dialect. */
const linkInsert = (db: Q, a: Record<keyof LinkColumns, string>, into: QueryCreator<Database> = db) =>
  into
    .insertInto('links')
    .values({ ...Object.fromEntries(LINK_COLUMNS.map((c) => [c, a[c]])), ...rowidColumn(db, a.user_id) } as unknown as LinkColumns)
    .onConflict((oc) => oc.columns(['user_id', 'original_post_id']).where('original_post_id', 'is not', null).doNothing());

/**
 * One link row, every column given (the insert's shape never varies), for new links and reposts
 * alike; answers nothing when the user already has a repost of its original (one per user and
 * original: links_user_original, so it holds under races; the index is partial, and the conflict
 * target names its condition, as both databases require). With its rowid (SQLite), for indexNewLinks,
 * in its author's block (server/db/link-rowids.ts).
 */
const insertLinkRow = queryTemplate<keyof LinkColumns, { id: string; rowid: number | null }>((db, a) =>
  linkInsert(db, a).returning(['id', linkRowid(db).as('rowid')]),
);

/**
 * A new link's row and its row in new_link_jobs (queueNewLinkJobs) as the WITH queries `l` and `j`
 * of one statement, for PostgreSQL, where each statement is a round trip (SQLite has no
 * data-modifying WITH). `needs_facts`: no cached preview gave the link its facts.
 */
export const withNewLinkRow = (db: Q, a: Record<keyof LinkColumns | 'needs_facts', string>) =>
  db
    .with('l', (d) => linkInsert(db, a, d).returning('id'))
    .with('j', (d) =>
      d
        .insertInto('new_link_jobs')
        .columns(['link_id', 'needs_facts'])
        .expression((eb) => eb.selectFrom('l').select(['l.id', sql<number>`cast(${a.needs_facts} as integer)`.as('needs_facts')])),
    );

const insertLinkRowWithJobs = queryTemplate<keyof LinkColumns | 'needs_facts', { id: string; rowid: null }>((db, a) =>
  withNewLinkRow(db, a).selectFrom('l').select(['l.id', sql<null>`null`.as('rowid')]),
);

/**
 * A link row (insertLinkRow) and, when it was inserted, its background jobs (queueNewLinkJobs;
 * `needsFacts`: no cached preview gave it its facts). Answers the inserted row's id and rowid.
 */
export async function insertLinkWithJobs(trx: Q, row: LinkColumns, needsFacts: boolean): Promise<{ id: string; rowid: number | null } | undefined> {
  if (row.url !== null && isPostgres(trx)) return (await insertLinkRowWithJobs(trx, { ...row, needs_facts: needsFacts ? 1 : 0 }))[0];
  const [inserted] = await insertLinkRow(trx, row);
  if (inserted) await queueNewLinkJobs(trx, [{ id: row.id, url: row.url, needsFacts }]);
  return inserted;
}

/** A new link of the viewer's: its columns, given the URL's cached facts (null: none cached). */
export function newLinkColumns(viewer: Viewer, id: string, input: CreateLink, facts: FactColumns | null): LinkColumns {
  const at = now();
  return {
    id,
    user_id: viewer.id,
    url: input.url ?? null,
    title: input.title,
    description: input.description,
    thumbnail_url: input.thumbnailUrl ?? null,
    link_text: input.linkText,
    format: input.format ?? null,
    is_original_content: input.isOriginalContent ? 1 : 0,
    original_post_id: null,
    in_main_feed: input.inMainFeed === false ? 0 : 1,
    likes_count: 0,
    reposts_count: 0,
    created_at: at,
    updated_at: at,
    broken_at: null,
    ...(facts ?? NO_FACT_COLUMNS),
    topic_ids: topicIdsColumn(input.topicIds),
  };
}

/** A new link as insertLink answers it: its row as linkRows reads it, and its search document's source. */
export interface NewLink {
  row: LinkRow;
  document: DocumentSource;
}

/**
 * A new link as written (newLinkColumns), with the author, topics and like as linkRows reads them
 * (a new link has no likes), and its search document's source without collections.
 */
export function newLinkOf(row: LinkColumns, viewer: Viewer, avatarKey: string | null, topicNames: readonly string[], rowid: number | null): NewLink {
  return {
    row: {
      ...row,
      author_name: viewer.name,
      author_avatar_key: avatarKey,
      liked: false,
    },
    document: {
      id: row.id,
      rowid,
      title: row.title,
      description: row.description,
      url: row.url,
      userId: viewer.id,
      topicNames,
      collectionIds: [],
      textGz: null,
    },
  };
}

/**
 * Inserts a new link of the viewer's with its topics (inside the caller's transaction); answers
 * its row as stored (newLinkOf), given the author's avatar key, so a caller can answer it without
 * reading it back; and its search document's source, which the caller indexes (indexNewLinks) with
 * the collections it adds the link to. `known`: what the caller has already read (the author's
 * avatar key, the URL's cached facts as cachedFacts answers them); facts not given are read here.
 */
export async function insertLink(
  trx: Q,
  viewer: Viewer,
  id: string,
  input: CreateLink,
  known: { avatarKey?: string | null; facts?: FactColumns | null } = {},
): Promise<NewLink> {
  const url = input.url ?? null;
  const facts = known.facts !== undefined ? known.facts : await cachedFacts(trx, url, new Date());
  const row = newLinkColumns(viewer, id, input, facts);
  const inserted = await insertLinkWithJobs(trx, row, facts === null);
  // A new id has no topics yet: nothing to delete first.
  const names = await assertOwnTopics(trx, viewer.id, input.topicIds);
  await insertTopics(trx, id, viewer.id, input.topicIds);
  return newLinkOf(row, viewer, known.avatarKey ?? null, names, inserted?.rowid ?? null);
}

/**
 * SPEC §5 + §4: a new link, its topics and its collection memberships (with links_count), at once.
 * A collection that already has a link with this URL refuses it (409) and nothing is written.
 * `copy`: the readable copy the extension made of the page (kept unless the author turned copies off).
 */
export async function createLink(db: Db, viewer: Viewer, input: CreateLink, copy: ReadableCopy | null = null): Promise<Link> {
  const id = newId();
  const collections = [...new Set(input.supercurationIds ?? [])];
  await db.kysely.transaction().execute(async (trx) => {
    const targets = await requireEditableCollections(trx, viewer, collections);
    const { document } = await insertLink(trx, viewer, id, input);
    const textGz = copy ? await keepExtensionCopy(trx, { id, url: input.url ?? null, userId: viewer.id }, copy, now()) : null;
    // Locks the collections (PostgreSQL) before its duplicate check, as late as possible.
    await addToCollections(trx, id, viewer, targets, { url: input.url ?? null });
    await indexNewLinks(trx, [{ ...document, textGz, collectionIds: targets.map((t) => t.id) }]);
  });
  return (await getLink(db, id, viewer)) as Link;
}

/**
 * SPEC §6: the author or an editor of a collection containing the link edits it; updated_at is
 * stamped. topicIds replaces the link's topics (which are its author's). supercurationIds sets
 * which of the collections the viewer edits contain the link; others' collections are untouched.
 * Only the author moves it in or out of the main feed or adds it to collections (canPlaceLink).
 */
/** The fields of a link that a collection's fediverse Note shows (server/federation/notes.ts). */
const NOTE_FIELDS = ['url', 'title', 'description', 'thumbnailUrl'] as const;

export async function updateLink(db: Db, viewer: Viewer, id: string, changes: UpdateLink): Promise<Link> {
  await db.kysely.transaction().execute(async (trx) => {
    const link = await trx
      .selectFrom('links')
      .select(['id', 'user_id', 'in_main_feed', 'url'])
      .where('id', '=', id)
      .where(linkVisibleTo(viewer.id))
      .executeTakeFirst();
    if (!link) throw notFound(LINK_MESSAGES.linkNotFound);
    const memberships = await membershipsOf(trx, viewer.id, [id]);
    const newUrl = changes.url !== undefined && changes.url !== link.url;
    if (!canEditLink(viewer, { userId: link.user_id }, memberships)) throw forbidden(LINK_MESSAGES.cannotEditLink);
    const current = new Set(memberships.map((m) => m.supercurationId));
    const added = [...new Set(changes.supercurationIds ?? [])].filter((c) => !current.has(c));
    const movesMainFeed = changes.inMainFeed !== undefined && changes.inMainFeed !== (Number(link.in_main_feed) === 1);
    if ((movesMainFeed || added.length > 0) && !canPlaceLink(viewer, { userId: link.user_id })) {
      throw forbidden(LINK_MESSAGES.onlyAuthorPlacesLink);
    }

    const topicIds = changes.topicIds && [...new Set(changes.topicIds)];
    if (topicIds) await replaceTopics(trx, id, link.user_id, topicIds);
    // A new URL is a new page: its facts are read again, like its health.
    const facts = newUrl ? await cachedFacts(trx, changes.url ?? null, new Date()) : undefined;
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
        // A new URL is a new page: what the checker found of the old one goes.
        broken_at: newUrl ? null : undefined,
        ...(newUrl ? (facts ?? NO_FACT_COLUMNS) : {}),
        topic_ids: topicIds && topicIdsColumn(topicIds),
        updated_at: now(),
      })
      .where('id', '=', id)
      .execute();
    if (newUrl) {
      await restartLinkCheck(trx, id, changes.url ?? null, new Date());
      await restartReadableCopy(trx, link.user_id, id, changes.url ?? null, now());
    }
    if (facts === null && changes.url) await enqueueLinkPreviews(trx, [{ id, url: changes.url, fillTitle: false, factsOnly: true }], now());
    if (changes.url !== undefined && changes.url !== null) {
      // The new URL must not duplicate another link's in one of the link's collections (SPEC §5).
      const clash = await trx
        .selectFrom('supercuration_links as mine')
        .innerJoin('supercuration_links as other', 'other.supercuration_id', 'mine.supercuration_id')
        .innerJoin('links as l', 'l.id', 'other.link_id')
        .select('mine.supercuration_id')
        .where('mine.link_id', '=', id)
        .where('other.link_id', '!=', id)
        .where('l.url', '=', changes.url)
        .limit(1)
        .executeTakeFirst();
      if (clash) throw duplicateLink();
    }
    let removedFrom: string[] = [];
    if (changes.supercurationIds) {
      const wanted = new Set(changes.supercurationIds);
      const removed = editableAmong(
        viewer,
        memberships.filter((m) => !wanted.has(m.supercurationId)).map((m) => ({ ...m, id: m.supercurationId })),
      );
      await lockCollections(trx, db.dialect, [...added, ...removed.map((m) => m.id)]);
      await addToCollections(trx, id, viewer, await requireEditableCollections(trx, viewer, added));
      removedFrom = await removeFromCollections(trx, id, removed);
    }
    // What a collection's Note shows changed: its remote followers get it again (an Update).
    if (NOTE_FIELDS.some((f) => changes[f] !== undefined)) {
      const kept = [...current].filter((c) => !removedFrom.includes(c));
      await queueDeliveries(trx, 'update', followedRemotely(await audienceOf(trx, kept)), id);
    }
    await reindexLinks(trx, [id]);
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
      .where(linkVisibleTo(viewer.id))
      .executeTakeFirst();
    if (!link) throw notFound(LINK_MESSAGES.linkNotFound);
    if (!canDeleteLink(viewer, { userId: link.user_id })) throw forbidden(LINK_MESSAGES.onlyOwnLinksDeleted);
    // The same lock order as every membership change, so concurrent writers never deadlock.
    const collections = await trx.selectFrom('supercuration_links').select('supercuration_id').where('link_id', '=', id).execute();
    await lockCollections(
      trx,
      db.dialect,
      collections.map((c) => c.supercuration_id),
    );
    const counted = await trx
      .updateTable('supercurations')
      .set({ links_count: decrement('links_count') })
      .where('id', 'in', (eb) => eb.selectFrom('supercuration_links').select('supercuration_id').where('link_id', '=', id))
      .returning(AUDIENCE_COLUMNS)
      .execute();
    if (link.original_post_id) {
      await trx
        .updateTable('links')
        .set({ reposts_count: decrement('reposts_count') })
        .where('id', '=', link.original_post_id)
        .execute();
    }
    await queueDeliveries(trx, 'delete', followedRemotely(counted), id);
    // Cascades to its topics, likes and memberships; its reposts keep their copy (original_post_id → null).
    await trx.deleteFrom('links').where('id', '=', id).execute();
  });
}

// ---------------------------------------------------------------------------------------------
// "Already shared" (the browser extension's badge and edit mode).

/**
 * The viewer's own link with this URL (already normalised like a shared URL), or with the same
 * URL without its #fragment: the original before reposts, then the oldest — the one 'Add New
 * Resource' reuses. Null when they haven't shared it.
 */
export async function findOwnLinkByUrl(db: Db, viewer: Viewer, url: string): Promise<Link | null> {
  const hash = url.indexOf('#');
  const candidates = hash === -1 ? [url] : [url, url.slice(0, hash)];
  const row = await linkCards(db.kysely, viewer.id)
    .where('links.user_id', '=', viewer.id)
    .where('links.url', 'in', candidates)
    .orderBy((eb) => eb.case().when('links.original_post_id', 'is', null).then(0).else(1).end())
    .orderBy('links.created_at')
    .orderBy('links.id')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const [link] = await toLinks(db.kysely, [row], viewer);
  return link ?? null;
}
