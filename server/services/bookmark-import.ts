import { type Expression, type ExpressionBuilder, type Insertable, type Kysely, type ReferenceExpression, type SqlBool, sql } from 'kysely';
import {
  BOOKMARKS_CHUNK,
  DEFAULT_LINK_TEXT,
  type BookmarkCollectionSummary,
  type BookmarkFilePreview,
  type BookmarkImportSummary,
  type FolderMapping,
  DESCRIPTION_MAX_LENGTH,
  IMPORTED_BOOKMARK_DESCRIPTION,
  IMPORT_INVALID_ROWS_LISTED,
  MAX_TOPICS_PER_LINK,
  TITLE_MAX_LENGTH,
  TOPIC_NAME_MAX_LENGTH,
  TOPIC_PALETTE,
  URL_MAX_LENGTH,
  normalizeUrl,
} from '../../shared/domain';
import { requireEditableCollections } from '../access/supercurations';
import { type Db, type Dialect, bulkWrites } from '../db';
import { increment } from '../db/counters';
import type { Database } from '../db/schema';
import { newId, now } from '../db/ids';
import { indexNewLinks, linkRowid, reindexLinks } from '../db/link-search';
import { newLinkRowids } from '../db/link-rowids';
import { isPostgres, rowsTemplate } from '../db/query-templates';
import type { Viewer } from '../policies/viewer';
import type { BookmarkFolder, ParsedBookmark } from './bookmark-file';
import { eventLoopTurns } from './event-loop-turns';
import type { Turn } from './import-slices';
import { scheduleLinkChecks } from './link-checks';
import { queueReadableCopies } from './readable-copies';
import { enqueueLinkPreviews } from './import-previews';
import { lockCollections } from './memberships';
import { topicIdFor } from './topics';
import { topicIdsColumn } from './link-topics';

/** A bookmark ready to write: normalised URL, clipped fields, its collection title (or null). */
interface Prepared {
  url: string;
  title: string;
  description: string;
  createdAt: string;
  /** Its tags' topic ids (names in CollectedImport.topicNames). */
  topicIds: string[];
  folder: string | null;
  liked: boolean;
  /** The file gave no title: the URL's host stands in until the page's preview (import-previews). */
  titleFromUrl: boolean;
}

const clip = (s: string, max: number) => (s.length > max ? s.slice(0, max).trimEnd() : s);

/**
 * An import file's bookmarks as they are read: each one is prepared at once (URL normalised,
 * fields clipped, tags as topic ids) and only that is kept, so a big file is never held both as
 * parsed and as prepared bookmarks while it is written. Invalid ones are only counted.
 */
export interface CollectedImport {
  items: Prepared[];
  /** Topic id → the first name the file gave it. */
  topicNames: Map<string, string>;
  /** The description a file gives a folder's collection (Linkwarden), by collection title. */
  folderDescriptions: Map<string, string>;
  invalid: number;
  invalidRows: number[];
  tagsDropped: number;
  /** Folders nested too deep (bookmarkParser). */
  flattenedFolders: number;
}

/**
 * Collects a file's bookmarks for importBookmarks: `add` is the readers' onBookmark, and
 * `collected` is called with their count of flattened folders once the file is read.
 */
