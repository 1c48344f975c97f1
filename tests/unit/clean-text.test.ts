import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  TEXT_MESSAGES,
  cleanText,
  createLinkSchema,
  createSupercurationSchema,
  profileUpdateSchema,
  registerSchema,
  setResourceTagsSchema,
  stripUnsafeText,
  tagInputSchema,
  topicInputSchema,
  topicUpdateSchema,
  updateLinkSchema,
  updateSupercurationSchema,
  updateTagCategorySchema,
} from '../../shared/domain';

const UNSAFE = {
  NUL: '\u0000',
  'BEL (C0)': '\u0007',
  DEL: '\u007f',
  'NEL U+0085 (C1)': '\u0085',
  'CSI U+009B (C1)': '\u009b',
  'LRE U+202A': '\u202a',
  'RLO U+202E': '\u202e',
  'LRI U+2066': '\u2066',
  'PDI U+2069': '\u2069',
};

const firstMessage = (result: { success: boolean; error?: z.ZodError }) =>
  result.success ? null : result.error?.issues[0]?.message;

describe('cleanText', () => {
  const line = cleanText().max(5, 'too long');
  const multiline = cleanText(undefined, { multiline: true });

  it.each(Object.entries(UNSAFE))('refuses %s, in one-line and multi-line text', (_name, char) => {
    expect(firstMessage(line.safeParse(`a${char}b`))).toBe(TEXT_MESSAGES.controlCharacters);
    expect(firstMessage(multiline.safeParse(`a${char}b`))).toBe(TEXT_MESSAGES.controlCharacters);
  });

  it('allows tab and newline only in multi-line text, where CRLF becomes LF', () => {
    for (const text of ['a\tb', 'a\nb', 'a\r\nb']) {
      expect(firstMessage(line.safeParse(text))).toBe(TEXT_MESSAGES.controlCharacters);
    }
    expect(multiline.parse('one\ttwo\r\nthree\rfour\n')).toBe('one\ttwo\nthree\nfour');
  });

  it('normalises to NFC and trims before the length rules count', () => {
    expect(line.parse(' e\u0301 ')).toBe('é');
    // Five letters once composed, ten code units as sent.
    expect(line.parse('e\u0301'.repeat(5))).toBe('é'.repeat(5));
    expect(firstMessage(line.safeParse('e\u0301'.repeat(6)))).toBe('too long');
  });

  it('keeps ordinary text: accents, emoji, right-to-left scripts, marks', () => {
    for (const text of ['Café', '日本語', 'שלום עולם', 'مرحبا\u200f', 'Hi 👋🏽']) expect(cleanText().parse(text)).toBe(text);
  });
});

describe('stripUnsafeText (imports)', () => {
  it.each(Object.entries(UNSAFE))('removes %s instead of refusing', (_name, char) => {
    expect(stripUnsafeText(`a${char}b`, { multiline: true })).toBe('ab');
    // NEL is a line break: a space in one-line text, like the others below.
    expect(stripUnsafeText(`a${char}b`)).toBe(char === '\u0085' ? 'a b' : 'ab');
  });

  it('turns tabs and line breaks of one-line text into a space, keeps them in multi-line text', () => {
    expect(stripUnsafeText('Title\twith\r\nbreaks\u0085here')).toBe('Title with breaks here');
    expect(stripUnsafeText('one\ttwo\r\nthree', { multiline: true })).toBe('one\ttwo\nthree');
  });

  it('normalises to NFC after stripping, and trims', () => {
    expect(stripUnsafeText('  e\u0000\u0301 ')).toBe('é');
    expect(stripUnsafeText('\u0000\u202e')).toBe('');
  });

  it('gives what cleanText accepts', () => {
    const samples = ['a\u0000\u0085\u202e\u2066b\u0007', ' e\u0301\t\nx ', 'plain'];
    for (const s of samples) {
      expect(cleanText().safeParse(stripUnsafeText(s)).success).toBe(true);
      expect(cleanText(undefined, { multiline: true }).safeParse(stripUnsafeText(s, { multiline: true })).success).toBe(true);
    }
  });
});

