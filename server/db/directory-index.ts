import { type Kysely, sql } from 'kysely';
import { fts5Merge } from './fts5-merge';
import type { Database } from './schema';

type Q = Kysely<Database>;

/**
 * SQLite: the directory's FTS5 index (`supercurations_search`, server/db/search.ts) is merged back
 * into one segment once it holds more than this many. Each transaction writing public collections'
 * titles or descriptions adds a segment, and FTS5's own merging (4 segments a level) left 14 after
 * the bench wrote 100,000 collections: a directory search then read each segment's postings, 87–111
 * µs of its statement against 25–28 µs from one segment.
 */
export const DIRECTORY_SEGMENTS_MAX = 4;

/** SQLite: the directory index's segments (each has rows in the FTS5 table's `_idx` table). Only reads. */
export async function directorySegments(db: Q): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(distinct segid) as n from supercurations_search_idx`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Whether the directory index should be merged (mergeDirectorySegments until it says done). Only reads. */
export const directoryMergeDue = async (db: Q) => (await directorySegments(db)) > DIRECTORY_SEGMENTS_MAX;

/**
 * Leaf pages a step of mergeDirectorySegments writes. Merging 100,000 collections' index (14
 * segments) took ~1.1 s of CPU however it was cut; in steps of 64 pages the longest step, which
 * other requests wait for, took 21 ms (median 5); in steps of 256, 45 ms.
 */
const DIRECTORY_MERGE_PAGES = 64;

/**
 * One step of merging the directory index into one segment, in its own transaction (fts5Merge with
 * a negative count: FTS5's 'optimize', a step at a time). Returns whether work remains.
 */
export function mergeDirectorySegments(db: Q, pages = DIRECTORY_MERGE_PAGES): Promise<boolean> {
  return db.transaction().execute((trx) => fts5Merge(trx, 'supercurations_search', -pages));
}
