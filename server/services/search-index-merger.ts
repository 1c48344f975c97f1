import type { Db } from '../db';
import { mergeSearchSegments, searchSegmentsPending } from '../db/link-search';
import { type BackgroundWorker, startBackgroundWorker } from './background-worker';
import { eventLoopTurns } from './event-loop-turns';

/** A round merges for about this long, a step (one short transaction) at a time; as long again rests. */
const ROUND_MS = 200;
/** A full build's segments appear only with a migration or a copy, both before the server starts. */
const IDLE_MS = 10 * 60_000;

/**
 * SQLite: merges the segments a full build of the search index left (migration 0022's backfill),
 * in steps of one short transaction, other requests and writes served between them, at about
 * half of one core (a round of ROUND_MS, then as long at rest). Several
 * server processes may each run it; their steps take turns at SQLite's write lock.
 */
export function startSearchIndexMerger(deps: { db: Db; log?: { error(obj: object, msg: string): void } }): BackgroundWorker {
  return startBackgroundWorker({
    name: 'search index merge',
    enabled: deps.db.dialect === 'sqlite',
    busyMs: ROUND_MS,
    idleMs: IDLE_MS,
    anyDue: () => searchSegmentsPending(deps.db.kysely),
    round: async () => {
      const turn = eventLoopTurns();
      const until = performance.now() + ROUND_MS;
      while (performance.now() < until && (await mergeSearchSegments(deps.db.kysely))) await turn();
    },
    log: deps.log,
  });
}
