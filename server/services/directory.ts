import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import {
  DIRECTORY_PAGE_SIZE,
  type FocusCategory,
  FOCUS_MAPPED_TOPIC_IDS,
  FOCUS_TOPIC_IDS,
  type Page,
  type SupercurationSummary,
  type directoryQuerySchema,
} from '../../shared/domain';
import type { Db } from '../db';
import { decodeKeyset, encodeKeyset, keysetAfter } from '../db/keyset';
import { queryTemplate, viewerOfShape, viewerShape } from '../db/query-templates';
import type { Database } from '../db/schema';
import { ftsMatch, pgSearchCondition, pgSearchText, pgTsqueryOf, searchWords } from '../db/search';
import type { Viewer } from '../policies/viewer';
import { toSummaries } from '../presenters/supercurations';
import { LIST_TAG, SUMMARY_COLUMNS, type SummaryColumns, type SummaryRow, newestFirst, pageOf, summariesOf, summaryRows } from './supercurations';

type Q = Kysely<Database>;
export type DirectoryParams = z.output<typeof directoryQuerySchema>;

const SEARCH_TAG = 'sq';

/** SPEC §2 Focus: a mapped topic (FOCUS_TOPIC_IDS), or none of them for 'generaliste'. */
function inFocus(focus: FocusCategory) {
  const generalist = focus === 'generaliste';
  const ids = generalist ? FOCUS_MAPPED_TOPIC_IDS : FOCUS_TOPIC_IDS[focus];
  const tagged = sql<boolean>`exists (select 1 from supercuration_topics st where st.supercuration_id = s.id and st.topic_id in (${sql.join([...ids])}))`;
  return generalist ? sql<boolean>`not ${tagged}` : tagged;
}

/**
 * /directory: public collections only, newest first, 24 a page; `focus` per FOCUS_TOPIC_IDS.
 * `q` matches the beginnings of words of the title or description, index-backed (server/db/search.ts).
 */
export async function directory(db: Db, viewer: Viewer | null, q: DirectoryParams): Promise<Page<SupercurationSummary>> {
  const size = DIRECTORY_PAGE_SIZE;
  if (q.q) {
    const words = searchWords(q.q);
    if (words.length === 0) return { items: [], hasMore: false, nextCursor: null };
    if (db.dialect === 'sqlite') return sqliteSearch(db.kysely, viewer, words, q);
    const rows = await pgSearch(db.kysely, viewer, words, q);
    const { ids, hasMore, nextCursor } = pageOf(rows, size);
    return { items: toSummaries(ids, viewer), hasMore, nextCursor };
  }
  const { ids, hasMore, nextCursor } = pageOf(await directoryQuery(db.kysely, q).execute(), size);
  return { items: await summariesOf(db.kysely, ids.map((r) => r.id), viewer), hasMore, nextCursor };
}

/** The ids of one directory page without a search (one more than a page): the public index, newest first. */
export function directoryQuery(db: Q, q: Omit<DirectoryParams, 'q'>) {
  let query = db.selectFrom('supercurations as s').select(['s.id', 's.created_at']).where('s.is_public', '=', 1);
  if (q.focus) query = query.where(inFocus(q.focus));
  return newestFirst(query, q.cursor, DIRECTORY_PAGE_SIZE);
}

/** How many of the newest public collections PostgreSQL checks before asking the search index instead. */
export const PG_SEARCH_WINDOW = 1000;

/**
 * PostgreSQL search, newest first, in two bounded steps (a planner left alone guesses the number of
 * hits of a prefix query badly, and with LIMIT may walk every row):
 * 1. `recent`: the newest PG_SEARCH_WINDOW public collections (after the cursor), read in index
 *    order, are checked against the stored search_doc; common words fill a page here;
 * 2. `rare`, only when they did not: hits are rare (under 2.5% of those rows), and all of them come
 *    from the GIN index (directory_hits, migration 0029: sequential scans off for its query), then
 *    the page is sorted from them. Its one-time filter keeps the function from running at all
 *    after a full first step.
 * One statement with the page's summary rows (one more than a page): each statement is a round
 * trip (docs/decisions.md); both steps read the cards' columns with their rows. The shape is the
 * focus category, whether there is a cursor and viewerShape.
 */
