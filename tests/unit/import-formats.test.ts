import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOOKMARK_MESSAGES, IMPORT_CSV_RECORD_MAX_CHARS } from '../../shared/domain';
import type { ParsedBookmark } from '../../server/services/bookmark-file';
import { splitTags } from '../../server/services/import-csv';
import { readImportFile, sniffImport } from '../../server/services/import-file';
import { readZipEntries } from '../../server/services/import-zip';
import { comparableBookmark } from '../support/bookmark-files';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../fixtures/imports', name));

/** The bookmarks a file reads to, in a shape easy to compare. */
async function read(bytes: Buffer, max?: number) {
  const found: ParsedBookmark[] = [];
  const result = await readImportFile(bytes, (b) => found.push(b), max);
  const bookmarks = found.map(comparableBookmark);
  return { ...result, bookmarks };
}

const refusal = async (bytes: Buffer) => {
  try {
    await read(bytes);
  } catch (err) {
    return { status: (err as { status?: number }).status, message: (err as Error).message };
  }
  return null;
};

const POCKET_PART = [
  {
    row: 1,
    href: 'https://example.com/cafe',
    title: 'Café, crème & naïveté',
    description: '',
    tags: ['food', 'french'],
    saved: '2023-11-14T22:13:20.000Z',
    folder: null,
  },
  { row: 2, href: 'https://example.com/two', title: 'Two lines', description: '', tags: [], saved: '2023-11-14T22:15:00.000Z', folder: null },
  { row: 3, href: 'https://example.com/cafe', title: 'Again', description: '', tags: [], saved: '2023-11-14T22:16:40.000Z', folder: null },
  { row: 4, href: 'javascript:alert(1)', title: 'Bad', description: '', tags: [], saved: '2023-11-14T22:18:20.000Z', folder: null },
  { row: 5, href: 'https://example.com/untitled', title: '', description: '', tags: ['misc'], saved: '2023-11-14T22:20:00.000Z', folder: null },
];

