import { z } from 'zod';

export const TEXT_MESSAGES = {
  controlCharacters: "Text can't contain control characters",
} as const;

// Control characters (C0, DEL, C1) and the bidi embeddings, overrides and isolates, which can make
// text display as something else than it is (U+202E turns 'txt.exe' around).
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_MULTILINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** The control characters that only break lines or space words: a space in one-line text when stripped. */
const SPACING_CONTROLS = /[\t\n\v\f\r\u0085]+/g;

const global = (re: RegExp) => new RegExp(re.source, 'g');
const UNSAFE_IN_LINE_ALL = global(UNSAFE_IN_LINE);
const UNSAFE_IN_MULTILINE_ALL = global(UNSAFE_IN_MULTILINE);

/** CRLF and lone CR, as some clients send line breaks, become LF. */
const unixLineBreaks = (text: string) => text.replace(/\r\n?/g, '\n');

interface TextOptions {
  /** Keep tab and newline (descriptions, bio). Off: one line of text (names, titles, tags). */
  multiline?: boolean;
}

/**
 * Every stored user-facing string: NFC, trimmed, and refused with TEXT_MESSAGES.controlCharacters
 * when it holds a control character or a bidi override (tab and newline are allowed in multi-line
 * text, where CRLF becomes LF). Chain length rules after it: they count the normalised text.
 */
export function cleanText(params?: Parameters<typeof z.string>[0], { multiline = false }: TextOptions = {}) {
  const unsafe = multiline ? UNSAFE_IN_MULTILINE : UNSAFE_IN_LINE;
  const normalized = z.string(params).normalize('NFC');
  return (multiline ? normalized.overwrite(unixLineBreaks) : normalized)
    .trim()
    .refine((text) => !unsafe.test(text), { error: TEXT_MESSAGES.controlCharacters });
}

/**
 * What cleanText would store, with the characters it refuses removed instead (imports keep the
 * row): NFC, trimmed. In one-line text, tabs and line breaks become one space rather than gluing
 * words together.
 */
export function stripUnsafeText(text: string, { multiline = false }: TextOptions = {}): string {
  const cleaned = multiline
    ? unixLineBreaks(text).replace(UNSAFE_IN_MULTILINE_ALL, '')
    : text.replace(SPACING_CONTROLS, ' ').replace(UNSAFE_IN_LINE_ALL, '');
  // Normalised after stripping: a removed character may have kept a letter and its accent apart.
  return cleaned.normalize('NFC').trim();
}

/** Text as a regular expression that matches it literally (also under the 'u' flag). */
export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** At most `max` UTF-16 units (what the schemas count), never splitting a surrogate pair; a cut text ends with "…". */
export function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}
