import { gunzipSync } from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import { isPostgres, rowsTemplate, withDb } from './query-templates';
import type { Database } from './schema';
import { foldAccents } from './search';
import { FTS5_MERGE_PAGES, fts5Merge } from './fts5-merge';

/**
 * The personal search index (issue 23; migrations 0021, 0022): one document per link, of its
 * title, description, topic names, domain and readable text (link_copies.text_gz), and its
 * readers: 'u' + the author's id and 'c' + the id of each collection holding it. A search reads
 * only the documents of the searcher and of the collections they own or collaborate on, and
 * server/services/link-search.ts still applies the full rule (linkSearchableBy) to them; so a
 * reader left behind (a collection deleted, the link taken out) hides nothing and shows nothing.
 * - SQLite: the FTS5 table `link_search` (contentless, unicode61 without diacritics), keyed by the
 *   links' rowid; a trigger deletes a link's entry with the link.
 * - PostgreSQL: `link_search(link_id, doc, readers, head)`: a tsvector weighted A title, B
 *   description and topics, C domain, D text, and the readers as text[], under one GIN index; the
 *   head is doc without the text, small enough to rank by without reading the text. It goes with
 *   its link by foreign key cascade.
 * Every write that changes one of these calls reindexLinks in its transaction, after the link's
 * memberships (a collection added is a reader added); a new link is indexed by indexNewLinks.
 */

type Q = Kysely<Database>;

/** The indexed columns, in the FTS5 table's order (readers after them); the rank's tiers of them are in services/link-search.ts. */
export const LINK_SEARCH_COLUMNS = ['title', 'description', 'topics', 'domain', 'body'] as const;

/**
 * A search document's reader tokens: the author's and each holding collection's, as one FTS5
 * token (letters and digits, lower case: auth ids may hold capitals and hyphens). Two ids could
 * share a token; the search's final check (linkSearchableBy) keeps that from showing anything.
 */
const readerToken = (kind: 'u' | 'c', id: string) => kind + id.toLowerCase().replace(/[^0-9a-z]/g, '');
export const authorReader = (userId: string) => readerToken('u', userId);
export const collectionReader = (supercurationId: string) => readerToken('c', supercurationId);

/** Readable text beyond this is not indexed: a tsvector holds at most 1 MB. */
const TEXT_MAX_CHARS = 200_000;
const BATCH = 200;

/**
 * Words only, one space apart: both databases then see the same words. PostgreSQL's parser
 * would read 'x-2024' as 'x' and the signed number '-2024', and a host name as one word.
 */