describe('import files: the format is read from the content', () => {
  it('sniffs zip, JSON, HTML and CSV past a BOM and white space, whatever the name', () => {
    expect(sniffImport(fixture('pocket.zip'))).toBe('zip');
    expect(sniffImport(Buffer.from('\ufeff  \r\n[{"url":"x"}]'))).toBe('json');
    expect(sniffImport(Buffer.from('\n<!DOCTYPE NETSCAPE-Bookmark-file-1>'))).toBe('html');
    expect(sniffImport(fixture('pocket.csv'))).toBe('csv');
  });

  it('reads a Pocket CSV: BOM, CRLF, a quoted comma and a newline in a field, | tags', async () => {
    expect((await read(fixture('pocket.csv'))).bookmarks).toEqual(POCKET_PART);
  });

  it("reads Pocket's zip: every part_*.csv in order, other entries left alone", async () => {
    const { bookmarks } = await read(fixture('pocket.zip'));
    expect(bookmarks).toEqual([
      ...POCKET_PART,
      { row: 6, href: 'https://example.org/jp', title: 'Ünïcödé 日本語', description: '', tags: ['日本', 'travel'], saved: '2023-07-22T04:26:40.000Z', folder: null },
    ]);
  });

  it('reads Raindrop.io: nested folders as a path, note else excerpt, favourites, ISO and Unix dates, Unsorted as no folder', async () => {
    const { bookmarks } = await read(fixture('raindrop.csv'));
    expect(bookmarks).toEqual([
      {
        row: 1,
        href: 'https://doc.rust-lang.org/book/',
        title: 'Rust, the book',
        description: 'A note, with comma',
        tags: ['rust', 'books'],
        saved: '2023-05-01T10:00:00.000Z',
        folder: 'Dev / Rust',
        liked: true,
      },
      { row: 2, href: 'https://example.ch/zurich', title: 'Zürich guide', description: 'Excerpt over two lines', tags: [], saved: '2023-05-01T10:00:00.000Z', folder: 'Travel' },
      { row: 3, href: 'https://example.com/loose', title: 'Loose', description: '', tags: [], saved: '2023-05-03T10:00:00.000Z', folder: null },
      { row: 4, href: 'https://doc.rust-lang.org/book', title: 'Dup', description: '', tags: [], saved: '2023-05-04T10:00:00.000Z', folder: 'Dev / Rust' },
      { row: 5, href: '', title: 'No URL', description: '', tags: [], saved: '2023-05-05T10:00:00.000Z', folder: 'Dev' },
    ]);
  });

  it("reads Raindrop.io's short form in any column order", async () => {
    expect((await read(fixture('raindrop-short.csv'))).bookmarks).toEqual([
      { row: 1, href: 'https://example.net/short', title: 'Short form', description: 'Short note', tags: ['a', 'b'], saved: '2022-01-02T03:04:05.000Z', folder: 'Reading / Later' },
    ]);
  });

  it('reads Instapaper: Unread and Archive are no folders, others are; selection as the description; JSON tag lists', async () => {
    expect((await read(fixture('instapaper.csv'))).bookmarks).toEqual([
      { row: 1, href: 'https://example.com/insta1', title: 'Instapaper, first', description: 'Selected "text"', tags: [], saved: '2020-09-13T12:26:40.000Z', folder: null },
      { row: 2, href: 'https://example.com/insta2', title: 'Ελληνικά', description: '', tags: ['greek'], saved: '2020-09-13T12:28:20.000Z', folder: null },
      { row: 3, href: 'https://example.com/insta3', title: 'Cooking', description: '', tags: ['food', 'cooking'], saved: '2020-09-13T12:30:00.000Z', folder: 'Recipes' },
      { row: 4, href: 'ftp://example.com/file', title: 'FTP', description: '', tags: [], saved: '2020-09-13T12:31:40.000Z', folder: null },
    ]);
  });

  it('reads Readwise Reader: Python-style tag lists, saved dates with a zone', async () => {
    expect((await read(fixture('readwise.csv'))).bookmarks).toEqual([
      { row: 1, href: 'https://readwise.io/read', title: 'Readwise, the app', description: '', tags: ['reading', 'tools'], saved: '2023-06-01T12:34:56.000Z', folder: null },
      { row: 2, href: 'https://example.ru/hello', title: 'Привет мир', description: '', tags: [], saved: '2023-06-02T08:00:00.000Z', folder: null },
    ]);
  });

  it("reads Omnivore's zip: metadata_*.json entries, labels as tags, content and highlights left alone", async () => {
    expect((await read(fixture('omnivore.zip'))).bookmarks).toEqual([
      { row: 1, href: 'https://example.com/omni1', title: 'Omnivore — first', description: 'Saved, with care', tags: ['later', 'tech'], saved: '2024-01-02T03:04:05.000Z', folder: null },
      { row: 2, href: '', title: 'No url', description: '', tags: [], saved: '2024-01-03T00:00:00.000Z', folder: null },
      { row: 3, href: 'https://example.com/omni1', title: '', description: 'dup', tags: ['dup'], saved: '2024-01-04T00:00:00.000Z', folder: null },
      { row: 4, href: 'https://example.cn/zh', title: '中文标题', description: '', tags: [], saved: '2024-01-05T00:00:00.000Z', folder: null },
    ]);
  });

  it('reads Karakeep: manual lists named by their path, smart lists ignored, non-link bookmarks without a URL', async () => {
    expect((await read(fixture('karakeep.json'))).bookmarks).toEqual([
      { row: 1, href: 'https://karakeep.app/', title: 'Karakeep home', description: 'A note', tags: ['selfhosted'], saved: '2024-03-09T16:00:00.000Z', folder: 'Tech / Self-hosting' },
      { row: 2, href: 'https://example.com/karakeep-untitled', title: '', description: '', tags: [], saved: '2024-03-09T16:01:40.000Z', folder: null },
      { row: 3, href: '', title: 'A text note', description: '', tags: [], saved: '2024-03-09T16:03:20.000Z', folder: null },
      { row: 4, href: 'https://example.com/smart', title: 'In smart list', description: '', tags: [], saved: '2024-03-09T16:05:00.000Z', folder: null },
    ]);
  });

  it('reads Linkwarden: each collection with its description, tags as names', async () => {
    expect((await read(fixture('linkwarden.json'))).bookmarks).toEqual([
      {
        row: 1,
        href: 'https://refactoringui.com/',
        title: 'Refactoring UI',
        description: 'A book',
        tags: ['design'],
        saved: '2023-09-01T10:00:00.000Z',
        folder: 'Design',
        folderDescription: 'Things that look good',
      },
      { row: 2, href: 'https://example.fr/deja', title: 'Déjà vu', description: '', tags: [], saved: '2023-09-02T10:00:00.000Z', folder: 'Design', folderDescription: 'Things that look good' },
      { row: 3, href: 'https://refactoringui.com', title: 'Dup', description: '', tags: [], saved: '2023-09-03T10:00:00.000Z', folder: 'Unorganized' },
    ]);
  });

  it('reads the Netscape file as before, numbering bookmarks as rows', async () => {
    expect((await read(fixture('netscape.html'))).bookmarks).toEqual([
      {
        row: 1,
        href: 'https://doc.rust-lang.org/book/',
        title: 'The Rust book — ünïcode',
        description: 'Learn Rust, properly',
        tags: ['rust', 'books'],
        saved: '2023-11-14T22:13:20.000Z',
        folder: 'Dev / Rust',
      },
      { row: 2, href: 'https://example.com/cafe', title: 'Café', description: '', tags: [], saved: '2023-11-14T22:15:00.000Z', folder: null },
      { row: 3, href: 'javascript:void(0)', title: 'Bookmarklet', description: '', tags: [], saved: null, folder: null },
    ]);
  });

  it('keeps a quote inside an unquoted field as text', async () => {
    const { bookmarks } = await read(Buffer.from('title,url,time_added,tags,status\nSay "hi" twice,https://example.com/q,1700000000,,unread\n'));
    expect(bookmarks.map((b) => b.title)).toEqual(['Say "hi" twice']);
  });

  it('splits tag texts: separators, JSON and Python lists', () => {
    expect(splitTags('a|b', '|')).toEqual(['a', 'b']);
    expect(splitTags('["a, b","c"]', ',')).toEqual(['a, b', 'c']);
    expect(splitTags("['x', 'y']", ',')).toEqual(['x', 'y']);
  });
});

