import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeDocument, extractMetadata } from '../../server/preview/metadata';

/**
 * The extractor on the saved real-world pages of tests/fixtures/previews (see its README), against
 * the values written by hand in its manifest. Issue 19's bar: title ≥ 98 %, description ≥ 95 %,
 * image ≥ 95 % of pages right.
 */

interface Expected {
  page: string;
  url: string;
  title: string | null;
  description: string | null;
  image: string | null;
  siteName: string | null;
  author: string | null;
  /** YYYY-MM-DD as the page writes it. */
  publishedAt: string | null;
  /** The primary language subtag. */
  lang: string | null;
}

const HOUR_MS = 60 * 60 * 1000;
/** An instant that is on the day starting at `midnight` (UTC) in some time zone. */
const onDay = (instant: number, midnight: number) => instant >= midnight - 14 * HOUR_MS && instant < midnight + 36 * HOUR_MS;
const DIR = path.join(import.meta.dirname, '../fixtures/previews');
const corpus = JSON.parse(readFileSync(path.join(DIR, 'manifest.json'), 'utf8')) as Expected[];

/** Typographic quotes, a trailing ellipsis and runs of whitespace are not differences a reader sees. */
const same = (text: string | null) =>
  (text ?? '')
    .normalize('NFC')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/\s+/g, ' ')
    .replace(/(…|\.\.\.?)$/, '')
    .trim();

/** windows-1252 where it differs from ISO-8859-1: bytes 0x80–0x9F (five of them undefined). */
const HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/** The page in windows-1252, as such sites write it: what the encoding lacks as character references. */
function windows1252(html: string): Buffer {
  const byteOf = new Map(
    Array.from({ length: 256 }, (_, b) => [b >= 0x80 && b < 0xa0 ? (HIGH[b - 0x80] as string) : String.fromCharCode(b), b] as const),
  );
  const bytes: number[] = [];
  for (const char of html) {
    const byte = byteOf.get(char);
    if (byte !== undefined) bytes.push(byte);
    else bytes.push(...Buffer.from(`&#${char.codePointAt(0)};`, 'latin1'));
  }
  return Buffer.from(bytes);
}

describe('preview corpus', () => {
  const results = corpus.map((page) => {
    const html = readFileSync(path.join(DIR, page.page), 'utf8');
    const got = extractMetadata(html, new URL(page.url));
    return {
      page: page.page,
      title: same(got.title) === same(page.title),
      description: same(got.description) === same(page.description),
      image: got.image === page.image,
      siteName: same(got.facts.siteName) === same(page.siteName),
      author: same(got.facts.author) === same(page.author),
      // The page's own date; ours is the instant, on that day in some time zone (UTC−12 to UTC+14).
      publishedAt:
        page.publishedAt === null
          ? got.facts.publishedAt === null
          : got.facts.publishedAt !== null && onDay(Date.parse(got.facts.publishedAt), Date.parse(page.publishedAt)),
      lang: (got.facts.lang?.split('-')[0]?.toLowerCase() ?? null) === page.lang,
    };
  });
  type Field = keyof Omit<(typeof results)[number], 'page'>;
  const rate = (field: Field) => results.filter((r) => r[field]).length / results.length;
  const misses = (field: Field) => results.filter((r) => !r[field]).map((r) => r.page);

  it('reads a page in windows-1252 from its <meta charset> or the Content-Type', () => {
    const page = corpus.find((p) => p.page === 'the-verge.html') as Expected;
    const utf8 = readFileSync(path.join(DIR, page.page), 'utf8');
    const legacy = windows1252(utf8.replace('<meta charset="utf-8">', '<meta charset="windows-1252">'));
    expect(legacy.includes(0x92)).toBe(true); // ’, which UTF-8 would write in three bytes
    const expected = extractMetadata(utf8, new URL(page.url));
    expect(expected.title).toContain('Amazon’s');
    expect(extractMetadata(decodeDocument(legacy, 'text/html'), new URL(page.url))).toEqual(expected);
    const undeclared = windows1252(utf8.replace('<meta charset="utf-8">', ''));
    expect(extractMetadata(decodeDocument(undeclared, 'text/html; charset=windows-1252'), new URL(page.url))).toEqual(expected);
  });

  it('holds at least 40 pages', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
  });

  it.each([
    ['title', 0.98],
    ['description', 0.95],
    ['image', 0.95],
    // Facts (no bar in the issue): floors a little under today's rates, which decisions.md explains.
    ['siteName', 0.85],
    ['author', 0.7],
    ['publishedAt', 0.65],
    ['lang', 0.95],
  ] as const)('gets the %s right on enough pages', (field, floor) => {
    console.log(`${field}: ${(100 * rate(field)).toFixed(1)} % of ${results.length}; missed ${misses(field).join(', ')}`);
    expect(rate(field)).toBeGreaterThanOrEqual(floor);
  });
});
