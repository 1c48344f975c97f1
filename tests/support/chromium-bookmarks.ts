/**
 * A bookmarks file exactly as Chromium's "Export bookmarks" writes it (chrome/browser/bookmarks/
 * bookmark_html_writer.cc): CRLF line ends, 4-space indents, the header below, the bookmarks bar as
 * a folder flagged PERSONAL_TOOLBAR_FOLDER="true", then the descendants of "Other bookmarks" and
 * "Mobile bookmarks" shifted up to the top level (no folder for them), folders with ADD_DATE and
 * LAST_MODIFIED, bookmarks with HREF, ADD_DATE and (when Chromium has a favicon) ICON as a PNG data
 * URL; attribute values escape only '"', text is HTML-escaped. Generating it through Chromium itself
 * was tried and is not practical (see docs/decisions.md).
 *
 * The profile behind it:
 *   Bookmarks bar: "Supercurate & friends" (with favicon), folder "Dev" (a bookmark with a quote in
 *     its URL, folder "Rust" (two bookmarks), an empty folder "Later")
 *   Other bookmarks: folder "Reading" (two bookmarks, one also in "Rust"), a loose bookmark,
 *     a javascript: bookmarklet
 *   Mobile bookmarks: one bookmark
 */
const ICON =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAGklEQVQ4y2NgGAWjYBSMglEwCkbBKBgFIwEAAAQQAAGvRYgsAAAAAElFTkSuQmCC';

const LINES = [
  '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
  '<!-- This is an automatically generated file.',
  '     It will be read and overwritten.',
  '     DO NOT EDIT! -->',
  '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
  '<TITLE>Bookmarks</TITLE>',
  '<H1>Bookmarks</H1>',
  '<DL><p>',
  '    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="1700003600" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>',
  '    <DL><p>',
  `        <DT><A HREF="https://supercurate.example.com/" ADD_DATE="1700000100" ICON="${ICON}">Supercurate &amp; friends</A>`,
  '        <DT><H3 ADD_DATE="1700000200" LAST_MODIFIED="1700003000">Dev</H3>',
  '        <DL><p>',
  '            <DT><A HREF="https://dev.example.com/search?q=&quot;tesseract&quot;&amp;lang=en" ADD_DATE="1700000300">Search: &quot;tesseract&quot; &lt;en&gt;</A>',
  '            <DT><H3 ADD_DATE="1700000400" LAST_MODIFIED="1700002000">Rust</H3>',
  '            <DL><p>',
  '                <DT><A HREF="https://doc.rust-lang.org/book/" ADD_DATE="1700000500">The Rust Programming Language - The Rust Programming Language</A>',
  '                <DT><A HREF="https://blog.example.org/posts/ownership" ADD_DATE="1700000600">Ownership, explained</A>',
  '            </DL><p>',
  '            <DT><H3 ADD_DATE="1700000700" LAST_MODIFIED="0">Later</H3>',
  '            <DL><p>',
  '            </DL><p>',
  '        </DL><p>',
  '    </DL><p>',
  '    <DT><H3 ADD_DATE="1700000800" LAST_MODIFIED="1700001000">Reading</H3>',
  '    <DL><p>',
  '        <DT><A HREF="https://longreads.example.net/2024/slow-web" ADD_DATE="1700000900">The slow web</A>',
  '        <DT><A HREF="https://blog.example.org/posts/ownership" ADD_DATE="1700000950">Ownership, explained</A>',
  '    </DL><p>',
  '    <DT><A HREF="https://news.example.com/item?id=42" ADD_DATE="1700001100">Loose in Other bookmarks</A>',
  "    <DT><A HREF=\"javascript:alert('bookmarklet')\" ADD_DATE=\"1700001200\">Bookmarklet</A>",
  '    <DT><A HREF="https://m.example.com/phone-read" ADD_DATE="1700001300">Saved on my phone</A>',
  '</DL><p>',
];

export const CHROMIUM_BOOKMARKS_HTML = `${LINES.join('\r\n')}\r\n`;

/** What importing it gives: collections by folder path, and the links. */
export const CHROMIUM_BOOKMARKS_EXPECTED = {
  bookmarks: 9,
  /** In no folder: the bar's own, the shifted-up ones of Other and Mobile bookmarks (one a bookmarklet). */
  loose: 4,
  folders: [
    { title: 'Dev', count: 1 },
    { title: 'Dev / Rust', count: 2 },
    { title: 'Reading', count: 2 },
  ],
  flattenedFolders: 0,
  urls: [
    'https://blog.example.org/posts/ownership',
    'https://dev.example.com/search?q=%22tesseract%22&lang=en',
    'https://doc.rust-lang.org/book/',
    'https://longreads.example.net/2024/slow-web',
    'https://m.example.com/phone-read',
    'https://news.example.com/item?id=42',
    'https://supercurate.example.com/',
  ],
};
