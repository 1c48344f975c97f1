import { type RawBuilder, sql } from 'kysely';
import { escapeRegExp } from '../../shared/domain/text';

/**
 * Directory search over public collections' title and description, index-backed on both databases
 * (migration 0004):
 * - SQLite: the FTS5 table `supercurations_search` (unicode61 tokenizer, diacritics removed,
 *   prefix indexes), kept in sync with public rows of `supercurations` by triggers; its rowid is the
 *   collection's rowid. Queries drive from it in rowid order (services/directory.ts).
 * - PostgreSQL: a stored generated tsvector column `search_doc` (pgSearchDocument()) with a GIN
 *   index. The 'simple' configuration (no stemming, no stop words) and a translate() accent fold
 *   keep it extension-free. Queries: services/directory.ts (pgSearch).
 * Every word of the query must match the start of a word of the title or description.
 */

/** Latin letters with diacritics (both cases) and their plain lowercase letter, for translate(). */
function accentFold(): { from: string; to: string } {
  let from = '';
  let to = '';
  for (let code = 0xc0; code <= 0x24f; code += 1) {
    const ch = String.fromCharCode(code);
    const plain = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
    if (/^[a-z]$/.test(plain) && plain !== ch) {
      from += ch;
      to += plain;
    }
  }
  const extra: Record<string, string> = { ø: 'o', Ø: 'o', ł: 'l', Ł: 'l', đ: 'd', Đ: 'd', ħ: 'h', Ħ: 'h', ı: 'i', ß: 's' };
  for (const [k, v] of Object.entries(extra)) {
    if (!from.includes(k)) {
      from += k;
      to += v;
    }
  }
  return { from, to };
}

// Frozen by migration 0004: changing these strings needs a new migration that rebuilds the index.
const FOLD = accentFold();
const FOLD_FROM = FOLD.from.replace(/'/g, "''");
const FOLD_TO = FOLD.to.replace(/'/g, "''");
const FOLD_MAP = new Map([...FOLD.from].map((ch, i) => [ch, FOLD.to[i] as string]));

const FOLDABLE = new RegExp(`[${escapeRegExp(FOLD.from)}]`, 'gu');

const foldLetters = (text: string) => text.replace(FOLDABLE, (ch) => FOLD_MAP.get(ch) as string);

/**
 * The fold of pgFold in JavaScript: lower case, Latin letters without their diacritics. Letters
 * are folded before lower-casing too, which PostgreSQL's lower() does not expand ('İ' is 'i', not
 * 'i' and a dot). PostgreSQL's translate() looks each character up in the whole list of folded
 * letters; this is a pass of a regular expression.
 */
export const foldAccents = (text: string) => foldLetters(foldLetters(text).toLowerCase());

const FOLDED_FROM = new Map<string, string>();
for (const [ch, plain] of FOLD_MAP) FOLDED_FROM.set(plain, (FOLDED_FROM.get(plain) ?? '') + ch);

/**
 * A regular expression source (for the 'iu' flags) matching every spelling that foldAccents
 * folds to this folded word: 'creme' matches 'Crème'. Searching a text with it costs a regular
 * expression's scan, not a fold of every word.
 */
export const foldedPattern = (folded: string) =>
  [...folded].map((ch) => (FOLDED_FROM.has(ch) ? `[${escapeRegExp(ch + (FOLDED_FROM.get(ch) as string))}]` : escapeRegExp(ch))).join('');

/** A text expression lower-cased and folded (PostgreSQL), as foldAccents folds it: the directory's documents. */
export const pgFold = (text: string) => `translate(lower(${text}), '${FOLD_FROM}', '${FOLD_TO}')`;

/** The indexed document (PostgreSQL): the expression of the generated column supercurations.search_doc. */
export const pgSearchDocument = () => `to_tsvector('simple'::regconfig, ${pgFold(`title || ' ' || description`)})`;

export { searchWords } from '../../shared/domain/search';

/** FTS5 MATCH expression: every word as a quoted prefix ("word"*), implicitly AND-ed. */
export function ftsMatch(words: readonly string[]): string {
  return words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' ');
}

/** A lexeme in to_tsquery syntax, quoted. */
export const pgLexeme = (word: string) => `'${word.replace(/'/g, "''").replace(/\\/g, '\\\\')}'`;

/**
 * PostgreSQL: the tsquery of `query` (to_tsquery syntax), folded like the personal search's
 * documents (foldAccents, server/db/link-search.ts). A scalar subquery: PostgreSQL builds it once
 * per statement, also in a generic plan.
 */
export const pgTsquery = (query: string): RawBuilder<unknown> => pgTsqueryOf(foldAccents(query));

/** pgTsquery of a query already folded (pgSearchText), or of a query template's placeholder. */
export const pgTsqueryOf = (folded: string): RawBuilder<unknown> => sql`(select to_tsquery('simple'::regconfig, ${folded}))`;

/** A directory search's tsquery text: each word as a quoted prefix lexeme, 'word':* & 'other':*, folded like the document. */
export const pgSearchText = (words: readonly string[]) => foldAccents(words.map((w) => `${pgLexeme(w)}:*`).join(' & '));

/** PostgreSQL: a condition on `supercurations as s` that its title and description match a directory search (pgSearchText). */
export function pgSearchCondition(searchText: string): RawBuilder<boolean> {
  return sql<boolean>`s.search_doc @@ ${pgTsqueryOf(searchText)}`;
}