/** Every stored user-facing text of the shared schemas, and whether it may span lines. */
const FIELDS: { name: string; schema: z.ZodType; valid: Record<string, unknown>; field: string; multiline: boolean }[] = [
  { name: 'sign-up name', schema: registerSchema, valid: { name: 'Ann', email: 'ann@example.com', password: '12345678' }, field: 'name', multiline: false },
  { name: 'profile name', schema: profileUpdateSchema, valid: { name: 'Ann' }, field: 'name', multiline: false },
  { name: 'profile bio', schema: profileUpdateSchema, valid: { name: 'Ann', bio: 'x' }, field: 'bio', multiline: true },
  { name: 'profile location', schema: profileUpdateSchema, valid: { name: 'Ann', location: 'x' }, field: 'location', multiline: false },
  { name: 'link title', schema: createLinkSchema, valid: { title: 't', description: 'd' }, field: 'title', multiline: false },
  { name: 'link description', schema: createLinkSchema, valid: { title: 't', description: 'd' }, field: 'description', multiline: true },
  { name: 'link button text', schema: createLinkSchema, valid: { title: 't', description: 'd', linkText: 'Go' }, field: 'linkText', multiline: false },
  { name: 'edited link title', schema: updateLinkSchema, valid: { title: 't' }, field: 'title', multiline: false },
  { name: 'topic name', schema: topicInputSchema, valid: { name: 'AI', color: '#2563eb' }, field: 'name', multiline: false },
  { name: 'renamed topic', schema: topicUpdateSchema, valid: { name: 'AI' }, field: 'name', multiline: false },
  { name: 'collection title', schema: createSupercurationSchema, valid: { title: 't' }, field: 'title', multiline: false },
  { name: 'collection description', schema: createSupercurationSchema, valid: { title: 't', description: 'd' }, field: 'description', multiline: true },
  { name: 'edited collection title', schema: updateSupercurationSchema, valid: { title: 't' }, field: 'title', multiline: false },
  { name: 'tag category name', schema: updateTagCategorySchema, valid: { name: 'c' }, field: 'name', multiline: false },
  { name: 'tag', schema: tagInputSchema, valid: { name: 'tag' }, field: 'name', multiline: false },
];

describe.each(FIELDS)('$name', ({ schema, valid, field, multiline }) => {
  const parse = (value: string) => schema.safeParse({ ...valid, [field]: value });

  it('refuses control characters and bidi overrides', () => {
    for (const char of Object.values(UNSAFE)) expect(firstMessage(parse(`a${char}b`))).toBe(TEXT_MESSAGES.controlCharacters);
  });

  it(multiline ? 'keeps tab and newline' : 'refuses tab and newline', () => {
    const result = parse('a\tb\nc');
    if (multiline) expect((result.data as Record<string, unknown>)[field]).toBe('a\tb\nc');
    else expect(firstMessage(result)).toBe(TEXT_MESSAGES.controlCharacters);
  });

  it('stores NFC', () => {
    expect((parse('Cafe\u0301').data as Record<string, unknown>)[field]).toBe('Café');
  });
});

describe('profile website', () => {
  it('refuses control characters before it is checked as a URL', () => {
    expect(firstMessage(profileUpdateSchema.safeParse({ name: 'Ann', website: 'https://ann.dev/\u202e' }))).toBe(
      TEXT_MESSAGES.controlCharacters,
    );
  });
});

describe('resource tags', () => {
  it('are checked one by one like a new tag', () => {
    expect(firstMessage(setResourceTagsSchema.safeParse({ tags: ['ok', 'bad\u202e'] }))).toBe(TEXT_MESSAGES.controlCharacters);
    expect(setResourceTagsSchema.parse({ tags: ['Cafe\u0301'] }).tags).toEqual(['Café']);
  });
});
