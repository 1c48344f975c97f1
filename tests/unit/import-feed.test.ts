import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEED_IMPORT_MESSAGES } from '../../shared/domain';
import type { ParsedBookmark } from '../../server/services/bookmark-file';
import { readFeed } from '../../server/services/import-feed';
import { comparableBookmark } from '../support/bookmark-files';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../fixtures/imports', name));

/** The bookmarks a feed reads to, as served from `at` with `contentType`. */
async function read(body: Buffer, { at = 'https://feeds.example/feed.xml', contentType = 'application/rss+xml', max }: { at?: string; contentType?: string; max?: number } = {}) {
  const found: ParsedBookmark[] = [];
  const result = await readFeed({ url: new URL(at), body, contentType }, (b) => found.push(b), max);
  // Every item is in the feed's folder, compared once below.
  const bookmarks = found.map((b) => {
    const { folder: _folder, folderDescription: _about, ...rest } = comparableBookmark(b) as ReturnType<typeof comparableBookmark> & { folderDescription?: string };
    return rest;
  });
  return { ...result, bookmarks, folder: found[0]?.folder ?? null };
}

const refusal = async (body: string) => {
  try {
    await read(Buffer.from(body));
  } catch (err) {
    return { status: (err as { status?: number }).status, message: (err as Error).message };
  }
  return null;
};

describe('reading an RSS or Atom feed as bookmarks', () => {
  it('reads RSS 2.0: links, HTML descriptions as text, dates, categories, guid permalinks, relative links; items without an http(s) link stay (to be counted as skipped)', async () => {
    const { bookmarks, folder, count } = await read(fixture('feed-rss.xml'), { at: 'https://raindrop.example/collections/climate.rss' });
    expect(count).toBe(5);
    expect(folder).toEqual({ depth: 1, title: 'Climate Tech — Weekly', description: 'Links about climate technology, curated.' });
    expect(bookmarks).toEqual([
      {
        row: 1,
        href: 'https://example.com/heat-pumps?utm=1&a=b',
        title: 'Heat pumps, explained: “a fridge in reverse”',
        description: 'How they work, and why now.',
        tags: ['energy', 'homes'],
        saved: '2024-03-05T09:30:00.000Z',
      },
      {
        row: 2,
        href: 'https://example.com/grid-storage',
        title: 'Grid storage & the <duck> curve',
        description: 'Batteries at scale.',
        tags: ['grid'],
        saved: '2024-02-01T12:00:00.000Z',
      },
      { row: 3, href: 'https://raindrop.example/posts/relative', title: 'Relative link', description: '', tags: [], saved: null },
      { row: 4, href: '', title: 'No link at all', description: 'Skipped: nothing to save.', tags: [], saved: null },
      { row: 5, href: '', title: 'Not http', description: '', tags: [], saved: null },
    ]);
  });

  it('reads Atom: the alternate link, xml:base, html and xhtml text, the published date before the updated one, category labels', async () => {
    const { bookmarks, folder } = await read(fixture('feed-atom.xml'), { at: 'https://links.example/feed.atom', contentType: 'application/atom+xml' });
    expect(folder).toEqual({ depth: 1, title: 'Reading list', description: 'Long reads worth the time' });
    expect(bookmarks).toEqual([
      {
        row: 1,
        href: 'https://example.jp/rail',
        title: 'Tokyo & Ōsaka by rail',
        description: 'A plain text summary <not a tag>',
        tags: ['Travel', 'japan'],
        saved: '2024-01-09T23:00:00.000Z',
      },
      {
        row: 2,
        href: 'https://links.example/archive/2023/entry',
        title: 'Relative, with xml:base',
        description: 'XHTML content',
        tags: [],
        saved: '2023-12-31T23:00:00.000Z',
      },
      { row: 3, href: 'https://example.org/by-id', title: 'Only an id', description: '', tags: [], saved: null },
    ]);
  });

  it('reads RSS 1.0 (RDF), whose channel is beside its items', async () => {
    const { bookmarks, folder } = await read(fixture('feed-rdf.xml'));
    expect(folder).toEqual({ depth: 1, title: 'Old Blog', description: 'An RDF feed' });
    expect(bookmarks).toEqual([
      { row: 1, href: 'https://old.example/first', title: 'First post', description: 'Hello.', tags: [], saved: '2004-05-06T07:08:09.000Z' },
    ]);
  });

  it('decodes the encoding its XML declaration names (windows-1252), unless the Content-Type names one', async () => {
    const { bookmarks, folder } = await read(fixture('feed-windows-1252.xml'), { contentType: 'text/xml' });
    expect(folder?.title).toBe('Café “news”');
    expect(bookmarks[0]?.title).toBe('Crème brûlée – € 5');
    const latin1 = await read(Buffer.from('<rss><channel><item><title>\xe9</title><link>https://a.example/</link></item></channel></rss>', 'latin1'), {
      contentType: 'application/rss+xml; charset=iso-8859-1',
    });
    expect(latin1.bookmarks[0]?.title).toBe('é');
  });

  it('names the collection after the feed’s host when the feed has no title', async () => {
    const { folder } = await read(Buffer.from('<rss><channel><item><link>https://a.example/x</link></item></channel></rss>'), { at: 'https://feeds.example/x.rss' });
    expect(folder?.title).toBe('feeds.example');
  });

  it('refuses what is not a feed, a feed without items, and more items than allowed', async () => {
    expect(await refusal('<!doctype html><html><head><title>A page</title></head></html>')).toEqual({ status: 400, message: FEED_IMPORT_MESSAGES.notAFeed });
    expect(await refusal('{"items": []}')).toEqual({ status: 400, message: FEED_IMPORT_MESSAGES.notAFeed });
    expect(await refusal('<rss><channel><title>Empty</title></channel></rss>')).toEqual({ status: 400, message: FEED_IMPORT_MESSAGES.noItems });
    const three = `<rss><channel>${'<item><link>https://a.example/</link></item>'.repeat(3)}</channel></rss>`;
    await expect(read(Buffer.from(three), { max: 2 })).rejects.toMatchObject({ status: 400, message: FEED_IMPORT_MESSAGES.tooMany });
  });

  it('reads a feed nested 100,000 deep (its nesting is counted, not kept)', async () => {
    const deep = `<rss><channel>${'<x>'.repeat(100_000)}${'</x>'.repeat(100_000)}<item><link>https://a.example/deep</link></item></channel></rss>`;
    const { bookmarks } = await read(Buffer.from(deep));
    expect(bookmarks.map((b) => b.href)).toEqual(['https://a.example/deep']);
  });
});
