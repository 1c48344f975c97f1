import { type Kysely, type RawBuilder, sql } from 'kysely';
import {
  FEED_PAGE_SIZE,
  LINK_MESSAGES,
  type Page,
  type ParsedSearch,
  SEARCH_MESSAGES,
  type SearchHit,
  type SearchParams,
  type SearchTerm,
  hasSearchCriteria,
  parseSearchQuery,
} from '../../shared/domain';
import type { Db } from '../db';
import { decodeKeyset, encodeKeyset } from '../db/keyset';
import { LINK_SEARCH_COLUMNS, authorReader, collectionReader, copyText } from '../db/link-search';
import { isPostgres } from '../db/query-templates';
import type { Database } from '../db/schema';
import { ftsMatch, pgLexeme, pgTsquery } from '../db/search';
import { badRequest } from '../errors';
import { linkSearchableBy } from '../policies/links';
import { supercurationVisibleTo } from '../policies/supercurations';
import type { Viewer } from '../policies/viewer';
import { linkCards, toLinks } from './links';
import { searchSnippet } from './search-snippet';
import { topicIdFor } from './topics';

/**
 * Personal search (issue 23): the viewer's links and the resources of the collections they edit,
 * ranked by the index of server/db/link-search.ts (title over description and topics over domain
 * over readable text), newest first without words to rank by. The index is read for the viewer's
 * readers only (their own and their collections' tokens), so a search costs what the viewer has
 * saved, not what everyone has; linkSearchableBy then decides each result, so a collaborator
 * removed or a link turned private changes the results at once.
 */

type Q = Kysely<Database>;

/** FTS5 bm25 weights of title, description, topics, domain and text (the table's column order); readers count for nothing. */
const BM25 = sql.raw('bm25(link_search, 8.0, 4.0, 4.0, 2.0, 1.0, 0.0)');
/** An FTS5 column filter of the searchable columns (not the readers). */
const CONTENT = `{${LINK_SEARCH_COLUMNS.join(' ')}}`;
/** Pages are numbered by offset: a ranked order has no stable key to resume from. Deeper pages are not served. */
const MAX_OFFSET = 1000;

const ftsTerm = (t: SearchTerm, exact: boolean) => (t.phrase || exact ? `"${t.words.join(' ')}"` : ftsMatch(t.words));
const pgTerm = (t: SearchTerm, exact: boolean) =>
  t.phrase ? `(${t.words.map(pgLexeme).join(' <-> ')})` : `${pgLexeme(t.words[0] as string)}${exact ? '' : ':*'}`;

/** The reader tokens of the viewer's documents: theirs, and those of the collections they own or collaborate on. */
async function readersOf(db: Q, viewerId: string): Promise<string[]> {
  const collections = await db
    .selectFrom('supercurations')
    .select('id')
    .where('user_id', '=', viewerId)
    .union(db.selectFrom('collaborators').select('supercuration_id as id').where('user_id', '=', viewerId))
    .execute();
  return [authorReader(viewerId), ...collections.map((c) => collectionReader(c.id))];
}

/** FTS5: the viewer's documents matching every term and none of the excluded ones. */
function ftsMatchOf(readers: readonly string[], parsed: ParsedSearch): string {
  let match = `{readers}: (${readers.join(' OR ')})`;
  if (parsed.terms.length > 0) match += ` AND ${CONTENT}: (${parsed.terms.map((t) => ftsTerm(t, false)).join(' AND ')})`;
  if (parsed.excluded.length > 0) match += ` NOT ${CONTENT}: (${parsed.excluded.map((t) => ftsTerm(t, true)).join(' OR ')})`;
  return match;
}

/** PostgreSQL: every term and none of the excluded ones, as to_tsquery text. */
function pgQueryOf(parsed: ParsedSearch): string {
  const parts = parsed.terms.map((t) => pgTerm(t, false));
  if (parsed.excluded.length > 0) parts.push(`!(${parsed.excluded.map((t) => pgTerm(t, true)).join(' | ')})`);
  return parts.join(' & ');
}

const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();

