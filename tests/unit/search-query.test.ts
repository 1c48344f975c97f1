import { describe, expect, it } from 'vitest';
import { hasSearchCriteria, parseSearchQuery } from '../../shared/domain';
import { searchSnippet } from '../../server/services/search-snippet';

const word = (w: string) => ({ words: [w], phrase: false, prefix: false });
const prefix = (w: string) => ({ words: [w], phrase: false, prefix: true });
const phrase = (...words: string[]) => ({ words, phrase: true, prefix: false });

describe('parseSearchQuery', () => {
  it('reads words, phrases, exclusions and operators', () => {
    expect(parseSearchQuery('design "type scale" -draft -"old news" site:www.Example.com topic:ux in:"My list"')).toEqual({
      terms: [word('design'), phrase('type', 'scale')],
      excluded: [word('draft'), phrase('old', 'news')],
      sites: ['example.com'],
      topics: ['ux'],
      collections: ['My list'],
    });
  });

  it('reads word* as a prefix, never a phrase or a quoted word', () => {
    expect(parseSearchQuery('photo* "photo*" -draft* x-20*').terms).toEqual([prefix('photo'), phrase('photo'), phrase('x', '20')]);
    expect(parseSearchQuery('-draft*').excluded).toEqual([prefix('draft')]);
  });

  it('reads a word with inner punctuation as a phrase, and a site given as a URL', () => {
    expect(parseSearchQuery('x-2024 example.com site:https://blog.example.org/a?b').terms).toEqual([phrase('x', '2024'), phrase('example', 'com')]);
    expect(parseSearchQuery('site:https://blog.example.org/a?b').sites).toEqual(['blog.example.org']);
  });

  it('never fails: stray quotes, empty or unknown operators and bad domains are words or nothing', () => {
    expect(parseSearchQuery('"unclosed phrase')).toMatchObject({ terms: [phrase('unclosed', 'phrase')] });
    expect(parseSearchQuery('site: topic: in:"" - "" foo:bar site:nodomain')).toEqual({
      terms: [word('site'), word('topic'), phrase('in'), phrase('foo', 'bar'), phrase('site', 'nodomain')],
      excluded: [],
      sites: [],
      topics: [],
      collections: [],
    });
    expect(hasSearchCriteria(parseSearchQuery('  -  "" '))).toBe(false);
  });

  it('keeps at most 16 terms, and 8 words of 50 characters a term', () => {
    const parsed = parseSearchQuery(Array.from({ length: 20 }, (_, i) => `w${i}`).join(' '));
    expect(parsed.terms).toHaveLength(16);
    expect(parseSearchQuery(`"${'a '.repeat(10)}" ${'b'.repeat(60)}`).terms.map((t) => t.words.length)).toEqual([8, 1]);
    expect(parseSearchQuery('b'.repeat(60)).terms[0]?.words[0]).toHaveLength(50);
  });
});

describe('searchSnippet', () => {
  it('marks matched words (whole, or begun by a prefix term; accents folded) and escapes the rest', () => {
    expect(searchSnippet(['<i>Crème</i> & "cremation"'], [word('creme')])).toBe('&lt;i&gt;<mark>Crème</mark>&lt;/i&gt; &amp; &quot;cremation&quot;');
    expect(searchSnippet(['Cremation crem'], [word('crem')])).toBe('Cremation <mark>crem</mark>');
    expect(searchSnippet(['Cremation'], [prefix('crem')])).toBe('<mark>Cremation</mark>');
  });

  it('takes the first text with a match and cuts a passage around it', () => {
    const text = `${'lorem '.repeat(60)}needle ${'ipsum '.repeat(60)}`;
    const snippet = searchSnippet(['no match here', text], [word('needle')]);
    expect(snippet).toMatch(/^…(lorem )+<mark>needle<\/mark>( ipsum)+…$/);
    expect(snippet.length).toBeLessThan(260);
    expect(searchSnippet(['Plain description', text], [])).toBe('Plain description');
  });
});