export function importCollector(): { add: (b: ParsedBookmark) => void; collected: (flattenedFolders: number) => CollectedImport } {
  const nowIso = now();
  const collected: CollectedImport = {
    items: [],
    topicNames: new Map(),
    folderDescriptions: new Map(),
    invalid: 0,
    invalidRows: [],
    tagsDropped: 0,
    flattenedFolders: 0,
  };
  const add = (b: ParsedBookmark) => {
    const url = b.href.length <= URL_MAX_LENGTH ? normalizeUrl(b.href) : null;
    // normalizeUrl would prefix https:// to a scheme-less href; a bookmark always has its scheme.
    if (!url || !/^https?:/i.test(b.href.trim())) {
      collected.invalid += 1;
      if (collected.invalidRows.length < IMPORT_INVALID_ROWS_LISTED) collected.invalidRows.push(b.row);
      return;
    }
    const maxDate = Date.now() / 1000 + 24 * 3600;
    const topicIds: string[] = [];
    for (const tag of b.tags) {
      const name = clip(tag, TOPIC_NAME_MAX_LENGTH);
      const id = topicIdFor(name);
      if (topicIds.includes(id)) continue;
      if (topicIds.length === MAX_TOPICS_PER_LINK) {
        collected.tagsDropped += 1;
        continue;
      }
      if (!collected.topicNames.has(id)) collected.topicNames.set(id, name);
      topicIds.push(id);
    }
    const title = clip(b.title, TITLE_MAX_LENGTH);
    const folder = b.folder ? clip(b.folder.title, TITLE_MAX_LENGTH) : null;
    if (folder && b.folder?.description) collected.folderDescriptions.set(folder, b.folder.description);
    collected.items.push({
      url,
      title: title || new URL(url).hostname,
      titleFromUrl: !title,
      description: clip(b.description, DESCRIPTION_MAX_LENGTH) || IMPORTED_BOOKMARK_DESCRIPTION,
      createdAt: b.addDate && b.addDate < maxDate ? new Date(b.addDate * 1000).toISOString() : nowIso,
      topicIds,
      folder,
      liked: b.liked === true,
    });
  };
  return { add, collected: (flattenedFolders) => ({ ...collected, flattenedFolders }) };
}

