import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { BOOKMARK_MESSAGES, IMPORT_CSV_RECORD_MAX_CHARS } from '../../shared/domain';
import { HttpError, badRequest } from '../errors';
import { type BookmarkSink, type FolderTree, type FoundBookmark, parseSavedDate } from './bookmark-file';
import { type Turn, byteSlices } from './import-slices';

/**
 * The CSV exports, told apart by their header row (names compared in lower case, in any order):
 * Pocket, Raindrop.io (long and short form), Instapaper and Readwise Reader.
 */

/** A row's field by its lower-cased header name ('' when the file has no such column). */
type Field = (name: string) => string;

interface CsvFormat {
  matches(header: ReadonlySet<string>): boolean;
  read(field: Field, folders: FolderTree): FoundBookmark;
}

/**
 * Tags as a text: separated by `separator`, or a list written as JSON or Python does
 * (`["a","b"]`, `['a', 'b']`: Instapaper, Readwise).
 */
export function splitTags(raw: string, separator: string): string[] {
  const text = raw.trim();
  if (text.startsWith('[') && text.endsWith(']')) {
    return [...text.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g)].map((m) => m[1] ?? m[2] ?? '');
  }
  return text.split(separator);
}

const has = (header: ReadonlySet<string>, ...names: string[]) => names.every((n) => header.has(n));

const plain = (field: Field, description: string, tags: string[], savedDate: string): FoundBookmark => ({
  href: field('url'),
  title: field('title'),
  description,
  tags,
  addDate: parseSavedDate(savedDate),
  folder: null,
});

/** Folders that are a service's reading states, not the user's folders. */
const INSTAPAPER_STATES = new Set(['unread', 'archive']);

const FORMATS: CsvFormat[] = [
  {
    // Readwise Reader: Title,URL,ID,Document tags,Saved date,Reading progress,Location,Seen
    matches: (h) => has(h, 'url', 'document tags', 'saved date'),
    read: (field) => plain(field, '', splitTags(field('document tags'), ','), field('saved date')),
  },
  {
    // Instapaper: URL,Title,Selection,Folder,Timestamp,Tags
    matches: (h) => has(h, 'url', 'selection', 'folder', 'timestamp'),
    read: (field, folders) => {
      const folder = field('folder').trim();
      return {
        ...plain(field, field('selection'), splitTags(field('tags'), ','), field('timestamp')),
        folder: INSTAPAPER_STATES.has(folder.toLowerCase()) ? null : folders.of([folder]),
      };
    },
  },
  {
    // Raindrop.io: id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite (or url,folder,title,note,tags,created)
    matches: (h) => has(h, 'url', 'folder', 'title', 'note', 'created'),
    read: (field, folders) => {
      const folder = field('folder').trim();
      return {
        ...plain(field, field('note').trim() || field('excerpt'), splitTags(field('tags'), ','), field('created')),
        // Raindrop's own "Unsorted" is no folder of the user's.
        folder: folder.toLowerCase() === 'unsorted' ? null : folders.of(folder.split('/')),
        liked: field('favorite').trim().toLowerCase() === 'true',
      };
    },
  },
  {
    // Pocket: title,url,time_added,tags,status (tags separated by |)
    matches: (h) => has(h, 'url', 'time_added'),
    read: (field) => plain(field, '', splitTags(field('tags'), '|'), field('time_added')),
  },
];

/**
 * Reads a CSV export with csv-parse, in slices that give other requests turns. A header row of
 * no known export, or a file that is no CSV at all, is 400 'none of the formats'; a record over
 * IMPORT_CSV_RECORD_MAX_CHARS is refused as it is read, before it is buffered whole.
 */
export async function readCsv(bytes: Uint8Array, sink: BookmarkSink, folders: FolderTree, turn: Turn): Promise<void> {
  const input = Readable.from(byteSlices(bytes, turn), { objectMode: false });
  // relax_quotes: a quote inside an unquoted field (`Say "hi",https://...`) is kept as text, as spreadsheets read it.
  const parser = parse({
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: IMPORT_CSV_RECORD_MAX_CHARS,
  });
  let format: CsvFormat | undefined;
  let columns = new Map<string, number>();
  try {
    for await (const record of input.pipe(parser) as AsyncIterable<string[]>) {
      if (!format) {
        columns = new Map(record.map((name, i) => [name.trim().toLowerCase(), i]));
        const header = new Set(columns.keys());
        format = FORMATS.find((f) => f.matches(header));
        if (!format) throw badRequest(BOOKMARK_MESSAGES.unknownFormat, 'UNKNOWN_FORMAT');
        continue;
      }
      const row = record;
      sink.add(format.read((name) => row[columns.get(name) ?? -1] ?? '', folders));
      await turn();
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if (err instanceof CsvError && err.code === 'CSV_MAX_RECORD_SIZE') throw badRequest(BOOKMARK_MESSAGES.csvFieldTooLarge, 'CSV_FIELD_TOO_LARGE');
    if (!format) throw badRequest(BOOKMARK_MESSAGES.unknownFormat, 'UNKNOWN_FORMAT');
    if (err instanceof CsvError) throw badRequest(BOOKMARK_MESSAGES.badCsv, 'BAD_CSV');
    throw err;
  } finally {
    input.destroy();
  }
}
