import type { ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// V8's gc(), taken from a context of its own: the app's global object never has it.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
setFlagsFromString('--no-expose-gc');

/** Imports of at least this many bookmarks are followed by a full collection. */
export const FULL_COLLECTION_AFTER_BOOKMARKS = 10_000;

/**
 * Runs a full collection once this response has gone: for a request that leaves tens of MB of
 * garbage behind (a big import's parsed file and rows). V8 runs a full collection only once the old
 * generation has doubled since the last one (server/main.ts), so that garbage stayed resident and
 * the next import started from it: three 50,000-row imports in a row started at 141, 200-213 and
 * 203-230 MB of RSS, and the third peaked at 243-268 MB. With a collection after each: 141, 171-173
 * and 174-177 MB, peaks 226-246 MB. It holds the event loop once, for tens of ms (74 ms for a heap
 * of 77 MB of live objects, in process).
 */
export function collectAfter(res: ServerResponse): void {
  res.once('close', () => setImmediate(gc));
}
