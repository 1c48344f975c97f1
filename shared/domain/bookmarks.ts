import type { FolderMapping } from './import';

/**
 * Import files: the Netscape bookmark HTML every browser exports, and the exports of Pocket,
 * Raindrop.io, Instapaper, Omnivore, Karakeep, Linkwarden and Readwise Reader.
 */

/** Upload limits: the file's size (413 beyond), a zip's unpacked entries (413 beyond) and its bookmarks (400 beyond). */
export const BOOKMARKS_MAX_BYTES = 50 * 1024 * 1024;
export const BOOKMARKS_MAX_UNPACKED_BYTES = 200 * 1024 * 1024;
export const BOOKMARKS_MAX_COUNT = 100_000;
/**
 * Export entries read from one zip (400 beyond): Omnivore writes 20 items an entry, so 100,000
 * bookmarks are 5,000; each entry read costs a parser, so a zip of tiny entries can't cost more.
 */
export const IMPORT_ZIP_MAX_ENTRIES = 10_000;
/** Characters of one CSV record (a 10 MB field is refused with 400, not buffered). */
export const IMPORT_CSV_RECORD_MAX_CHARS = 1024 * 1024;
/** Invalid rows whose numbers the summary lists. */
export const IMPORT_INVALID_ROWS_LISTED = 10;
/** What the import reads, as the panel's hint and the unknown-format message name it. */
export const IMPORT_FORMATS_TEXT =
  'a browser bookmarks file (HTML), Pocket (zip or CSV), Raindrop.io (CSV), Instapaper (CSV), Omnivore (zip), Karakeep (JSON), Linkwarden (JSON) or Readwise Reader (CSV)';
/** The file input's accept list: the server detects the format from the content, not from this. */
export const IMPORT_FILE_ACCEPT = '.html,.htm,.csv,.json,.zip,text/html,text/csv,application/json,application/zip';
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
  noFile: 'Choose a file to import (.html, .csv, .json or .zip)',
  tooLarge: 'Import files can be at most 50 MB',
  unpackedTooLarge: 'This zip file unpacks to more than 200 MB',
  tooMany: 'An import file can hold at most 100,000 bookmarks; split it and import the parts',
  noBookmarks: 'No bookmarks found in this file',
  unknownFormat: `This file is in none of the formats Supercurate imports: ${IMPORT_FORMATS_TEXT}`,
  unsafeZipEntry: 'This zip file holds an entry outside its own folder (such as ../x)',
  badZip: 'This zip file could not be read',
  tooManyZipEntries: 'This zip file holds more than 10,000 export files',
  badCsv: 'This CSV file could not be read',
  csvFieldTooLarge: 'A row of this CSV file is longer than 1 MB',
  badJson: 'This JSON file could not be read',
  jsonTooDeep: 'This JSON file is nested too deep',
  invalidMainFeed: "Invalid choice for 'Also share these on my main feed'",
  importFailed: 'Failed to import bookmarks',
  exportLabel: 'Export bookmarks',
  fileLabel: 'Import file',
  mainFeedLabel: 'Also share these on my main feed',
  invalidMapping: 'Invalid folder mapping',
  previewFailed: 'Failed to read the import file',
} as const;

/**
 * "Import a public collection by its RSS feed URL": an RSS or Atom feed fetched by the server
 * (SSRF-guarded) becomes a private supercuration named by the feed, with the file import's limits.
 */
export const FEED_IMPORT_MESSAGES = {
  heading: 'Import a public collection by its RSS feed URL',
  hint: 'The RSS or Atom feed of a public Raindrop.io, Linkwarden or Karakeep collection, or any other feed. Its items become a private supercuration named after the feed.',
  urlLabel: 'Feed URL',
  submit: 'Import feed',
  invalidUrl: 'Enter the http(s) address of an RSS or Atom feed',
  refused: 'This address cannot be fetched',
  unreachable: 'Could not fetch this feed; check the address and try again',
  tooLarge: 'Feeds can be at most 50 MB',
  notAFeed: 'This address is not an RSS or Atom feed',
  noItems: 'This feed has no items to import',
  tooMany: 'A feed can hold at most 100,000 items to import',
  rateLimited: 'Too many feed imports; try again in a minute',
  fetching: 'Fetching the feed...',
} as const;