async function searchQuery(db: Q, viewerId: string, parsed: ParsedSearch, p: SearchParams) {
  const pg = isPostgres(db);
  let query = linkCards(db, viewerId).where(linkSearchableBy(viewerId));
  const ranked = parsed.terms.length > 0;
  if (ranked || parsed.excluded.length > 0) {
    const readers = await readersOf(db, viewerId);
    if (pg) {
      const tsquery = pgTsquery(pgQueryOf(parsed));
      query = query.innerJoin(sql<{ link_id: string }>`link_search`.as('ls'), (j) =>
        j.on(sql<boolean>`ls.link_id = links.id and ls.doc @@ ${tsquery} and ls.readers && ${readers}::text[]`),
      );
      if (ranked) query = query.orderBy(sql`ts_rank(ls.doc, ${tsquery}, 1)`, 'desc');
    } else {
      const rank = ranked ? BM25 : sql.lit(0);
      query = query.innerJoin(
        sql<{ rowid: number }>`(select rowid, ${rank} as rank from link_search where link_search match ${ftsMatchOf(readers, parsed)})`.as('ls'),
        (j) => j.on(sql<boolean>`ls.rowid = links.rowid`),
      );
      if (ranked) query = query.orderBy(sql`ls.rank`);
    }
  }
  for (const site of parsed.sites) query = query.where(siteCondition(pg, site));
  for (const topic of [...parsed.topics.map(topicIdFor), ...(p.topic ? [p.topic] : [])]) {
    query = query.where(sql<boolean>`exists (select 1 from link_topics lt where lt.link_id = links.id and lt.topic_id = ${topic})`);
  }
  for (const title of parsed.collections) query = query.where(inCollection(viewerId, sql`lower(sc.title) = lower(${title})`));
  if (p.collection) query = query.where(inCollection(viewerId, sql`sc.id = ${p.collection}`));
  if (p.format) query = query.where('links.format', '=', p.format);
  if (p.from) query = query.where('links.created_at', '>=', `${p.from}T00:00:00.000Z`);
  if (p.to) query = query.where('links.created_at', '<', dayAfter(p.to));
  return query.orderBy('links.created_at', 'desc').orderBy('links.id', 'desc');
}

/** In a collection the viewer may see that meets `condition` (on `supercurations as sc`). */
function inCollection(viewerId: string, condition: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from supercuration_links scl inner join supercurations sc on sc.id = scl.supercuration_id where scl.link_id = links.id and ${condition} and ${supercurationVisibleTo(viewerId, 'sc')})`;
}

/** The host of links.url (stored normalised: scheme://host[:port]/…). */
function linkHost(pg: boolean): RawBuilder<string> {
  if (pg) return sql<string>`split_part(split_part(split_part(links.url, '://', 2), '/', 1), ':', 1)`;
  const rest = sql`substr(links.url, instr(links.url, '://') + 3)`;
  const hostPort = sql`substr(${rest}, 1, instr(${rest} || '/', '/') - 1)`;
  return sql<string>`substr(${hostPort}, 1, instr(${hostPort} || ':', ':') - 1)`;
}

/** site:domain — the link's host is the domain or one of its subdomains. */
function siteCondition(pg: boolean, domain: string): RawBuilder<boolean> {
  const host = linkHost(pg);
  return sql<boolean>`(${host} = ${domain} or ${host} like ${`%.${domain.replace(/[\\%_]/g, (c) => `\\${c}`)}`} escape '\\')`;
}

/** GET /api/search: a page of results, each its link (as the feed shows it) and a snippet. */
export async function searchLinks(db: Db, viewer: Viewer, p: SearchParams): Promise<Page<SearchHit>> {
  const parsed = parseSearchQuery(p.q);
  if (!hasSearchCriteria(parsed) && !p.format && !p.topic && !p.collection && !p.from && !p.to) throw badRequest(SEARCH_MESSAGES.emptyQuery);
  const offset = p.cursor ? (decodeKeyset('search', ['number'], p.cursor)[0] as number) : 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET) throw badRequest(LINK_MESSAGES.invalidCursor);
  const rows = await (await searchQuery(db.kysely, viewer.id, parsed, p))
    .limit(sql.lit(FEED_PAGE_SIZE + 1))
    .offset(offset)
    .execute();
  const hasMore = rows.length > FEED_PAGE_SIZE && offset + FEED_PAGE_SIZE <= MAX_OFFSET;
  const page = rows.slice(0, FEED_PAGE_SIZE);
  const texts = await readableTexts(db.kysely, page.map((r) => r.id));
  const links = await toLinks(db.kysely, page, viewer);
  return {
    items: links.map((link) => ({ link, snippet: searchSnippet([link.description, texts.get(link.id) ?? ''], parsed.terms) })),
    nextCursor: hasMore ? encodeKeyset('search', [offset + FEED_PAGE_SIZE]) : null,
    hasMore,
  };
}

async function readableTexts(db: Q, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('link_copies').select(['link_id', 'text_gz']).where('link_id', 'in', ids).where('text_gz', 'is not', null).execute();
  return new Map(rows.map((r) => [r.link_id, copyText(r.text_gz)]));
}