export const searchableText = (text: string) => text.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** A link's host without 'www.', or '' (no URL). */
export function domainOfUrl(url: string | null): string {
  if (!url) return '';
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** A kept copy's plain text (gzip of UTF-8), as far as it is indexed. */
export const copyText = (gz: Buffer | null) => (gz ? gunzipSync(gz).toString('utf8').slice(0, TEXT_MAX_CHARS) : '');

interface Document {
  id: string;
  rowid: number | null;
  title: string;
  description: string;
  topics: string;
  domain: string;
  body: string;
  readers: string[];
}

/** What a link's document is made of: its row, its topics' names and the collections holding it. */
export interface DocumentSource {
  id: string;
  /** SQLite's rowid of the link (the FTS5 entry's key); null on PostgreSQL. */
  rowid: number | null;
  title: string;
  description: string;
  url: string | null;
  userId: string;
  topicNames: readonly string[];
  collectionIds: readonly string[];
  textGz: Buffer | null;
}

const documentOf = (s: DocumentSource): Document => ({
  id: s.id,
  rowid: s.rowid,
  title: searchableText(s.title),
  description: searchableText(s.description),
  topics: searchableText(s.topicNames.join(' ')),
  domain: searchableText(domainOfUrl(s.url)),
  body: searchableText(copyText(s.textGz)),
  readers: [authorReader(s.userId), ...s.collectionIds.map(collectionReader)],
});

/** A link's DocumentSource.rowid, in a query of `links` (a select, or an insert's returning). */
export const linkRowid = (q: Q) => sql<number | null>`${sql.raw(isPostgres(q) ? 'null' : 'links.rowid')}`;

async function documents(trx: Q, ids: readonly string[]): Promise<Document[]> {
  const rows = await trx
    .selectFrom('links')
    .leftJoin('link_copies', 'link_copies.link_id', 'links.id')
    .select([
      'links.id',
      'links.title',
      'links.description',
      'links.url',
      'links.user_id',
      'link_copies.text_gz',
      sql<string | null>`(select string_agg(t.name, ' ') from link_topics lt inner join topics t on t.user_id = lt.user_id and t.id = lt.topic_id where lt.link_id = links.id)`.as(
        'topic_names',
      ),
      sql<string | null>`(select string_agg(scl.supercuration_id, ' ') from supercuration_links scl where scl.link_id = links.id)`.as('collections'),
      linkRowid(trx).as('rowid'),
    ])
    .where('links.id', 'in', ids)
    .execute();
  return rows.map((r) =>
    documentOf({
      id: r.id,
      rowid: r.rowid,
      title: r.title,
      description: r.description,
      url: r.url,
      userId: r.user_id,
      topicNames: r.topic_names ? [r.topic_names] : [],
      collectionIds: r.collections ? r.collections.split(' ') : [],
      textGz: r.text_gz,
    }),
  );
}

/**
 * How a batch of documents goes in:
 * - `changed`: links that may have entries; the old ones are deleted first;
 * - `new`: links created in this transaction, without entries; one statement for the batch;
 * - `build`: the full build, in one long transaction; one row a statement.
 * FTS5 writes its pending terms out as a new segment before each delete, before a rowid lower
 * than the last, and at the start of each statement that may write several rows (its statement
 * savepoint). One row a statement keeps them in memory up to `hashsize`, where a statement of
 * 200 rows wrote a small segment each time, and merging those took most of a big backfill's
 * time. A new link's transaction ends soon after, which writes them out anyway: there one
 * statement costs less than 200 (an import's chunk: SQLite's time 1.2 → 0.9 ms, and 199 statements
 * fewer built by Kysely).
 */
type WriteMode = 'changed' | 'new' | 'build';

async function writeSqlite(trx: Q, docs: Document[], mode: WriteMode): Promise<void> {
  docs.sort((a, b) => (a.rowid as number) - (b.rowid as number));
  if (mode === 'changed') await sql`delete from link_search where rowid in (${sql.join(docs.map((d) => d.rowid))})`.execute(trx);
  const rows = docs.map((d) => ({ ...d, readers: d.readers.join(' ') }));
  if (mode === 'new') await insertSqlite(trx, rows);
  else for (const row of rows) await insertSqlite(trx, [row]);
}

const insertSqlite = rowsTemplate<Omit<Document, 'id' | 'readers'> & { readers: string }>(['rowid', ...LINK_SEARCH_COLUMNS, 'readers'], (db, rows) => {
  const columns = sql.join(LINK_SEARCH_COLUMNS.map((c) => sql.id(c)));
  const values = rows.map((r) => sql`(${sql.join([r.rowid, ...LINK_SEARCH_COLUMNS.map((c) => r[c]), r.readers])})`);
  return withDb(db, sql`insert into link_search (rowid, ${columns}, readers) values ${sql.join(values)}`);
});

const WEIGHTS = { title: 'A', description: 'B', topics: 'B', domain: 'C', body: 'D' } as const;

/** A document's row of link_search's upsert (searchUpsert) on PostgreSQL. */
type PostgresRow = Pick<Document, 'id' | (typeof LINK_SEARCH_COLUMNS)[number]> & { readers: string };

/**
 * The columns go folded (foldAccents, as pgTsquery folds a search): in SQL, translate() looks
 * every character up in the list of folded letters: ~140 µs of a short document, 85% of an import's
 * index writes, and 125 ms of a readable copy's 200,000 characters (1 ms here).
 */
const postgresRow = (d: Document): PostgresRow => ({
  id: d.id,
  ...(Object.fromEntries(LINK_SEARCH_COLUMNS.map((c) => [c, foldAccents(d[c])])) as Pick<Document, (typeof LINK_SEARCH_COLUMNS)[number]>),
  readers: textArrayLiteral(d.readers),
});

/** A new link's row of searchUpsert (PostgreSQL), for a statement that writes it with the link. */
export const newDocumentRow = (source: DocumentSource) => postgresRow(documentOf(source));

async function writePostgres(trx: Q, docs: Document[]): Promise<void> {
  await upsertPostgres(trx, docs.map(postgresRow));
}

/**
 * The readers as PostgreSQL's text[] literal, sent as text: a statement with an array parameter
 * is not prepared (server/db/index.ts), and this insert's parsing and planning were about a tenth
 * of the database CPU of an add (perf, PostgreSQL 15).
 */
const textArrayLiteral = (values: readonly string[]) => `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

/** The columns of a searchUpsert row, in its order. */
export const SEARCH_ROW_COLUMNS = ['id', ...LINK_SEARCH_COLUMNS, 'readers'] as const;

/** PostgreSQL: inserts or replaces these documents (rows of postgresRow). */
export function searchUpsert(rows: readonly Record<(typeof SEARCH_ROW_COLUMNS)[number], string>[]) {
  const values = rows.map((r) => sql`(${sql.join([r.id, ...LINK_SEARCH_COLUMNS.map((c) => r[c])].map((v) => sql`${v}::text`))}, ${r.readers}::text[])`);
  const vector = (c: (typeof LINK_SEARCH_COLUMNS)[number]) => `setweight(to_tsvector('simple'::regconfig, v.${c}), '${WEIGHTS[c]}')`;
  const head = LINK_SEARCH_COLUMNS.filter((c) => c !== 'body').map(vector).join(' || ');
  return sql<Record<string, unknown>>`insert into link_search (link_id, head, doc, readers)
    select v.id, h.head, h.head || ${sql.raw(vector('body'))}, v.readers
    from (values ${sql.join(values)}) as v (id, ${sql.join(LINK_SEARCH_COLUMNS.map((c) => sql.id(c)))}, readers), lateral (select ${sql.raw(head)} as head) h
    on conflict (link_id) do update set head = excluded.head, doc = excluded.doc, readers = excluded.readers`;
}

const upsertPostgres = rowsTemplate<PostgresRow>(SEARCH_ROW_COLUMNS, (db, rows) => withDb(db, searchUpsert(rows)));

/**
 * Recomputes the search documents of these links from their current rows, in the caller's
 * transaction (ids of deleted links are skipped: their entries went with them).
 */
export const reindexLinks = (trx: Q, linkIds: readonly string[]) => writeDocuments(trx, linkIds, 'changed');

/**
 * Indexes links created in the caller's transaction (none has an entry yet) from what their writer
 * already holds, without reading them back: a share, a batch, 'Add New Resource', an import's chunk.
 */
export async function indexNewLinks(trx: Q, links: readonly DocumentSource[]): Promise<void> {
  for (let i = 0; i < links.length; i += BATCH) await writeBatch(trx, links.slice(i, i + BATCH).map(documentOf), 'new');
}

async function writeDocuments(trx: Q, linkIds: readonly string[], mode: WriteMode): Promise<void> {
  const ids = [...new Set(linkIds)];
  for (let i = 0; i < ids.length; i += BATCH) await writeBatch(trx, await documents(trx, ids.slice(i, i + BATCH)), mode);
}

async function writeBatch(trx: Q, docs: Document[], mode: WriteMode): Promise<void> {
  if (docs.length === 0) return;
  await (isPostgres(trx) ? writePostgres(trx, docs) : writeSqlite(trx, docs, mode));
}

/**
 * PostgreSQL: the most new index entries (kB) GIN keeps in its unsorted pending list before it
 * merges them into the index. Every search reads the whole list; at the default 4 MB, ~500 pages.
 */
export const PG_PENDING_LIST_KB = 64;

/**
 * Builds every link's document from scratch (the migration's backfill, and a copy into
 * PostgreSQL), in batches by id (by rowid on SQLite, below). Run it in one transaction (a migration is one): FTS5 then writes
 * big segments as its memory fills rather than a small one at each commit, which it would spend
 * its time merging (a 1,000,000-link backfill ran for hours in 1,000-link commits); they are
 * merged afterwards, in the background (mergeSearchSegments). PostgreSQL's index is made again
 * after the documents, sorted in one pass, rather than entry by entry.
 */
export async function reindexAllLinks(db: Q): Promise<number> {
  const pg = isPostgres(db);
  if (pg) await sql`drop index link_search_doc`.execute(db);
  else {
    await sql`insert into link_search (link_search) values ('delete-all')`.execute(db);
    for (const [option, value] of Object.entries(FTS5_BULK)) await fts5Option(db, option, value);
  }
  // SQLite in rowid order: FTS5 writes its pending terms out as a segment whenever a rowid comes
  // lower than the last one, so links taken in id order wrote a segment each, then merged them.
  const key = sql.raw(pg ? 'id' : 'rowid');
  let after: string | number = pg ? '' : 0;
  let done = 0;
  for (;;) {
    const rows = await db.selectFrom('links').select(['id', sql<string | number>`${key}`.as('key')]).where(key, '>', after).orderBy(key).limit(1000).execute();
    if (rows.length === 0) break;
    await writeDocuments(db, rows.map((r) => r.id), 'build');
    done += rows.length;
    after = rows[rows.length - 1]?.key as string | number;
  }
  if (pg) {
    await sql`create index link_search_doc on link_search using gin (doc, readers) with (gin_pending_list_limit = ${sql.lit(PG_PENDING_LIST_KB)})`.execute(db);
  } else {
    for (const [option, value] of Object.entries(FTS5_BUILT)) await fts5Option(db, option, value);
  }
  return done;
}

/**
 * FTS5 during a full build: new terms gather in memory up to `hashsize` before they are written
 * as a segment, and segments are not merged as they come (`automerge` 0). With the defaults (1 MB,
 * merging at 4 segments a level) a 1,000,000-link build spent its time merging a growing index:
 * each merge deletes and rewrites pages of GBs.
 */
const FTS5_BULK = { hashsize: 64 * 1024 * 1024, automerge: 0, crisismerge: 1000 };
const FTS5_DEFAULTS = { hashsize: 1024 * 1024, automerge: 4, crisismerge: 16 };
/**
 * After a full build: writes merge as they come again, but the build's segments (~20 of ~120 MB at
 * 1,000,000 links) are merged by mergeSearchSegments in short transactions, not in the build's one,
 * which would hold GBs of merged pages in the WAL at once and keep an upgrading server from starting.
 * `crisismerge` stays high until then, so that no user's write merges a level of GBs itself; it
 * is also how mergeSearchSegments knows there is work.
 */
const FTS5_BUILT = { ...FTS5_DEFAULTS, crisismerge: FTS5_BULK.crisismerge };
// The value as a literal: FTS5 takes an integer, and a bound JS number arrives as a real.
const fts5Option = (db: Q, option: string, value: number) => sql`insert into link_search (link_search, rank) values (${option}, ${sql.lit(value)})`.execute(db);

/** SQLite: a full build's segments are waiting for mergeSearchSegments. Only reads. */
export async function searchSegmentsPending(db: Q): Promise<boolean> {
  if (isPostgres(db)) return false;
  const { rows } = await sql<{ v: number }>`select v from link_search_config where k = 'crisismerge'`.execute(db);
  return Number(rows[0]?.v ?? FTS5_DEFAULTS.crisismerge) > FTS5_DEFAULTS.crisismerge;
}

/**
 * One step of merging a full build's segments, in its own transaction (fts5Merge): levels of 4
 * segments or more. When nothing was left to merge, `crisismerge` is put back. Returns whether
 * work remains.
 */
export async function mergeSearchSegments(db: Q, pages = FTS5_MERGE_PAGES): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await searchSegmentsPending(trx))) return false;
    if (await fts5Merge(trx, 'link_search', pages)) return true;
    await fts5Option(trx, 'crisismerge', FTS5_DEFAULTS.crisismerge);
    return false;
  });
}

/** The links holding a topic of `userId`, to reindex when it is renamed or deleted. */
export async function linksWithTopic(trx: Q, userId: string, topicId: string): Promise<string[]> {
  const rows = await trx.selectFrom('link_topics').select('link_id').where('user_id', '=', userId).where('topic_id', '=', topicId).execute();
  return rows.map((r) => r.link_id);
}
