import { Parser } from 'htmlparser2';
import {
  BOOKMARKS_MAX_COUNT,
  BOOKMARK_MESSAGES,
  FOLDER_PATH_SEPARATOR,
} from '../../shared/domain';
import { badRequest } from '../http/errors';

/**
 * The Netscape bookmark file (issue 6 item 5): reading it in a stream with htmlparser2, and
 * writing it. Structure: `<DL>` lists, `<DT><H3>folder</H3><DL>...</DL>` folders,
 * `<DT><A HREF ADD_DATE TAGS>title</A>` bookmarks, each optionally followed by `<DD>description`.
 * Pocket's export (`<ul><li><a href time_added tags>`) is read too: any `<a href>` is a bookmark.
 */

export interface ParsedBookmark {
  /** The HREF as written (normalised later). */
  href: string;
  title: string;
  description: string;
  /** Unix seconds, or null when absent or nonsense. */
  addDate: number | null;
  tags: string[];
  /** Folder names from the outermost, browser root folders (toolbar, menu, other) left out. */
  folders: string[];
}

/**
 * Top-level folders that are the browser's own roots, not the user's folders: their bookmarks go
 * to no collection, and their subfolders become top-level collections.
 */
const ROOT_FOLDER_NAMES = new Set(
  [
    'bookmarks bar',
    'bookmarks toolbar',
    'bookmarks menu',
    'other bookmarks',
    'mobile bookmarks',
    'favorites bar',
    'favourites bar',
    'favorites',
    'favourites',
    'bookmarks',
    'unread',
    'read archive',
  ],
);
const ROOT_FOLDER_FLAGS = ['personal_toolbar_folder', 'unfiled_bookmarks_folder'];

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** ADD_DATE in seconds; milliseconds and microseconds (some exporters) are scaled down. */
export function parseAddDate(raw: string | undefined): number | null {
  if (!raw || !/^\d+$/.test(raw.trim())) return null;
  let n = Number(raw.trim());
  if (n > 1e14) n = Math.floor(n / 1e6);
  else if (n > 1e11) n = Math.floor(n / 1e3);
  return n > 0 ? n : null;
}

/**
 * A push parser: write() chunks of the file as they arrive, end() at the end; `onBookmark` gets
 * each bookmark with its description. Throws 400 beyond BOOKMARKS_MAX_COUNT bookmarks.
 */
export function bookmarkParser(onBookmark: (b: ParsedBookmark) => void, max = BOOKMARKS_MAX_COUNT) {
  /** One entry per open <DL>: the folder it lists (null: a root or the file's top list). */
  const lists: (string | null)[] = [];
  /** The folder named by the last <H3>, waiting for its <DL>. */
  let pendingFolder: string | null = null;
  let h3: { text: string; root: boolean } | null = null;
  let anchor: ParsedBookmark | null = null;
  /** The last bookmark, kept until its <DD> (if any) is read. */
  let pending: ParsedBookmark | null = null;
  let inDescription = false;
  let count = 0;

  const folders = () => lists.filter((f): f is string => f !== null);
  const flush = () => {
    if (!pending) return;
    pending.title = collapse(pending.title);
    pending.description = collapse(pending.description);
    count += 1;
    if (count > max) throw badRequest(BOOKMARK_MESSAGES.tooMany, 'TOO_MANY_BOOKMARKS');
    const done = pending;
    pending = null;
    onBookmark(done);
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'dd') {
          inDescription = pending !== null;
          return;
        }
        if (name === 'dt' || name === 'a' || name === 'h3' || name === 'dl' || name === 'li' || name === 'h1') {
          inDescription = false;
          flush();
        }
        if (name === 'h3') {
          const flagged = ROOT_FOLDER_FLAGS.some((f) => attrs[f] === 'true');
          h3 = { text: '', root: flagged };
        } else if (name === 'dl') {
          lists.push(pendingFolder);
          pendingFolder = null;
        } else if (name === 'a' && attrs.href !== undefined) {
          anchor = {
            href: attrs.href,
            title: '',
            description: '',
            addDate: parseAddDate(attrs.add_date ?? attrs.time_added),
            tags: (attrs.tags ?? '')
              .split(',')
              .map(collapse)
              .filter(Boolean),
            folders: folders(),
          };
        }
      },
      ontext(text) {
        if (h3) h3.text += text;
        else if (anchor) anchor.title += text;
        else if (inDescription && pending) pending.description += text;
      },
      onclosetag(name) {
        if (name === 'h3' && h3) {
          const title = collapse(h3.text);
          const topLevel = folders().length === 0;
          const root = topLevel && (h3.root || ROOT_FOLDER_NAMES.has(title.toLowerCase()));
          pendingFolder = root || !title ? null : title;
          h3 = null;
        } else if (name === 'a' && anchor) {
          pending = anchor;
          anchor = null;
        } else if (name === 'dl') {
          inDescription = false;
          flush();
          lists.pop();
        } else if (name === 'dd') {
          inDescription = false;
        }
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true, lowerCaseTags: true },
  );

  return {
    write(chunk: string) {
      parser.write(chunk);
    },
    end() {
      parser.end();
      flush();
    },
    get count() {
      return count;
    },
  };
}

/** Parses a whole file (tests, small inputs). */
export function parseBookmarks(html: string, max = BOOKMARKS_MAX_COUNT): ParsedBookmark[] {
  const out: ParsedBookmark[] = [];
  const p = bookmarkParser((b) => out.push(b), max);
  p.write(html);
  p.end();
  return out;
}

/** The collection title of a folder path: 'Parent / Child'. */
export const folderTitle = (folders: readonly string[]) => folders.join(FOLDER_PATH_SEPARATOR);

// ---------------------------------------------------------------------------------------------
// Writing

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

export const BOOKMARKS_HEADER = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file.
     It will be read and overwritten.
     DO NOT EDIT! -->
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
`;
export const BOOKMARKS_FOOTER = '</DL><p>\n';

export interface ExportedBookmark {
  url: string;
  title: string;
  description: string;
  createdAt: string;
  tags: string[];
}

const seconds = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : Math.floor(Date.now() / 1000);
};

/** One `<DT><A ...>` line (and its `<DD>` unless the description is the import's placeholder). */
export function bookmarkLine(b: ExportedBookmark, indent: string, placeholder: string): string {
  const tags = b.tags.map((t) => t.replace(/,/g, ' ')).join(',');
  let line = `${indent}<DT><A HREF="${escapeHtml(b.url)}" ADD_DATE="${seconds(b.createdAt)}"`;
  if (tags) line += ` TAGS="${escapeHtml(tags)}"`;
  line += `>${escapeHtml(b.title)}</A>\n`;
  if (b.description && b.description !== placeholder) line += `${indent}<DD>${escapeHtml(b.description)}\n`;
  return line;
}

export const folderOpen = (title: string, createdAt: string) =>
  `    <DT><H3 ADD_DATE="${seconds(createdAt)}">${escapeHtml(title)}</H3>\n    <DL><p>\n`;
export const FOLDER_CLOSE = '    </DL><p>\n';
