/** Bookmark files (issue 6 item 5): the Netscape bookmark HTML every browser exports. */

/** Upload limits: the file's size (413 beyond) and its bookmarks (400 beyond). */
export const BOOKMARKS_MAX_BYTES = 20 * 1024 * 1024;
export const BOOKMARKS_MAX_COUNT = 50_000;
/** Bookmarks written per transaction (SQLite has one writer: short transactions keep others going). */
export const BOOKMARKS_CHUNK = 500;
/** The description of a bookmark that has none (a link needs one). */
export const IMPORTED_BOOKMARK_DESCRIPTION = 'Imported bookmark';
/** Nested folders become one collection titled by their path: 'Parent / Child'. */
export const FOLDER_PATH_SEPARATOR = ' / ';

export const BOOKMARK_MESSAGES = {
  mustLogIn: 'Must be logged in to import bookmarks',
  noFile: 'Choose a bookmarks file (.html) exported by your browser',
  tooLarge: 'Bookmark files can be at most 20 MB',
  tooMany: 'A bookmarks file can hold at most 50,000 bookmarks; split it and import the parts',
  noBookmarks: 'No bookmarks found in this file',
  importFailed: 'Failed to import bookmarks',
  exportLabel: 'Export bookmarks',
  fileLabel: 'Bookmarks file',
} as const;


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
}

/** 'n links imported, m already saved, k skipped'. */
export function bookmarkSummaryText(s: BookmarkImportSummary): string {
  const skipped = s.skipped.duplicates + s.skipped.invalid;
  return `${s.created} ${s.created === 1 ? 'link' : 'links'} imported, ${s.reused} already saved, ${skipped} skipped`;
}

/** 'Importing n bookmarks...' once the file is uploaded. */
export const importingBookmarks = (n?: number) =>
  n === undefined ? 'Importing bookmarks...' : `Importing ${n} ${n === 1 ? 'bookmark' : 'bookmarks'}...`;

/** 'supercurate-bookmarks-YYYY-MM-DD.html'. */
export const bookmarksExportName = (at = new Date()) => `supercurate-bookmarks-${at.toISOString().slice(0, 10)}.html`;
