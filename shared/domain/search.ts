import { z } from 'zod';
import { SEARCH_QUERY_MAX_LENGTH } from './constants';
import { SEARCH_MESSAGES } from './messages';
import { type Link, formatSchema } from './links';

/**
 * Personal search (issue 23): what the signed-in user saved, and the resources of the collections
 * they edit. The query syntax is parsed here (pure, shared by the server and the web app); the
 * server turns the result into an FTS5 MATCH or a tsquery (server/services/link-search.ts).
 */

const MAX_TERMS = 16;

/** Words of a search box: letters and digits of any script, at most 8, each at most 50 characters. */
export function searchWords(q: string): string[] {
  return q
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8)
    .map((w) => w.slice(0, 50));
}

/**
 * A word or a phrase (its words in order), matched whole; `word*` is a prefix: the beginning of
 * a word. (Prefixes are not the default: matching one reads every user's words that begin so, not
 * only the searcher's; docs/decisions.md, "Personal search".)
 */
export interface SearchTerm {
  words: string[];
  phrase: boolean;
  prefix: boolean;
}

export interface ParsedSearch {
  /** Every term must match. */
  terms: SearchTerm[];
  /** No term may match (`-word`, `-"a phrase"`). */
  excluded: SearchTerm[];
  /** `site:example.com`: the link's host is the domain or one of its subdomains. */
  sites: string[];
  /** `topic:name`: topic names, as typed. */
  topics: string[];
  /** `in:"collection title"`: titles, as typed. */
  collections: string[];
}

/** One token of the query: `-`? `operator:`? then a "quoted" or bare value. */
const TOKEN = /(-?)(?:([a-z]+):)?(?:"([^"]*)"?|(\S+))/gi;

/** A domain as a URL's host would have it (lower case, punycode), or null when it is none. */
function domainOf(value: string): string | null {
  const bare = value.replace(/^[a-z]+:\/\//i, '').split(/[/?#]/)[0] ?? '';
  if (!/^[^\s:@]+\.[^\s:@]+$/.test(bare)) return null;
  try {
    return new URL(`http://${bare}`).hostname.replace(/^www\./, '') || null;
  } catch {
    return null;
  }
}

/** A bare value's words: one word (a prefix when it ends with '*'), or several (e.g. 'x-2024', 'example.com') a phrase. */
function termOf(value: string, quoted: boolean): SearchTerm | null {
  const words = searchWords(value);
  if (words.length === 0) return null;
  const phrase = quoted || words.length > 1;
  return { words, phrase, prefix: !phrase && value.endsWith('*') };
}

/**
 * Reads a search box: words, "quoted phrases", -excluded words or phrases, site:domain,
 * topic:name and in:"collection title". Anything it cannot read as an operator is read as words,
 * so no query is an error. At most 16 terms.
 */
export function parseSearchQuery(q: string): ParsedSearch {
  const parsed: ParsedSearch = { terms: [], excluded: [], sites: [], topics: [], collections: [] };
  for (const [, minus, op, quotedValue, bareValue] of q.matchAll(TOKEN)) {
    const quoted = quotedValue !== undefined;
    const value = ((quoted ? quotedValue : bareValue) ?? '').trim().slice(0, 100);
    const operator = op?.toLowerCase() ?? '';
    const domain = operator === 'site' && !minus ? domainOf(value) : null;
    if (domain) parsed.sites.push(domain);
    else if ((operator === 'topic' || operator === 'in') && !minus && value) {
      (operator === 'topic' ? parsed.topics : parsed.collections).push(value);
    } else {
      const term = termOf(op ? `${op}:${value}` : value, quoted);
      if (term) (minus ? parsed.excluded : parsed.terms).push(term);
    }
  }
  let room = MAX_TERMS;
  for (const list of [parsed.terms, parsed.excluded, parsed.sites, parsed.topics, parsed.collections] as unknown[][]) {
    list.splice(Math.max(0, room));
    room -= list.length;
  }
  return parsed;
}

/** Whether a parsed query asks for anything at all. */
export function hasSearchCriteria(p: ParsedSearch): boolean {
  return p.terms.length + p.excluded.length + p.sites.length + p.topics.length + p.collections.length > 0;
}

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, SEARCH_MESSAGES.invalidDate)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), SEARCH_MESSAGES.invalidDate);

/** GET /api/search: the query, the feed's format and topic filters, a collection and saved-date range (UTC days, inclusive). */
export const searchQuerySchema = z
  .object({
    q: z.string().max(SEARCH_QUERY_MAX_LENGTH, SEARCH_MESSAGES.queryTooLong).default(''),
    format: formatSchema.optional(),
    topic: z.string().min(1).max(80).optional(),
    collection: z.string().min(1).max(80).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
    cursor: z.string().max(500).optional(),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { message: SEARCH_MESSAGES.dateOrder, path: ['from'] });
export type SearchQuery = z.input<typeof searchQuerySchema>;
export type SearchParams = z.output<typeof searchQuerySchema>;

export interface SearchHit {
  link: Link;
  /** HTML: the passage that matched, escaped, its matched words in <mark>. */
  snippet: string;
}
