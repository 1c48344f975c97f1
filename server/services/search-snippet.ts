import type { SearchTerm } from '../../shared/domain';
import { foldAccents, foldedPattern } from '../db/search';
import { escapeHtml } from '../mail/render';

/** About this many characters of the passage around the first match. */
const LENGTH = 220;
/** How much of the passage comes before the first match. */
const LEAD = 60;
const LETTER = '[\\p{L}\\p{N}]';

/**
 * The words the query looks for, as one regular expression: each word of a term whole, or a
 * prefix term's beginning with the rest of its word; accents and case folded as the index folds them.
 */
function wordsPattern(terms: readonly SearchTerm[]): RegExp | null {
  const alternatives = new Set(
    terms.flatMap((t) => t.words.map((w) => `${foldedPattern(foldAccents(w))}${t.prefix ? `${LETTER}*` : `(?!${LETTER})`}`)),
  );
  if (alternatives.size === 0) return null;
  return new RegExp(`(?<!${LETTER})(?:${[...alternatives].join('|')})`, 'giu');
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
 * every matched word in <mark>, everything else escaped. Only the passage's surroundings are
 * read past the first match: a readable text runs to 200,000 characters.
 */
export function searchSnippet(texts: readonly string[], terms: readonly SearchTerm[]): string {
  const words = wordsPattern(terms);
  const candidates = texts.filter((t) => /\S/.test(t));
  let text = candidates[0] ?? '';
  let at = 0;
  for (const t of candidates) {
    const found = words ? t.search(words) : -1;
    if (found >= 0) {
      text = t;
      at = found;
      break;
    }
  }
  // Spaces folded in a window around the match: a generous margin, as folding only shortens it.
  const from = Math.max(0, at - 4 * LEAD);
  const to = Math.min(text.length, at + 4 * LENGTH);
  const before = text.slice(from, at).replace(/\s+/g, ' ');
  let flat = `${before}${text.slice(at, to).replace(/\s+/g, ' ')}`;
  let matchAt = before.length;
  if (from === 0) {
    const trimmed = flat.trimStart();
    matchAt -= flat.length - trimmed.length;
    flat = trimmed;
  }
  if (to === text.length) flat = flat.trimEnd();
  const { start, end } = passage(flat, matchAt);
  const cut = flat.slice(start, end);
  let html = '';
  let last = 0;
  if (words) {
    for (const m of cut.matchAll(words)) {
      html += `${escapeHtml(cut.slice(last, m.index))}<mark>${escapeHtml(m[0])}</mark>`;
      last = m.index + m[0].length;
    }
  }
  html += escapeHtml(cut.slice(last));
  return `${start > 0 || from > 0 ? '…' : ''}${html}${end < flat.length || to < text.length ? '…' : ''}`;
}
