import { describe, expect, it } from 'vitest';
import { BOOKMARK_FOLDER_MAX_DEPTH, TITLE_MAX_LENGTH } from '../../shared/domain';
import { type ParsedBookmark, bookmarkLine, bookmarkParser, parseAddDate, parseBookmarks } from '../../server/services/bookmark-file';
import { nestedBookmarkFile } from '../support/bookmark-files';

const folderOf = (b: ParsedBookmark) => b.folder?.title ?? null;

const CHROME = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file.
     It will be read and overwritten.
     DO NOT EDIT! -->
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="1700000100" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>
    <DL><p>
        <DT><A HREF="https://news.ycombinator.com/" ADD_DATE="1700000001" ICON="data:image/png;base64,AAA">Hacker News</A>
        <DT><H3 ADD_DATE="1700000002" LAST_MODIFIED="0">Reading</H3>
        <DL><p>
            <DT><A HREF="https://example.com/a" ADD_DATE="1700000003">Article A</A>
        </DL><p>
    </DL><p>
    <DT><H3 ADD_DATE="1700000004" LAST_MODIFIED="0">Other bookmarks</H3>
    <DL><p>
        <DT><A HREF="https://example.org/" ADD_DATE="1700000005">Example org</A>
    </DL><p>
</DL><p>
`;

const FIREFOX = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'none'; img-src data: *; object-src 'none'"></meta>
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks Menu</H1>
<DL><p>
    <DT><A HREF="place:parent=toolbar_____&maxResults=10" ADD_DATE="1600000000">Most Visited</A>
    <DT><H3 ADD_DATE="1600000001" LAST_MODIFIED="1600000002">Dev</H3>
    <DL><p>
        <DT><A HREF="https://developer.mozilla.org/" ADD_DATE="1600000003" LAST_MODIFIED="1600000004" TAGS="docs,web">MDN Web Docs</A>
        <DD>Resources for developers, by developers
        <DT><H3 ADD_DATE="1600000005">Rust</H3>
        <DL><p>
            <DT><A HREF="https://doc.rust-lang.org/book/" ADD_DATE="1600000006">The Book</A>
        </DL><p>
        <DT><A HREF="javascript:alert(1)">Bookmarklet</A>
    </DL><p>
    <DT><H3 ADD_DATE="1600000007" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks Toolbar</H3>
    <DL><p>
        <DT><A HREF="file:///home/me/notes.html">Notes</A>
        <DT><A HREF="https://www.mozilla.org/en-US/firefox/" ADD_DATE="1600000008">Get Firefox</A>
    </DL><p>
    <DT><H3 UNFILED_BOOKMARKS_FOLDER="true">Other Bookmarks</H3>
    <DL><p>
        <DT><H3>Recipes</H3>
        <DL><p>
            <DT><A HREF="https://cooking.example.com/bread">Bread &amp; Butter &#8212; &quot;best&quot;</A>
        </DL><p>
    </DL><p>
</DL>
`;

const POCKET = `<!DOCTYPE html>
<html>
<head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8" /><title>Pocket Export</title></head>
<body>
<h1>Unread</h1>
<ul>
<li><a href="https://pocket.example.com/one" time_added="1650000000" tags="ai,long read">One &lt;great&gt; read</a></li>
<li><a href="https://pocket.example.com/two" time_added="1650000001" tags="">https://pocket.example.com/two</a></li>
</ul>
<h1>Read Archive</h1>
<ul>
<li><a href="https://pocket.example.com/three" time_added="1650000002" tags="ai">Three</a></li>
</ul>
</body>
</html>`;

