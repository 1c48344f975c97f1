/** Bookmark files: the Netscape bookmark HTML every browser exports. */

/** Upload limits: the file's size (413 beyond) and its bookmarks (400 beyond). */
export const BOOKMARKS_MAX_BYTES = 20 * 1024 * 1024;
export const BOOKMARKS_MAX_COUNT = 50_000;
/**
 * Bookmarks written per transaction (SQLite has one writer: short transactions keep others going).
 * Other requests wait for the chunk in hand: 500 took ~60 ms of CPU, 200 stay near 25 ms, under
 * the 100 ms a health check may wait during an import.
 */
export const BOOKMARKS_CHUNK = 200;
/** The description of a bookmark that has none (a link needs one). */
export const IMPORTED_BOOKMARK_DESCRIPTION = 'Imported bookmark';
/** Nested folders become one collection titled by their path: 'Parent / Child'. */
export const FOLDER_PATH_SEPARATOR = ' / ';
/** Folders nested deeper than this are flattened into their ancestor at this depth. */
export const BOOKMARK_FOLDER_MAX_DEPTH = 100;

export const BOOKMARK_MESSAGES = {
  mustLogIn: 'Must be logged in to import bookmarks',
  noFile: 'Choose a bookmarks file (.html) exported by your browser',
  tooLarge: 'Bookmark files can be at most 20 MB',
  tooMany: 'A bookmarks file can hold at most 50,000 bookmarks; split it and import the parts',
  noBookmarks: 'No bookmarks found in this file',
  importFailed: 'Failed to import bookmarks',
  exportLabel: 'Export bookmarks',
  fileLabel: 'Bookmarks file',
  invalidMapping: 'Invalid folder mapping',
  previewFailed: 'Failed to read the bookmarks file',
} as const;

/** The line a preview or summary shows when folders were nested deeper than BOOKMARK_FOLDER_MAX_DEPTH. */
export const flattenedFoldersText = (n: number) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? 'folder' : 'folders'} nested deeper than ${BOOKMARK_FOLDER_MAX_DEPTH} levels ${n === 1 ? 'was' : 'were'} merged into the folder ${BOOKMARK_FOLDER_MAX_DEPTH} levels down`;

// ---------------------------------------------------------------------------------------------
// Folders → collections

/** One folder of a bookmarks file as the preview lists it. */
export interface BookmarkFolderPreview {
  /** The collection title it would get: its path, 'Parent / Child'. */
  title: string;
  /** Bookmarks directly in it. */
  count: number;
}

/** The answer of POST /api/import/bookmarks/preview: what the file holds, nothing written. */
export interface BookmarkFilePreview {
  bookmarks: number;
  /** Bookmarks in no folder (they become links in no collection). */
  loose: number;
  folders: BookmarkFolderPreview[];
  /** Folders nested too deep, merged into their ancestor BOOKMARK_FOLDER_MAX_DEPTH levels down. */
  flattenedFolders: number;
}

// ---------------------------------------------------------------------------------------------
// Progress: POST /api/import/bookmarks with `Accept: application/x-ndjson` answers one JSON object a
// line: progress lines while the links are written, then the summary (or an error).

export const BOOKMARKS_NDJSON = 'application/x-ndjson';

export type BookmarkImportEvent =
  | { type: 'progress'; done: number; total: number }
  | { type: 'summary'; summary: BookmarkImportSummary }
  | { type: 'error'; error: string };

/**
 * Reads the complete lines of an NDJSON text that is still arriving: the events of the lines
 * after `from` (a character offset), and the offset to read from next time.
 */
export function readImportEvents(text: string, from = 0): { events: BookmarkImportEvent[]; next: number } {
  const events: BookmarkImportEvent[] = [];
  let start = from;
  for (let end = text.indexOf('\n', start); end !== -1; end = text.indexOf('\n', start)) {
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (!line) continue;
    events.push(JSON.parse(line) as BookmarkImportEvent);
  }
  return { events, next: start };
}

/** 'n of m bookmarks imported'. */
export const bookmarkProgressText = (done: number, total: number) =>
  `${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} bookmarks imported`;


/** One collection the import wrote into. */
export interface BookmarkCollectionSummary {
  id: string;
  title: string;
  /** Links added to it by this import. */
  count: number;
  /** False when the user already had a collection of that title (a re-import). */
  created: boolean;
}

/** The answer of POST /api/import/bookmarks. */
export interface BookmarkImportSummary {
  /** New links. */
  created: number;
  /** Bookmarks whose URL the user had already shared: that link was added to the folder's collection. */
  reused: number;
  skipped: {
    /** Already saved (and already in the folder's collection), or twice in one folder. */
    duplicates: number;
    /** Not an http(s) URL (javascript:, place:, file:, ...). */
    invalid: number;
  };
  collections: BookmarkCollectionSummary[];
  /** Folders nested too deep, merged into their ancestor BOOKMARK_FOLDER_MAX_DEPTH levels down. */
  flattenedFolders: number;
}

/** 'n links imported, m already saved, k skipped'. */
export function bookmarkSummaryText(s: BookmarkImportSummary): string {
  const skipped = s.skipped.duplicates + s.skipped.invalid;
  const n = (x: number) => x.toLocaleString('en-US');
  return `${n(s.created)} ${s.created === 1 ? 'link' : 'links'} imported, ${n(s.reused)} already saved, ${n(skipped)} skipped`;
}

/** 'Importing n bookmarks...' once the file is uploaded. */
export const importingBookmarks = (n?: number) =>
  n === undefined ? 'Importing bookmarks...' : `Importing ${n} ${n === 1 ? 'bookmark' : 'bookmarks'}...`;

/** 'supercurate-bookmarks-YYYY-MM-DD.html'. */
export const bookmarksExportName = (at = new Date()) => `supercurate-bookmarks-${at.toISOString().slice(0, 10)}.html`;
