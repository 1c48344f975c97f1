import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { BOOKMARKS_MAX_UNPACKED_BYTES, BOOKMARK_MESSAGES, IMPORT_ZIP_MAX_ENTRIES } from '../../shared/domain';
import { HttpError, badRequest, fileTooLarge } from '../errors';
import type { Turn } from './import-slices';

/**
 * A zip export's entries, read with yauzl as streams. yauzl refuses an entry named outside the
 * archive (`../x`, `/x`: 400 here) and one that inflates to more than it declares; the entries
 * read may unpack to BOOKMARKS_MAX_UNPACKED_BYTES together (413 beyond, checked against the declared
 * sizes before inflating and against the bytes as they come).
 */

function zipError(err: unknown): Error {
  if (err instanceof HttpError) return err;
  const message = err instanceof Error ? err.message : '';
  if (/invalid relative path|absolute path|invalid characters in fileName/i.test(message)) {
    return badRequest(BOOKMARK_MESSAGES.unsafeZipEntry, 'UNSAFE_ZIP_ENTRY');
  }
  return badRequest(BOOKMARK_MESSAGES.badZip, 'BAD_ZIP');
}

const unpackedTooLarge = () => fileTooLarge(BOOKMARK_MESSAGES.unpackedTooLarge);

/** The next entry (null at the end). */
function nextEntry(zip: ZipFile): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    const done = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: Entry) => {
      done();
      resolve(entry);
    };
    const onEnd = () => {
      done();
      resolve(null);
    };
    const onError = (err: unknown) => {
      done();
      reject(zipError(err));
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

/** An entry's bytes, at most `room` of them. */
async function entryBytes(zip: ZipFile, entry: Entry, room: number): Promise<Buffer> {
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) => {
    zip.openReadStream(entry, (err, s) => (err ? reject(zipError(err)) : resolve(s)));
  });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > room) throw unpackedTooLarge();
      chunks.push(chunk);
    }
  } catch (err) {
    (stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
    throw zipError(err);
  }
  return Buffer.concat(chunks, size);
}

/**
 * Hands `onEntry` each file entry whose path `wanted` accepts, in the archive's order, and
 * returns how many it handed (400 beyond `maxEntries`). Every entry's name is checked, wanted or not.
 */
export async function readZipEntries(
  bytes: Buffer,
  wanted: (path: string) => boolean,
  onEntry: (path: string, data: Buffer) => Promise<void>,
  turn: Turn,
  maxEntries = IMPORT_ZIP_MAX_ENTRIES,
): Promise<number> {
  const zip = await new Promise<ZipFile>((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, z) => (err ? reject(zipError(err)) : resolve(z)));
  });
  let unpacked = 0;
  let read = 0;
  try {
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      await turn();
      if (entry.fileName.endsWith('/') || !wanted(entry.fileName)) continue;
      if (read === maxEntries) throw badRequest(BOOKMARK_MESSAGES.tooManyZipEntries, 'TOO_MANY_ZIP_ENTRIES');
      if (unpacked + entry.uncompressedSize > BOOKMARKS_MAX_UNPACKED_BYTES) throw unpackedTooLarge();
      const data = await entryBytes(zip, entry, BOOKMARKS_MAX_UNPACKED_BYTES - unpacked);
      unpacked += data.length;
      await onEntry(entry.fileName, data);
      read += 1;
    }
  } finally {
    zip.close();
  }
  return read;
}
