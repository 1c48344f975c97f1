import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/**
 * SQLite's WAL checkpoints, mostly off the request path. By default SQLite checkpoints inside the
 * commit that takes the WAL past 1,000 pages, and the fsyncs of a checkpoint then block the event
 * loop, so every request in flight waits behind one write (measured under the collections bench:
 * commits p50 115 µs, p99 17 ms, max 64 ms). So the server's own connection doesn't checkpoint
 * (wal_autocheckpoint = 0), and a worker thread with a connection of its own does:
 *
 *  - a PASSIVE checkpoint every CHECKPOINT_INTERVAL_MS copies the WAL into the database and syncs
 *    it while requests go on (it waits for no reader or writer);
 *  - the WAL starts again from its beginning only when a write finds it wholly copied, which under
 *    steady writes never happens (they add to it while it is copied: 1 GB in 24 s of like toggles).
 *    So once the WAL holds more than WAL_LIMIT_PAGES, the thread stops and has the connection
 *    checkpoint in its commits (most of the WAL is copied by then) until the file is back under the
 *    limit: a commit's checkpoint, with no write between it and the next, lets that write start the
 *    WAL over, and journal_size_limit cuts the file back. (A RESTART checkpoint in the thread would take the write lock, and SQLite fails a
 *    transaction that reads and then writes with SQLITE_BUSY rather than wait for it.)
 *
 * Should the thread ever fail, the connection checkpoints in its commits again.
 */
export const CHECKPOINT_INTERVAL_MS = 200;
/** 64 MB of 4 KB pages. */
export const WAL_LIMIT_PAGES = 16_384;

/** Run as CommonJS in the worker (eval), so it needs no file of its own in the server bundle. */
const WORKER_SOURCE = `
const { statSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
const walBytes = () => {
  try {
    return statSync(workerData.file + '-wal').size;
  } catch {
    return 0;
  }
};
let over = false;
const timer = setInterval(() => {
  if (over) {
    // The connection checkpoints in its commits until the WAL has started over and been cut back.
    if (walBytes() > workerData.limitPages * 4096) return;
    over = false;
    parentPort.postMessage(false);
  }
  const [{ log }] = db.pragma('wal_checkpoint(PASSIVE)');
  if (log > workerData.limitPages) {
    over = true;
    parentPort.postMessage(true);
  }
}, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface CheckpointOptions {
  intervalMs?: number;
  limitPages?: number;
}

/** Starts checkpointing `file` (the database `sqlite` has open) in a worker; returns how to stop it. */
export function checkpointInBackground(
  sqlite: SQLite.Database,
  file: string,
  { intervalMs = CHECKPOINT_INTERVAL_MS, limitPages = WAL_LIMIT_PAGES }: CheckpointOptions = {},
): () => Promise<void> {
  sqlite.pragma('wal_autocheckpoint = 0');
  sqlite.pragma(`journal_size_limit = ${limitPages * 4096}`);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), file, intervalMs, limitPages },
  });
  worker.unref();
  const inCommits = (yes: boolean) => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${yes ? 1000 : 0}`);
  };
  worker.on('message', (over: boolean) => inCommits(over));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('error', () => inCommits(true));
  return async () => {
    // Referenced again, or a process with nothing else to do would exit before the thread has.
    worker.ref();
    worker.postMessage('stop');
    await exited;
  };
}
