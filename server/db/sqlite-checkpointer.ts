import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Most of SQLite's WAL checkpointing, off the request path. SQLite checkpoints inside the commit
 * that takes the WAL past 1,000 pages, copying those pages into the database and syncing it while
 * the event loop waits. A worker thread with a connection of its own runs a PASSIVE checkpoint
 * (it waits for no reader or writer) every CHECKPOINT_INTERVAL_MS, so that a commit's checkpoint
 * finds little left to copy, or finds the thread at it and leaves it. The commits' own checkpoints
 * stay: only a checkpoint right before a write lets the WAL start over from its beginning (under
 * steady writes, PASSIVE checkpoints alone let it grow to 1 GB in 24 s of like toggles).
 */
export const CHECKPOINT_INTERVAL_MS = 200;

/** Run as CommonJS in the worker (eval), so it needs no file of its own in the server bundle. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
const timer = setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** Starts checkpointing the SQLite database `file` in a worker thread; returns how to stop it. */
export function checkpointInBackground(file: string, intervalMs = CHECKPOINT_INTERVAL_MS): () => Promise<void> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), file, intervalMs },
  });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return async () => {
    // Referenced again, or a process with nothing else to do would exit before the thread has.
    worker.ref();
    worker.postMessage('stop');
    await exited;
  };
}