/** The items without a URL their folder (or the top level) already has, in file order. */
async function oncePerFolder(items: readonly Prepared[], turn: Turn): Promise<Prepared[]> {
  const seen = new Set<string>();
  const once: Prepared[] = [];
  for (const p of items) {
    await turn();
    const key = `${p.folder ?? ''}\n${p.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    once.push(p);
  }
  return once;
}

/**
 * `column IN (values)` for up to a chunk of values; on PostgreSQL `column = ANY($1)`: one array
 * parameter instead of hundreds, so the statement's text is the same for every chunk and a
 * prepared statement's generic plan still looks each value up in the index (an IN list of 500
 * parameters under a generic plan took 100-500 ms a query).
 */
function inList<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  dialect: Dialect,
  column: ReferenceExpression<DB, TB>,
  values: string[],
): Expression<SqlBool> {
  return dialect === 'postgres' ? eb(column, '=', sql<string>`any(${values}::text[])`) : eb(column, 'in', values);
}

/**
 * The user's links of these URLs, the oldest of each first (originals before reposts), as 'Add
 * New Resource' reuses. Looked up from the URLs (links_url_user), whatever the statistics say:
 * taken before a big import, they rate a scan of all the user's links below 200 URL lookups, a
 * scan per chunk (PostgreSQL: 7-16 ms a chunk by 50,000 links; 1 ms this way). SQLite: a unary +
 * keeps user_id from choosing an index. PostgreSQL: each URL is looked up in turn, a lateral join
 * that `offset 0` keeps from being planned as a join of the user's links with the list.
 */
async function savedLinks(trx: Kysely<Database>, dialect: Dialect, userId: string, urls: string[]): Promise<{ id: string; url: string | null }[]> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ id: string; url: string | null }>`select l.id, l.url from unnest(${urls}::text[]) as u (url)
      cross join lateral (select id, url, original_post_id, created_at from links where links.url = u.url and links.user_id = ${userId} offset 0) l
      order by case when l.original_post_id is null then 0 else 1 end, l.created_at, l.id`.execute(trx);
    return rows;
  }
  return trx
    .selectFrom('links')
    .select(['id', 'url'])
    .where(sql<string>`+${sql.ref('user_id')}`, '=', userId)
    .where('url', 'in', urls)
    .orderBy((eb) => eb.case().when('original_post_id', 'is', null).then(0).else(1).end())
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * What POST /api/import/bookmarks/preview lists: the bookmarks and each folder path's count,
 * counted as the bookmarks are parsed (none is kept).
 */
export function bookmarkPreviewCounter() {
  const counts = new Map<BookmarkFolder, number>();
  let total = 0;
  let loose = 0;
  return {
    add(b: ParsedBookmark) {
      total += 1;
      if (b.folder) counts.set(b.folder, (counts.get(b.folder) ?? 0) + 1);
      else loose += 1;
    },
    preview(flattenedFolders: number): BookmarkFilePreview {
      // Folders whose titles clip to the same text are one collection.
      const folders = new Map<string, number>();
      for (const [folder, count] of counts) {
        const title = clip(folder.title, TITLE_MAX_LENGTH);
        folders.set(title, (folders.get(title) ?? 0) + count);
      }
      return { bookmarks: total, loose, folders: [...folders].map(([title, count]) => ({ title, count })), flattenedFolders };
    },
  };
}

/**
 * The existing collections a folder mapping sends bookmarks to, by id, with their titles: each must
 * be one the viewer may edit (SPEC §6), else 404 'Supercuration not found' (as everywhere, no
 * existence leak). Called before anything is written or streamed.
 */
export async function mappedCollections(db: Db, viewer: Viewer, mapping: FolderMapping): Promise<Map<string, MappedCollection>> {
  const ids = [...new Set(Object.values(mapping).flatMap((t) => (t.type === 'collection' ? [t.id] : [])))];
  if (ids.length === 0) return new Map();
  await requireEditableCollections(db.kysely, viewer, ids);
  const rows = await db.kysely.selectFrom('supercurations').select(['id', 'title', 'is_public']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, { title: r.title, isPublic: r.is_public === 1 }]));
}

export interface MappedCollection {
  title: string;
  isPublic: boolean;
}

export interface ImportOptions {
  /** Folder title → target; folders not in it become collections as by default. */
  mapping?: FolderMapping;
  /** The mapping's existing collections (mappedCollections, checked beforehand). */
  targets?: Map<string, MappedCollection>;
  /**
   * Called before the first chunk (done 0) and after each; awaited, so a caller can yield to the
   * event loop there (with SQLite's synchronous driver nothing else, not even a progress line's
   * write to the socket, gets a turn while the chunks run back to back).
   */
  onProgress?: (done: number, total: number) => void | Promise<void>;
  /** "Also share these on my main feed": false (the default) keeps every new link out of it. */
  inMainFeed?: boolean;
}

// A chunk's inserts, compiled once (rowsTemplate): 200 rows of each, chunk after chunk.
type NewLink = Pick<Insertable<Database['links']>, 'id' | 'user_id' | 'url' | 'title' | 'description' | 'in_main_feed' | 'likes_count' | 'created_at' | 'topic_ids'> & {
  /** In the importer's block (newLinkRowids); SQLite only. */
  rowid: number | null;
};
const insertLinks = rowsTemplate<NewLink, { id: string; rowid: number | null }>(
  ['rowid', 'id', 'user_id', 'url', 'title', 'description', 'in_main_feed', 'likes_count', 'created_at', 'topic_ids'],
  (db, rows) =>
    db
      .insertInto('links')
      .values(
        rows.map(({ rowid, ...r }) => ({
          ...r,
          ...(isPostgres(db) ? {} : { rowid }),
          thumbnail_url: null,
          link_text: DEFAULT_LINK_TEXT,
          format: null,
          is_original_content: 0,
          updated_at: r.created_at,
        })),
      )
      .returning(['id', linkRowid(db).as('rowid')]),
);
type NewLinkTopic = Insertable<Database['link_topics']>;
const insertLinkTopics = rowsTemplate<NewLinkTopic>(['link_id', 'user_id', 'topic_id'], (db, rows) => db.insertInto('link_topics').values(rows));
type NewMember = Pick<Insertable<Database['supercuration_links']>, 'supercuration_id' | 'link_id' | 'added_by' | 'created_at' | 'imported'>;
const insertMembers = rowsTemplate<NewMember, { supercuration_id: string }>(
  ['supercuration_id', 'link_id', 'added_by', 'created_at', 'imported'],
  (db, rows) =>
    db
      .insertInto('supercuration_links')
      .values(rows)
      .onConflict((oc) => oc.columns(['supercuration_id', 'link_id']).doNothing())
      .returning('supercuration_id'),
);

/**
 * Imports parsed bookmarks for the viewer, out of the main feed unless `inMainFeed`. Folders become the viewer's PRIVATE
 * collections (one per folder path; an own collection of that exact title is reused, so a
 * re-import fills the same ones), unless `mapping` sends a folder to one of the viewer's
 * existing collections (checked by mappedCollections beforehand) or to none. A new link filed in
 * a private collection stays out of the main feed even then, as Preview & Share does. Memberships
 * are marked `imported`, which keeps them out of e-mail digests. A URL the viewer
 * already shared is not duplicated: that link joins the folder's collection if it isn't a member.
 * Written in chunks of BOOKMARKS_CHUNK, each one transaction; links_count moves by the member rows
 * inserted. Each new link's preview is queued for the background (import-previews). Other requests
 * get turns throughout (eventLoopTurns). A bulk write (bulkWrites): SQLite checkpoints less often meanwhile.
 */
export function importBookmarks(db: Db, viewer: Viewer, file: CollectedImport, options: ImportOptions = {}): Promise<BookmarkImportSummary> {
  return bulkWrites(db, () => writeImport(db, viewer, file, options));
}

async function writeImport(
  db: Db,
  viewer: Viewer,
  file: CollectedImport,
  { mapping = {}, targets = new Map(), onProgress, inMainFeed = false }: ImportOptions,
): Promise<BookmarkImportSummary> {
  const nowIso = now();
  const targetOf = (folder: string) => (Object.hasOwn(mapping, folder) ? mapping[folder] : undefined);
  const summary: BookmarkImportSummary = {
    created: 0,
    reused: 0,
    alreadySaved: 0,
    skipped: { duplicates: 0, invalid: file.invalid },
    invalidRows: file.invalidRows,
    tagsDropped: file.tagsDropped,
    liked: 0,
    collections: [],
    flattenedFolders: file.flattenedFolders,
  };
  const turn = eventLoopTurns();

  // 1. Each URL once per folder (a folder mapped to none is no folder).
  for (const p of file.items) if (p.folder && targetOf(p.folder)?.type === 'none') p.folder = null;
  const items = await oncePerFolder(file.items, turn);
  summary.skipped.duplicates = file.items.length - items.length;

  // 2. Topics by name: missing ones are created with the palette's colours.
  const topicIds = new Set(items.flatMap((p) => p.topicIds));
  const topicRows = [...topicIds].map((id, i) => ({
    user_id: viewer.id,
    id,
    name: file.topicNames.get(id) as string,
    color: TOPIC_PALETTE[i % TOPIC_PALETTE.length] as string,
    created_at: new Date(Date.parse(nowIso) + i).toISOString(),
  }));
  for (let i = 0; i < topicRows.length; i += BOOKMARKS_CHUNK) {
    await db.kysely
      .insertInto('topics')
      .values(topicRows.slice(i, i + BOOKMARKS_CHUNK))
      .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
      .execute();
  }
  // The names the links' search documents hold: a topic the viewer had keeps its own.
  const topicNames = new Map(
    topicIds.size === 0 ? [] : (await db.kysely.selectFrom('topics').select(['id', 'name']).where('user_id', '=', viewer.id).execute()).map((t) => [t.id, t.name]),
  );

  // 3. Collections: a mapped one, else the viewer's own of that title (oldest), else a new private
  // one. Folders sent to the same collection share its summary entry.
  const folderTitles = [...new Set(items.flatMap((p) => (p.folder ? [p.folder] : [])))];
  const collections = new Map<string, BookmarkCollectionSummary>();
  const byId = new Map<string, BookmarkCollectionSummary>();
  /** Links filed only in private collections stay out of the main feed (private stays private). */
  const publicIds = new Set<string>();
  for (const title of folderTitles) {
    const target = targetOf(title);
    if (target?.type !== 'collection') continue;
    const mapped = targets.get(target.id);
    if (mapped?.isPublic) publicIds.add(target.id);
    const entry = byId.get(target.id) ?? { id: target.id, title: mapped?.title ?? title, count: 0, created: false };
    byId.set(target.id, entry);
    collections.set(title, entry);
  }
  const unmapped = folderTitles.filter((t) => !collections.has(t));
  if (unmapped.length > 0) {
    const own = await db.kysely
      .selectFrom('supercurations')
      .select(['id', 'title', 'is_public'])
      .where('user_id', '=', viewer.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const wanted = new Set(unmapped);
    for (const c of own) {
      if (wanted.has(c.title) && !collections.has(c.title)) {
        if (c.is_public === 1) publicIds.add(c.id);
        const entry = byId.get(c.id) ?? { id: c.id, title: c.title, count: 0, created: false };
        byId.set(c.id, entry);
        collections.set(c.title, entry);
      }
    }
    const fresh = unmapped.filter((t) => !collections.has(t)).map((title) => ({ title, id: newId() }));
    for (let i = 0; i < fresh.length; i += BOOKMARKS_CHUNK) {
      await db.kysely
        .insertInto('supercurations')
        .values(
          fresh.slice(i, i + BOOKMARKS_CHUNK).map((c) => ({
            id: c.id,
            user_id: viewer.id,
            title: c.title,
            description: clip(file.folderDescriptions.get(c.title) ?? '', DESCRIPTION_MAX_LENGTH) || 'Imported from a bookmarks file',
            thumbnail_url: null,
            is_public: 0,
            slug: null,
            created_at: nowIso,
            updated_at: nowIso,
          })),
        )
        .execute();
    }
    for (const c of fresh) {
      const entry = { id: c.id, title: c.title, count: 0, created: true };
      byId.set(c.id, entry);
      collections.set(c.title, entry);
    }
  }

  // 4. Chunks: each a transaction of links, topics, likes, memberships, links_count and preview jobs.
  /** URLs whose link this import created (a later chunk finds them saved, but not from before). */
  const createdUrls = new Set<string>();
  // First link checks spread over the week in file order (scheduleLinkChecks' random draw): a
  // chunk's rows then sit together in link_checks_due, not on ~200 pages of it across the week.
  let checksScheduled = 0;
  const inFileOrder = () => (checksScheduled++ + Math.random()) / items.length;
  await onProgress?.(0, items.length);
  for (let start = 0; start < items.length; start += BOOKMARKS_CHUNK) {
    await turn();
    const chunk = items.slice(start, start + BOOKMARKS_CHUNK);
    const chunkCollections = [...new Set(chunk.flatMap((p) => (p.folder ? [collections.get(p.folder)?.id ?? ''] : [])))]
      .filter(Boolean);
    const counts = await db.kysely.transaction().execute(async (trx) => {
      await lockCollections(trx, db.dialect, chunkCollections);
      const urls = [...new Set(chunk.map((p) => p.url))];
      const existing = await savedLinks(trx, db.dialect, viewer.id, urls);
      const linkOf = new Map<string, string>();
      for (const r of existing) if (r.url && !linkOf.has(r.url)) linkOf.set(r.url, r.id);
      // URLs already in the chunk's collections (whoever added them: SPEC §5 duplicate rule). A
      // collection this import created holds only what it put there, each folder's URL once.
      const memberUrls = new Set<string>();
      const existingCollections = chunkCollections.filter((id) => !byId.get(id)?.created);
      if (existingCollections.length > 0) {
        const rows = await trx
          .selectFrom('supercuration_links as sl')
          .innerJoin('links as l', 'l.id', 'sl.link_id')
          .select(['sl.supercuration_id', 'l.url'])
          .where((eb) => inList(eb, db.dialect, 'sl.supercuration_id', existingCollections))
          // Looked up from the chunk's URLs (links_url_user), not from the collection's members: a
          // collection an import fills grows to 100,000 rows, and reading them all for every chunk
          // made a big import quadratic (SQLite, without statistics, chose that order).
          .where('sl.link_id', 'in', (eb) => eb.selectFrom('links as u').select('u.id').where((e) => inList(e, db.dialect, 'u.url', urls)))
          .execute();
        for (const r of rows) memberUrls.add(`${r.supercuration_id}\n${r.url}`);
      }

      const newLinks: (Prepared & { inMainFeed: boolean })[] = [];
      const newIds: string[] = [];
      const members: NewMember[] = [];
      let created = 0;
      let reused = 0;
      let alreadySaved = 0;
      let duplicates = 0;
      let liked = 0;
      for (const p of chunk) {
        const collection = p.folder ? collections.get(p.folder) : undefined;
        let id = linkOf.get(p.url);
        const isNew = id === undefined;
        const savedBefore = !isNew && !createdUrls.has(p.url);
        if (isNew) {
          id = newId();
          linkOf.set(p.url, id);
          createdUrls.add(p.url);
          newLinks.push({ ...p, inMainFeed: inMainFeed && (!collection || publicIds.has(collection.id)) });
          newIds.push(id);
          created += 1;
        }
        const memberKey = collection ? `${collection.id}\n${p.url}` : null;
        if (collection && memberKey && !memberUrls.has(memberKey)) {
          memberUrls.add(memberKey);
          members.push({ supercuration_id: collection.id, link_id: id as string, added_by: viewer.id, created_at: nowIso, imported: 1 });
          collection.count += 1;
          if (!isNew) reused += 1;
        } else if (savedBefore) {
          alreadySaved += 1;
        } else if (!isNew) {
          duplicates += 1;
        }
      }

      const rowidOf = new Map<string, number | null>();
      if (newLinks.length > 0) {
        const rowids = await newLinkRowids(trx, viewer.id, newLinks.length);
        const inserted = await insertLinks(
          trx,
          newLinks.map((p, i) => ({
            rowid: rowids[i] as number | null,
            id: newIds[i] as string,
            user_id: viewer.id,
            url: p.url,
            title: p.title,
            description: p.description,
            in_main_feed: p.inMainFeed ? 1 : 0,
            likes_count: p.liked ? 1 : 0,
            created_at: p.createdAt,
            topic_ids: topicIdsColumn(p.topicIds),
          })),
        );
        for (const r of inserted) rowidOf.set(r.id, r.rowid);
        const linkTopics = newLinks.flatMap((p, i) =>
          p.topicIds.map((topic_id) => ({ link_id: newIds[i] as string, user_id: viewer.id, topic_id })),
        );
        for (let i = 0; i < linkTopics.length; i += BOOKMARKS_CHUNK) await insertLinkTopics(trx, linkTopics.slice(i, i + BOOKMARKS_CHUNK));
        // A favourite in the file is the importer's like of the new link (likes_count 1 above).
        const likes = newLinks.flatMap((p, i) => (p.liked ? [{ link_id: newIds[i] as string, user_id: viewer.id, created_at: p.createdAt }] : []));
        if (likes.length > 0) await trx.insertInto('likes').values(likes).execute();
        liked = likes.length;
        await enqueueLinkPreviews(trx, newLinks.map((p, i) => ({ id: newIds[i] as string, url: p.url, fillTitle: p.titleFromUrl })), nowIso);
        const linksWithUrls = newLinks.map((p, i) => ({ id: newIds[i] as string, url: p.url, userId: viewer.id }));
        await scheduleLinkChecks(trx, linksWithUrls, new Date(nowIso), inFileOrder);
        // An import's pages wait behind links shared one by one.
        await queueReadableCopies(trx, linksWithUrls, nowIso, 1);
      }
      if (members.length > 0) {
        const inserted = await insertMembers(trx, members);
        // links_count moves by the rows actually inserted: the collections are locked (PostgreSQL) or
        // the transaction is the only writer (SQLite), so it stays the number of member rows. (A
        // recount read each whole collection for every chunk: quadratic in a big import.)
        const added = new Map<string, number>();
        for (const r of inserted) added.set(r.supercuration_id, (added.get(r.supercuration_id) ?? 0) + 1);
        const by = sql<number>`case ${sql.ref('id')} ${sql.join([...added].map(([id, n]) => sql`when ${id} then cast(${n} as integer)`), sql` `)} else 0 end`;
        await trx.updateTable('supercurations').set({ links_count: increment('links_count', by) }).where('id', 'in', [...added.keys()]).execute();
      }
      // The chunk's new links are indexed from what is at hand; links of before it that joined a
      // collection have a new reader.
      const collectionsOf = new Map(newIds.map((id) => [id, [] as string[]]));
      const joined: string[] = [];
      for (const m of members) {
        const of = collectionsOf.get(m.link_id);
        if (of) of.push(m.supercuration_id);
        else joined.push(m.link_id);
      }
      await indexNewLinks(
        trx,
        newLinks.map((p, i) => ({
          id: newIds[i] as string,
          rowid: rowidOf.get(newIds[i] as string) ?? null,
          title: p.title,
          description: p.description,
          url: p.url,
          userId: viewer.id,
          topicNames: p.topicIds.map((id) => topicNames.get(id) ?? ''),
          collectionIds: collectionsOf.get(newIds[i] as string) ?? [],
          textGz: null,
        })),
      );
      await reindexLinks(trx, joined);
      return { created, reused, alreadySaved, duplicates, liked };
    });
    summary.created += counts.created;
    summary.reused += counts.reused;
    summary.alreadySaved += counts.alreadySaved;
    summary.skipped.duplicates += counts.duplicates;
    summary.liked += counts.liked;
    await onProgress?.(Math.min(start + chunk.length, items.length), items.length);
  }

  summary.collections = [...byId.values()].filter((c) => c.count > 0 || c.created);
  return summary;
}