describe('bookmark file parser', () => {
  it('reads a Chrome export: the bar and Other bookmarks are roots, subfolders keep their path', () => {
    const b = parseBookmarks(CHROME);
    expect(b.map((x) => [x.href, x.title, folderOf(x), x.addDate])).toEqual([
      ['https://news.ycombinator.com/', 'Hacker News', null, 1700000001],
      ['https://example.com/a', 'Article A', 'Reading', 1700000003],
      ['https://example.org/', 'Example org', null, 1700000005],
    ]);
  });

  it('reads a Firefox export: place: and javascript: kept for counting, DD descriptions, TAGS, nesting', () => {
    const b = parseBookmarks(FIREFOX);
    expect(b).toHaveLength(7);
    expect(b[0]).toMatchObject({ href: 'place:parent=toolbar_____&maxResults=10', folder: null });
    expect(b[1]).toMatchObject({
      href: 'https://developer.mozilla.org/',
      title: 'MDN Web Docs',
      description: 'Resources for developers, by developers',
      tags: ['docs', 'web'],
    });
    expect(folderOf(b[1]!)).toBe('Dev');
    expect(b[2]).toMatchObject({ title: 'The Book', folder: { title: 'Dev / Rust', depth: 2 }, description: '' });
    expect(b[3]).toMatchObject({ href: 'javascript:alert(1)' });
    expect(b[3]!.folder).toBe(b[1]!.folder); // one folder object, shared
    expect(b[4]).toMatchObject({ href: 'file:///home/me/notes.html', folder: null });
    expect(b[5]).toMatchObject({ title: 'Get Firefox', folder: null });
    expect(b[6]).toMatchObject({ title: 'Bread & Butter — "best"', folder: { title: 'Recipes', depth: 1 } });
  });

  it('reads a Pocket export with tags and time_added', () => {
    const b = parseBookmarks(POCKET);
    expect(b.map((x) => [x.title, x.tags, x.addDate, folderOf(x)])).toEqual([
      ['One <great> read', ['ai', 'long read'], 1650000000, null],
      ['https://pocket.example.com/two', [], 1650000001, null],
      ['Three', ['ai'], 1650000002, null],
    ]);
  });

  it('refuses more bookmarks than allowed', () => {
    const many = `<DL>${'<DT><A HREF="https://e.com/x">x</A>'.repeat(4)}</DL>`;
    expect(() => parseBookmarks(many, 3)).toThrow(/at most/);
    expect(parseBookmarks(many, 4)).toHaveLength(4);
  });

  it('gives the same bookmarks when fed in tiny chunks', async () => {
    const out: unknown[] = [];
    const p = bookmarkParser((b) => out.push(b));
    for (let i = 0; i < FIREFOX.length; i += 7) p.write(FIREFOX.slice(i, i + 7));
    p.end();
    expect(out).toEqual(parseBookmarks(FIREFOX));
  });

  it('scales milli- and microsecond dates and writes escaped lines that read back', () => {
    expect(parseAddDate('1700000000000')).toBe(1700000000);
    expect(parseAddDate('1700000000000000')).toBe(1700000000);
    expect(parseAddDate('x')).toBeNull();
    const line = bookmarkLine(
      { url: 'https://e.com/?a=1&b="2"', title: 'A <b> & "c"', description: 'd & e', createdAt: '2024-01-02T00:00:00.000Z', tags: ['x', 'y,z'] },
      '',
      'Imported bookmark',
    );
    const [b] = parseBookmarks(`<DL>${line}</DL>`);
    expect(b).toMatchObject({ href: 'https://e.com/?a=1&b="2"', title: 'A <b> & "c"', description: 'd & e', tags: ['x', 'y z'], addDate: 1704153600 });
  });

  it('flattens folders nested deeper than the limit into the one at the limit, and counts them', () => {
    const html = nestedBookmarkFile(BOOKMARK_FOLDER_MAX_DEPTH + 50, 3);
    const out: ParsedBookmark[] = [];
    const p = bookmarkParser((b) => out.push(b));
    p.write(html);
    p.end();
    expect(p.flattenedFolders).toBe(50);
    expect(out).toHaveLength(3);
    expect(out[0]!.folder?.depth).toBe(BOOKMARK_FOLDER_MAX_DEPTH);
    // The path is cut (one character past the longest title, for clipping later) instead of growing.
    expect(out[0]!.folder?.title.startsWith('f0 / f1 / f2')).toBe(true);
    expect(out[0]!.folder?.title.length).toBe(TITLE_MAX_LENGTH + 1);
    expect(new Set(out.map((b) => b.folder)).size).toBe(1);
  });

  it('keeps bookmarks after a deep folder closes in their own folder', () => {
    const html = `<DL><DT><H3>A</H3><DL>${'<DT><H3>x</H3><DL>'.repeat(200)}<DT><A HREF="https://e.com/deep">d</A>${'</DL>'.repeat(200)}<DT><A HREF="https://e.com/a">a</A></DL><DT><A HREF="https://e.com/top">t</A></DL>`;
    const b = parseBookmarks(html);
    expect(b.map((x) => [x.href, x.folder?.depth ?? 0])).toEqual([
      ['https://e.com/deep', BOOKMARK_FOLDER_MAX_DEPTH],
      ['https://e.com/a', 1],
      ['https://e.com/top', 0],
    ]);
    expect(folderOf(b[1]!)).toBe('A');
  });

  it('strips control characters and bidi overrides from imported text instead of refusing the bookmark', () => {
    const [b] = parseBookmarks(
      '<DL><DT><H3>Fo\u0000lder\u202e</H3><DL><DT><A HREF="https://e.com/" TAGS="a\u2066i,x">Ti\u0000tle\u202e e\u0301</A><DD>Note\u0007 here</DL></DL>',
    );
    expect(b).toMatchObject({ title: 'Title é', description: 'Note here', tags: ['ai', 'x'], folder: { title: 'Folder' } });
  });

  it('makes imported text one line: any run of white space, and a lone tab or line break, becomes one space', () => {
    const [b] = parseBookmarks('<DL><DT><A HREF="https://e.com/">A  title\twith\n\nbreaks \t and\t spaces\u00a0too</A><DD>One\r\nnote  here</DL>');
    expect(b).toMatchObject({ title: 'A title with breaks and spaces too', description: 'One note here' });
  });
});