describe('import files: refused', () => {
  it('a file of no known format: one 400 naming the formats read', async () => {
    const unknown = { status: 400, message: BOOKMARK_MESSAGES.unknownFormat };
    expect(await refusal(Buffer.from('name,address\nAda,London\n'))).toEqual(unknown);
    expect(await refusal(Buffer.from('{"hello":"world"}'))).toEqual(unknown);
    expect(await refusal(Buffer.from('[1,2,3]'))).toEqual(unknown);
    expect(await refusal(Buffer.from('just some text\n"unclosed'))).toEqual(unknown);
    expect(BOOKMARK_MESSAGES.unknownFormat).toContain('Pocket');
    expect(BOOKMARK_MESSAGES.unknownFormat).toContain('Readwise Reader');
  });

  it('a broken zip, a zip entry outside its folder, a zip bomb', async () => {
    expect(await refusal(fixture('pocket.zip').subarray(0, 100))).toEqual({ status: 400, message: BOOKMARK_MESSAGES.badZip });
    expect(await refusal(fixture('hostile-traversal.zip'))).toEqual({ status: 400, message: BOOKMARK_MESSAGES.unsafeZipEntry });
    expect(await refusal(fixture('hostile-bomb.zip'))).toEqual({ status: 413, message: BOOKMARK_MESSAGES.unpackedTooLarge });
  });

  it('a zip with more export entries than the limit', async () => {
    const paths: string[] = [];
    const all = (path: string) => path.endsWith('.csv');
    const collect = async (path: string) => {
      paths.push(path);
    };
    const noTurn = () => undefined;
    expect(await readZipEntries(fixture('pocket.zip'), all, collect, noTurn, 2)).toBe(2);
    expect(paths).toEqual(['part_000000.csv', 'part_000001.csv']);
    await expect(readZipEntries(fixture('pocket.zip'), all, collect, noTurn, 1)).rejects.toMatchObject({
      status: 400,
      message: BOOKMARK_MESSAGES.tooManyZipEntries,
    });
  });

  it('a CSV record over the limit, JSON nested 10,000 deep, text that is no JSON', async () => {
    const huge = `title,url,time_added,tags,status\n"${'x'.repeat(IMPORT_CSV_RECORD_MAX_CHARS + 10)}",https://example.com,1,,\n`;
    expect(await refusal(Buffer.from(huge))).toEqual({ status: 400, message: BOOKMARK_MESSAGES.csvFieldTooLarge });
    expect(await refusal(Buffer.from(`${'['.repeat(10_000)}${']'.repeat(10_000)}`))).toEqual({ status: 400, message: BOOKMARK_MESSAGES.jsonTooDeep });
    expect(await refusal(Buffer.from('{"bookmarks": [}'))).toEqual({ status: 400, message: BOOKMARK_MESSAGES.badJson });
  });

  it('more bookmarks than the limit, in any format', async () => {
    const tooMany = { status: 400, message: BOOKMARK_MESSAGES.tooMany };
    await expect(read(fixture('pocket.csv'), 4)).rejects.toMatchObject(tooMany);
    await expect(read(fixture('linkwarden.json'), 2)).rejects.toMatchObject(tooMany);
    await expect(read(fixture('omnivore.zip'), 3)).rejects.toMatchObject(tooMany);
  });
});
