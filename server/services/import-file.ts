import { BOOKMARKS_MAX_COUNT, BOOKMARK_MESSAGES } from '../../shared/domain';
import { badRequest } from '../errors';
import { type ParsedBookmark, bookmarkParser, bookmarkSink, folderTree } from './bookmark-file';
import { eventLoopTurns } from './event-loop-turns';
import { readCsv } from './import-csv';
import { readJson } from './import-json';
import { type Turn, byteSlices } from './import-slices';
import { readZipEntries } from './import-zip';

/**
 * An uploaded import file, read by whichever reader its content calls for (never its name):
 * a zip (Pocket's `part_*.csv`, Omnivore's `metadata_*.json` entries), JSON (by its shape), HTML
 * (the Netscape bookmark file) or CSV (by its header row). Every reader hands the same
 * ParsedBookmark to `onBookmark`, so preview and import are one pipeline for all of them.
 */

type Kind = 'zip' | 'json' | 'html' | 'csv';

const ZIP_MAGIC = [0x50, 0x4b];
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** What the first bytes say, past a UTF-8 BOM and white space. */
export function sniffImport(bytes: Uint8Array): Kind {
  if (bytes[0] === ZIP_MAGIC[0] && bytes[1] === ZIP_MAGIC[1]) return 'zip';
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (at < bytes.length && WHITESPACE.has(bytes[at] as number)) at += 1;
  const first = String.fromCharCode(bytes[at] ?? 0);
  if (first === '{' || first === '[') return 'json';
  if (first === '<') return 'html';
  return 'csv';
}

/** Zip entries that are an export's data, by their file name in any folder. */
const ZIP_ENTRY = /(?:^|\/)(?:(part_[^/]*\.csv)|(metadata_[^/]*\.json))$/i;

async function readHtml(bytes: Uint8Array, onBookmark: (b: ParsedBookmark) => void, max: number, turn: Turn) {
  const parser = bookmarkParser(onBookmark, max);
  const decoder = new TextDecoder('utf-8');
  for await (const slice of byteSlices(bytes, turn)) parser.write(decoder.decode(slice, { stream: true }));
  parser.write(decoder.decode());
  parser.end();
  return { count: parser.count, flattenedFolders: parser.flattenedFolders };
}

const utf8 = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes);

/**
 * Reads a whole import file. 400 for a file of no known format, one that can't be read, or one
 * with more than `max` bookmarks; 413 for a zip unpacking beyond BOOKMARKS_MAX_UNPACKED_BYTES.
 * Other requests get turns throughout.
 */
export async function readImportFile(
  bytes: Buffer,
  onBookmark: (b: ParsedBookmark) => void,
  max = BOOKMARKS_MAX_COUNT,
): Promise<{ count: number; flattenedFolders: number }> {
  const turn = eventLoopTurns();
  const kind = sniffImport(bytes);
  if (kind === 'html') return readHtml(bytes, onBookmark, max, turn);
  const sink = bookmarkSink(onBookmark, max);
  const folders = folderTree();
  if (kind === 'json') await readJson(utf8(bytes), sink, folders, turn);
  else if (kind === 'csv') await readCsv(bytes, sink, folders, turn);
  else {
    const entries = await readZipEntries(
      bytes,
      (path) => ZIP_ENTRY.test(path),
      async (path, data) => {
        if (ZIP_ENTRY.exec(path)?.[1]) await readCsv(data, sink, folders, turn);
        else await readJson(utf8(data), sink, folders, turn);
      },
      turn,
    );
    if (entries === 0) throw badRequest(BOOKMARK_MESSAGES.unknownFormat, 'UNKNOWN_FORMAT');
  }
  return { count: sink.count, flattenedFolders: folders.flattenedFolders };
}