/** What a collection shows while its imported links' previews are fetched in the background. */
export const previewsLeftText = (n: number) => `Fetching previews: ${n.toLocaleString('en-US')} left`;

/** 'The feed's server answered 404'. */
export const feedStatusText = (status: number) => `The feed's server answered ${status}`;

/** A whole feed must arrive within this (DNS, redirects and a body of up to BOOKMARKS_MAX_BYTES). */
export const FEED_FETCH_TIMEOUT_MS = 30_000;
/** Feed imports per signed-in user per minute: each may fetch up to 50 MB. */
export const FEED_IMPORT_RATE_LIMIT = 10;

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

/**
 * The multipart body of POST /api/import/bookmarks: 'mapping' and 'inMainFeed' ("Also share these
 * on my main feed"; absent: the links stay private), then the file.
 */
export function bookmarkImportForm(file: Blob, name: string, { mapping, inMainFeed }: { mapping?: FolderMapping; inMainFeed?: boolean }) {
  const form = new FormData();
  if (mapping) form.append('mapping', JSON.stringify(mapping));
  if (inMainFeed !== undefined) form.append('inMainFeed', String(inMainFeed));
  form.append('file', file, name);
  return form;
}

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
  /** Bookmarks whose URL the user had already shared (or that came earlier in the file): that link was added to the folder's collection. */
  reused: number;
  /** Bookmarks whose URL the user had saved before this import (already in the folder's collection, if any): nothing written. */
  alreadySaved: number;
  skipped: {
    /** The same URL again in the file (in the same folder). */
    duplicates: number;
    /** No URL, or not an http(s) one (javascript:, place:, file:, ...). */
    invalid: number;
  };
  /** The numbers (1 = the file's first bookmark or row) of the first IMPORT_INVALID_ROWS_LISTED invalid ones. */
  invalidRows: number[];
  /** Tags beyond the per-link topic cap, left out. */
  tagsDropped: number;
  /** Links liked by the importer (favourites in the file). */
  liked: number;
  collections: BookmarkCollectionSummary[];
  /** Folders nested too deep, merged into their ancestor BOOKMARK_FOLDER_MAX_DEPTH levels down. */
  flattenedFolders: number;
}

/** 'n links imported, m already saved, k skipped'. */
export function bookmarkSummaryText(s: BookmarkImportSummary): string {
  const skipped = s.skipped.duplicates + s.skipped.invalid;
  const n = (x: number) => x.toLocaleString('en-US');
  return `${n(s.created)} ${s.created === 1 ? 'link' : 'links'} imported, ${n(s.reused + s.alreadySaved)} already saved, ${n(skipped)} skipped`;
}

/** 'Rows without an http(s) URL: 3, 7 and 2 more' (null when there are none). */
export function invalidRowsText(s: BookmarkImportSummary): string | null {
  if (s.skipped.invalid === 0) return null;
  const more = s.skipped.invalid - s.invalidRows.length;
  return `Skipped for want of an http(s) URL, rows ${s.invalidRows.join(', ')}${more > 0 ? ` and ${more.toLocaleString('en-US')} more` : ''}`;
}

/** 'n tags beyond the 5 per link were left out'. */
export const tagsDroppedText = (n: number, cap: number) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? 'tag' : 'tags'} beyond the ${cap} per link ${n === 1 ? 'was' : 'were'} left out`;

/** 'Importing n bookmarks...' once the file is uploaded. */
export const importingBookmarks = (n?: number) =>
  n === undefined ? 'Importing bookmarks...' : `Importing ${n} ${n === 1 ? 'bookmark' : 'bookmarks'}...`;

/** 'supercurate-bookmarks-YYYY-MM-DD.html'. */
export const bookmarksExportName = (at = new Date()) => `supercurate-bookmarks-${at.toISOString().slice(0, 10)}.html`;
