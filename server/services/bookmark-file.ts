import {
  BOOKMARKS_MAX_COUNT,
  BOOKMARK_FOLDER_MAX_DEPTH,
  BOOKMARK_MESSAGES,
  FOLDER_PATH_SEPARATOR,
  TITLE_MAX_LENGTH,
  stripUnsafeText,
} from '../../shared/domain';
import { badRequest } from '../errors';
import { htmlTagReader } from './html-tag-reader';

/**
 * The Netscape bookmark file: reading it in a stream with htmlparser2, and
 * writing it (read with htmlTagReader: linear in the input however deep it nests). Structure: `<DL>` lists, `<DT><H3>folder</H3><DL>...</DL>` folders,
 * `<DT><A HREF ADD_DATE TAGS>title</A>` bookmarks, each optionally followed by `<DD>description`.
 * Pocket's export (`<ul><li><a href time_added tags>`) is read too: any `<a href>` is a bookmark.
 * What every import reader shares is here too: ParsedBookmark, bookmarkSink, folderTree.
 */

export interface ParsedBookmark {
  /** The HREF as written (normalised later). */
  href: string;
  title: string;
  description: string;
  /** Unix seconds, or null when absent or nonsense. */
  addDate: number | null;
  tags: string[];
  /** The folder it is in (shared with the other bookmarks there), or null: at the top level or in a browser root folder. */
  folder: BookmarkFolder | null;
  /** Its number in the file: 1 for the first bookmark (or data row), invalid ones counted. */
  row: number;
  /** A favourite in the file (Raindrop.io): the importer likes the link. */
  liked?: boolean;
}

/** A bookmark as a reader finds it; bookmarkSink cleans and numbers it. */
export type FoundBookmark = Omit<ParsedBookmark, 'row'>;

/**
 * A folder of the file. Bookmarks and subfolders point to it, so nothing copies a folder path: a
 * file's memory grows with its size, however deep its folders nest.
 */
export interface BookmarkFolder {
  /** 1 for a top-level folder (browser root folders left out), at most BOOKMARK_FOLDER_MAX_DEPTH. */
  depth: number;
  /**
   * Its collection title, the path from the outermost: 'Parent / Child', cut at TITLE_MAX_LENGTH
   * (+1 character, so that clipping it later gives what clipping the whole path would).
   */
  title: string;
  /** The description of its collection, when the file gives one (Linkwarden). */
  description?: string;
}

const titleCut = (s: string) => (s.length > TITLE_MAX_LENGTH ? s.slice(0, TITLE_MAX_LENGTH + 1) : s);

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

/**
 * One line of text: runs of spaces as one, control characters and bidi overrides stripped (imports
 * strip, not refuse). A single space is left alone: V8 builds a replace's result as a chain of
 * joined pieces, one per match, and a kept title holding that chain took ~500 bytes instead of ~60
 * (50,000 Raindrop.io rows, prepared: 53 MB of heap with the chains, 20 MB without).
 */
const collapse = (s: string) => stripUnsafeText(s).replace(/\s{2,}|[^\S ]/g, ' ');

/**
 * Where every reader's bookmarks go: text made one clean line, each numbered, and 400 beyond `max`
 * (counted as they are found, so a huge file is refused before it is all read).
 */
export function bookmarkSink(onBookmark: (b: ParsedBookmark) => void, max = BOOKMARKS_MAX_COUNT) {
  let count = 0;
  return {
    add(b: FoundBookmark) {
      count += 1;
      if (count > max) throw badRequest(BOOKMARK_MESSAGES.tooMany, 'TOO_MANY_BOOKMARKS');
      onBookmark({ ...b, title: collapse(b.title), description: collapse(b.description), tags: b.tags.map(collapse).filter(Boolean), row: count });
    },
    get count() {
      return count;
    },
  };
}

export type BookmarkSink = ReturnType<typeof bookmarkSink>;

/**
 * The folders of files that name a bookmark's folder by its path (CSV columns, JSON lists): one
 * BookmarkFolder per path, shared by its bookmarks, nested at most BOOKMARK_FOLDER_MAX_DEPTH deep
 * (deeper paths are cut there and counted in `flattenedFolders`).
 */
