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
import { pgLexeme, pgTsquery } from '../db/search';
import { badRequest } from '../errors';
import { linkSearchableBy } from '../policies/links';
import { supercurationVisibleTo } from '../policies/supercurations';
import type { Viewer } from '../policies/viewer';
import { linksInOrder } from './links';
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

/**
 * The rank: a match in the title first, then in the description, topics or domain, then in the
 * readable text only; newest first within each. No bm25 or ts_rank: both weigh a word by how
 * many of all users' documents hold it, which reads every match in the index, not the searcher's.
 * On SQLite each tier is one more query of the index, for the searcher's documents.
 */
const TIERS = [['title'], ['description', 'topics', 'domain']] as const;
/** PostgreSQL: the head's weights of those columns (server/db/link-search.ts). */
const PG_TIER_WEIGHTS = ['A', 'BC'] as const;
/** Pages are numbered by offset: a ranked order has no stable key to resume from. Deeper pages are not served. */
const MAX_OFFSET = 1000;

const ftsColumns = (columns: readonly string[]) => `{${columns.join(' ')}}`;
const ftsTerm = (t: SearchTerm) => `"${t.words.join(' ')}"${t.prefix ? '*' : ''}`;
/** A term as to_tsquery text, its lexemes restricted to these weights when given. */
const pgTerm = (t: SearchTerm, weights = '') => {
  const lexeme = (w: string) => `${pgLexeme(w)}${t.prefix || weights ? `:${t.prefix ? '*' : ''}${weights}` : ''}`;
  return `(${t.words.map(lexeme).join(' <-> ')})`;
};

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
  const content = ftsColumns(LINK_SEARCH_COLUMNS);
  let match = ftsReaders(readers);
  if (parsed.terms.length > 0) match = `(${match} AND ${content}: (${parsed.terms.map(ftsTerm).join(' AND ')}))`;
  // NOT binds tighter than AND in FTS5: without the parentheses, the terms NOT the exclusions
  // would be read through every user's documents before the readers narrowed them.
  if (parsed.excluded.length > 0) match += ` NOT ${content}: (${parsed.excluded.map(ftsTerm).join(' OR ')})`;
  return match;
}

const ftsReaders = (readers: readonly string[]) => `{readers}: (${readers.map((r) => `"${r}"`).join(' OR ')})`;

/** SQLite: the tier of `links` (0 first), each tier the viewer's documents with a term in its columns. */
function ftsTier(readers: readonly string[], terms: readonly SearchTerm[]): RawBuilder<number> {
  const any = terms.map(ftsTerm).join(' OR ');
  const cases = TIERS.map(
    (columns, i) =>
      sql`when links.rowid in (select rowid from link_search where link_search match ${`${ftsReaders(readers)} AND ${ftsColumns(columns)}: (${any})`}) then ${sql.lit(i)}`,
  );
  return sql<number>`case ${sql.join(cases, sql` `)} else ${sql.lit(TIERS.length)} end`;
}

/**
 * PostgreSQL: the index's condition (every term, and the viewer's readers) and the excluded words
 * as a filter after it. An exclusion in the index's query would have GIN read every entry of the
 * documents' column when there is no term to start from. The readers go as one string, not an
 * array parameter: the statement is then prepared once per connection (server/db/index.ts), where
 * parsing and planning it anew cost ~3.5 ms of a 4 ms search.
 */
function pgMatch(parsed: ParsedSearch, readers: readonly string[]): RawBuilder<boolean> {
  const conditions = [sql`ls.readers && string_to_array(${readers.join(' ')}, ' ')`];
  if (parsed.terms.length > 0) conditions.push(sql`ls.doc @@ ${pgTsquery(parsed.terms.map((t) => pgTerm(t)).join(' & '))}`);
  if (parsed.excluded.length > 0) conditions.push(sql`not ls.doc @@ ${pgTsquery(parsed.excluded.map((t) => pgTerm(t)).join(' | '))}`);
  return sql.join(conditions, sql` and `) as RawBuilder<boolean>;
}

/** PostgreSQL: the tier, from the small head vector (no readable text to read). */
function pgTier(terms: readonly SearchTerm[]): RawBuilder<number> {
  const cases = PG_TIER_WEIGHTS.map(
    (weights, i) => sql`when ls.head @@ ${pgTsquery(terms.map((t) => pgTerm(t, weights)).join(' | '))} then ${sql.lit(i)}`,
  );
  return sql<number>`case ${sql.join(cases, sql` `)} else ${sql.lit(PG_TIER_WEIGHTS.length)} end`;
}

const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();

async function searchQuery(db: Q, viewerId: string, parsed: ParsedSearch, p: SearchParams) {
  const pg = isPostgres(db);
  // Only ids here: the cards of a page are read after the sort (linksInOrder), not for every match.
  let query = db.selectFrom('links').select('links.id').where(linkSearchableBy(viewerId));
  const ranked = parsed.terms.length > 0;
  if (ranked || parsed.excluded.length > 0) {
    const readers = await readersOf(db, viewerId);
    if (pg) {
      query = query.innerJoin(sql<{ link_id: string }>`link_search`.as('ls'), (j) => j.on(sql<boolean>`ls.link_id = links.id and ${pgMatch(parsed, readers)}`));
      if (ranked) query = query.orderBy(pgTier(parsed.terms));
    } else {
      query = query.innerJoin(sql<{ rowid: number }>`(select rowid from link_search where link_search match ${ftsMatchOf(readers, parsed)})`.as('ls'), (j) =>
        j.on(sql<boolean>`ls.rowid = links.rowid`),
      );
      if (ranked) query = query.orderBy(ftsTier(readers, parsed.terms));
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
  const ids = rows.slice(0, FEED_PAGE_SIZE).map((r) => r.id);
  const texts = await readableTexts(db.kysely, ids);
  const links = await linksInOrder(db.kysely, ids, viewer);
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
