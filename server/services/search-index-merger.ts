import type { Db } from '../db';
import { directoryMergeDue, mergeDirectorySegments } from '../db/directory-index';
import { mergeSearchSegments, searchSegmentsPending } from '../db/link-search';
import { type BackgroundWorker, startBackgroundWorker } from './background-worker';
import { eventLoopTurns } from './event-loop-turns';

/** A round merges for about this long, a step (one short transaction) at a time; as long again rests. */
const ROUND_MS = 200;
/**
 * A full build's segments appear only with a migration or a copy, both before the server starts;
 * the directory's segments are counted this often, so that its index is rewritten at most as often.
 */
const IDLE_MS = 10 * 60_000;

/**
 * SQLite, two FTS5 indexes, merged in steps of one short transaction, other requests and writes
 * served between them, at about half of one core (a round of ROUND_MS, then as long at rest):
 * - the segments a full build of the links' search index left (migration 0022's backfill);
 * - the directory's index, back into one segment once it has more than DIRECTORY_SEGMENTS_MAX
 *   (server/db/directory-index.ts); once begun, until it is one.
 * Several server processes may each run it; their steps take turns at SQLite's write lock.
 */
export function startSearchIndexMerger(deps: { db: Db; log?: { error(obj: object, msg: string): void } }): BackgroundWorker {
  const db = deps.db.kysely;
  let directoryDue = false;
  const step = async () => {
    if (await mergeSearchSegments(db)) return true;
    if (directoryDue) directoryDue = await mergeDirectorySegments(db);
    return directoryDue;
  };
  return startBackgroundWorker({
    name: 'search index merge',
    enabled: deps.db.dialect === 'sqlite',
    busyMs: ROUND_MS,
    idleMs: IDLE_MS,
    anyDue: async () => {
      directoryDue ||= await directoryMergeDue(db);
      return directoryDue || searchSegmentsPending(db);
    },
    round: async () => {
      const turn = eventLoopTurns();
      const until = performance.now() + ROUND_MS;
      while (performance.now() < until && (await step())) await turn();
    },
    log: deps.log,
  });
}
