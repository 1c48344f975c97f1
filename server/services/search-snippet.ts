import type { SearchTerm } from '../../shared/domain';
import { foldAccents } from '../db/search';
import { escapeHtml } from '../mail/render';

/** About this many characters of the passage around the first match. */
const LENGTH = 220;
/** How much of the passage comes before the first match. */
const LEAD = 60;
const WORD = /[\p{L}\p{N}]+/gu;

/** Whether a word of a text is one the query looks for: a prefix of a word term, a whole word of a phrase (folded alike). */
function wordMatcher(terms: readonly SearchTerm[]): (word: string) => boolean {
  const prefixes = terms.filter((t) => !t.phrase).flatMap((t) => t.words.map(foldAccents));
  const wholes = new Set(terms.filter((t) => t.phrase).flatMap((t) => t.words.map(foldAccents)));
  return (word) => {
    const folded = foldAccents(word);
    return wholes.has(folded) || prefixes.some((p) => folded.startsWith(p));
  };
}

function firstMatch(text: string, matches: (word: string) => boolean): number {
  for (const m of text.matchAll(WORD)) if (matches(m[0])) return m.index;
  return -1;
}

/** The passage around `at`, cut at spaces. */
function passage(text: string, at: number): { start: number; end: number } {
  let start = Math.max(0, at - LEAD);
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  let end = Math.min(text.length, start + LENGTH);
  if (end < text.length) end = text.lastIndexOf(' ', end) > start ? text.lastIndexOf(' ', end) : end;
  return { start, end };
}

/**
 * The snippet of a search result, as HTML: a passage of the first of `texts` (description, then
 * readable text) holding a word of the query, else the start of the first that isn't empty;
 * every matched word in <mark>, everything else escaped.
 */
export function searchSnippet(texts: readonly string[], terms: readonly SearchTerm[]): string {
  const matches = wordMatcher(terms);
  const candidates = texts.map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean);
  let text = candidates[0] ?? '';
  let at = 0;
  for (const t of candidates) {
    const found = terms.length > 0 ? firstMatch(t, matches) : -1;
    if (found >= 0) {
      text = t;
      at = found;
      break;
    }
  }
  const { start, end } = passage(text, at);
  const cut = text.slice(start, end);
  let html = '';
  let last = 0;
  for (const m of cut.matchAll(WORD)) {
    if (!matches(m[0])) continue;
    html += `${escapeHtml(cut.slice(last, m.index))}<mark>${escapeHtml(m[0])}</mark>`;
    last = m.index + m[0].length;
  }
  html += escapeHtml(cut.slice(last));
  return `${start > 0 ? '…' : ''}${html}${end < text.length ? '…' : ''}`;
}