export function folderTree() {
  const folders = new Map<string, BookmarkFolder>();
  const flattened = new Set<string>();
  return {
    /** The folder of a path of names, outermost first (empty names left out); null for none. */
    of(names: Iterable<string>, description?: string): BookmarkFolder | null {
      let depth = 0;
      let title = '';
      for (const raw of names) {
        const name = titleCut(collapse(raw).trim());
        if (!name) continue;
        if (depth === BOOKMARK_FOLDER_MAX_DEPTH) {
          flattened.add(title);
          break;
        }
        depth += 1;
        title = depth === 1 ? name : titleCut(title + FOLDER_PATH_SEPARATOR + name);
      }
      if (depth === 0) return null;
      let folder = folders.get(title);
      if (!folder) {
        const about = description === undefined ? '' : collapse(description).trim();
        folder = about ? { depth, title, description: about } : { depth, title };
        folders.set(title, folder);
      }
      return folder;
    },
    get flattenedFolders() {
      return flattened.size;
    },
  };
}

export type FolderTree = ReturnType<typeof folderTree>;

/** ADD_DATE in seconds; milliseconds and microseconds (some exporters) are scaled down. */
export function parseAddDate(raw: string | undefined): number | null {
  if (!raw || !/^\d+$/.test(raw.trim())) return null;
  let n = Number(raw.trim());
  if (n > 1e14) n = Math.floor(n / 1e6);
  else if (n > 1e11) n = Math.floor(n / 1e3);
  return n > 0 ? n : null;
}

/** A saved date as exports write it: Unix seconds (or ms, µs), as a number or digits, or an ISO 8601 text. */
export function parseSavedDate(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) && raw > 0 ? parseAddDate(String(Math.trunc(raw))) : null;
  if (typeof raw !== 'string' || !raw.trim()) return null;
  if (/^\d+$/.test(raw.trim())) return parseAddDate(raw);
  const ms = Date.parse(raw.trim());
  return Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : null;
}

/**
 * A push parser: write() chunks of the file as they arrive, end() at the end; `onBookmark` gets
 * each bookmark with its description. Throws 400 beyond BOOKMARKS_MAX_COUNT bookmarks. Time and
 * memory are linear in the input: each tag does a constant amount of work, and folders nested
 * deeper than BOOKMARK_FOLDER_MAX_DEPTH are flattened into the one at that depth (counted in
 * `flattenedFolders`).
 */
export function bookmarkParser(onBookmark: (b: ParsedBookmark) => void, max = BOOKMARKS_MAX_COUNT) {
  /** One entry per open <DL>: the folder its bookmarks are in (null: a root or the file's top list). */
  const lists: (BookmarkFolder | null)[] = [];
  /** The folder named by the last <H3>, waiting for its <DL>. */
  let pendingFolder: string | null = null;
  let h3: { text: string; root: boolean } | null = null;
  let anchor: FoundBookmark | null = null;
  /** The last bookmark, kept until its <DD> (if any) is read. */
  let pending: FoundBookmark | null = null;
  let inDescription = false;
  let flattenedFolders = 0;
  const sink = bookmarkSink(onBookmark, max);

  const current = () => lists[lists.length - 1] ?? null;
  const openList = () => {
    const parent = current();
    if (pendingFolder === null) lists.push(parent);
    else if (parent && parent.depth >= BOOKMARK_FOLDER_MAX_DEPTH) {
      flattenedFolders += 1;
      lists.push(parent);
    } else {
      const title = titleCut(parent ? parent.title + FOLDER_PATH_SEPARATOR + pendingFolder : pendingFolder);
      lists.push({ depth: (parent?.depth ?? 0) + 1, title });
    }
    pendingFolder = null;
  };
  const flush = () => {
    if (!pending) return;
    const done = pending;
    pending = null;
    sink.add(done);
  };

  const parser = htmlTagReader({
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
          openList();
        } else if (name === 'a' && attrs.href !== undefined) {
          anchor = {
            href: attrs.href,
            title: '',
            description: '',
            addDate: parseAddDate(attrs.add_date ?? attrs.time_added),
            tags: (attrs.tags ?? '').split(','),
            folder: current(),
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
          const title = titleCut(collapse(h3.text));
          const root = current() === null && (h3.root || ROOT_FOLDER_NAMES.has(title.toLowerCase()));
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
  });

  return {
    write(chunk: string) {
      parser.write(chunk);
    },
    end() {
      parser.end();
      flush();
    },
    get count() {
      return sink.count;
    },
    /** Folders that were nested too deep and merged into their ancestor at the deepest level kept. */
    get flattenedFolders() {
      return flattenedFolders;
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