const pgSearchPage = queryTemplate<'viewer' | 'tsquery' | 'after0' | 'after1', SummaryRow>((db, a, shape) => {
  const [focusKey, page, who = ''] = shape.split(' ');
  const size = DIRECTORY_PAGE_SIZE;
  const match = pgSearchCondition(a.tsquery);
  const keyset = page === 'after' ? sql`and ${keysetAfter(['s.created_at', 's.id'], 'desc', [a.after0, a.after1])}` : sql``;
  const focus = focusKey ? inFocus(focusKey as FocusCategory) : sql<boolean>`true`;
  // The cards' own columns come with the hits: no second lookup of each row by its id.
  const columns = (table: string) => sql.join([...SUMMARY_COLUMNS, 'topics_json'].map((c) => sql.ref(`${table}.${c}`)));
  const hits = sql<SummaryColumns>`(with recent as materialized (
      select ${columns('w')} from (
        select ${columns('s')}, ${match} as hit, ${focus} as in_focus
        from supercurations s where s.is_public = 1 ${keyset}
        order by s.created_at desc, s.id desc limit ${sql.lit(PG_SEARCH_WINDOW)}
      ) w where hit and in_focus order by created_at desc, id desc limit ${sql.lit(size + 1)}
    ), rare as materialized (
      select ${columns('r')} from supercurations r where r.id in (
        select s.id from (select * from directory_hits(${pgTsqueryOf(a.tsquery)}) where (select count(*) from recent) <= ${sql.lit(size)}) s
        where s.is_public = 1 ${keyset} and ${focus}
        order by s.created_at desc, s.id desc limit ${sql.lit(size + 1)}
      )
    )
    select * from recent where (select count(*) from recent) > ${sql.lit(size)}
    union all select * from rare)`;
  return summaryRows(db, viewerOfShape(who, a.viewer), hits).orderBy('s.created_at', 'desc').orderBy('s.id', 'desc');
});

export function pgSearch(db: Q, viewer: Viewer | null, words: readonly string[], q: DirectoryParams): Promise<SummaryRow[]> {
  const after = q.cursor ? decodeKeyset(LIST_TAG, ['string', 'string'], q.cursor) : null;
  return pgSearchPage(
    db,
    { viewer: viewer?.id ?? '', tsquery: pgSearchText(words), after0: after?.[0] ?? '', after1: after?.[1] ?? '' },
    `${q.focus ?? ''} ${after ? 'after' : 'first'} ${viewerShape(viewer?.id)}`,
  );
}

/**
 * SQLite search: the FTS5 table drives, read in rowid order from the newest (rowid follows
 * insertion, which is creation order), so a page stops after 24 hits however common the words;
 * the cursor is the last rowid. The page's rows are read by rowid in the same query (an integer
 * key: no lookup through the text id's index), with their summary columns.
 */
async function sqliteSearch(
  db: Q,
  viewer: Viewer | null,
  words: readonly string[],
  q: DirectoryParams,
): Promise<Page<SupercurationSummary>> {
  const size = DIRECTORY_PAGE_SIZE;
  const after = q.cursor ? decodeKeyset(SEARCH_TAG, ['number'], q.cursor)[0] : undefined;
  const rows = await sqliteSearchPage(
    db,
    { viewer: viewer?.id ?? '', match: ftsMatch(words), after },
    `${q.focus ?? ''} ${after === undefined ? 'first' : 'after'} ${viewerShape(viewer?.id)}`,
  );
  const hasMore = rows.length > size;
  const hits = rows.slice(0, size);
  const last = hits[hits.length - 1];
  return {
    items: toSummaries(hits, viewer),
    hasMore,
    nextCursor: hasMore && last ? encodeKeyset(SEARCH_TAG, [Number(last.r)]) : null,
  };
}

/**
 * The rowids (r) of one page of search hits, one more than a page, newest first. Only public
 * collections are indexed (migration 0004's triggers): the collections table is read here only for
 * a focus; the page's query (sqliteSearchPage) reads each hit's row anyway.
 */
function sqliteSearchSql(match: string, focus: FocusCategory | undefined, after: unknown, size: number) {
  const from = focus
    ? sql`supercurations_search cross join supercurations s on s.rowid = supercurations_search.rowid`
    : sql`supercurations_search`;
  return sql<{ r: number }>`select supercurations_search.rowid as r from ${from}
    where supercurations_search match ${match}
    ${after === undefined ? sql`` : sql`and supercurations_search.rowid < ${after}`}
    ${focus ? sql`and ${inFocus(focus)}` : sql``}
    order by supercurations_search.rowid desc limit ${sql.lit(size + 1)}`;
}

export function sqliteSearchQuery(words: readonly string[], focus: FocusCategory | undefined, cursor: string | undefined, size: number) {
  const after = cursor ? decodeKeyset(SEARCH_TAG, ['number'], cursor)[0] : undefined;
  return sqliteSearchSql(ftsMatch(words), focus, after, size);
}

/** A search page's summary rows; the shape is the focus category, whether there is a cursor and viewerShape. */
const sqliteSearchPage = queryTemplate<'viewer' | 'match' | 'after', SummaryRow & { r: number }>((db, a, shape) => {
  const [focus, page, who = ''] = shape.split(' ');
  const hits = sqliteSearchSql(
    a.match,
    (focus || undefined) as FocusCategory | undefined,
    page === 'after' ? a.after : undefined,
    DIRECTORY_PAGE_SIZE,
  );
  return summaryRows(db, viewerOfShape(who, a.viewer))
    .select(sql<number>`s.rowid`.as('r'))
    .where(sql<boolean>`s.rowid in (select r from (${hits}))`)
    // What the index holds is public already; checked again where it costs nothing (the row is read).
    .where('s.is_public', '=', 1)
    .orderBy(sql`s.rowid`, 'desc');
});
