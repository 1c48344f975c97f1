import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/**
 * SQLite's WAL checkpoints, off the request path. By default SQLite checkpoints inside the commit
 * that takes the WAL past 1,000 pages, and the fsync that ends a checkpoint then blocks the event
 * loop, so every request in flight waits behind one write (measured under the collections bench:
 * commits p50 115 µs, p99 17 ms, max 64 ms). So the server's own connection never checkpoints
 * (wal_autocheckpoint = 0), and a worker thread with a connection of its own runs a PASSIVE
 * checkpoint (it waits for no reader or writer) every CHECKPOINT_INTERVAL_MS. Should the thread
 * ever fail, the connection checkpoints in its commits again, so the WAL can't grow without end.
 */
export const CHECKPOINT_INTERVAL_MS = 500;

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

/** Starts checkpointing `file` (the database `sqlite` has open) in a worker; returns how to stop it. */
export function checkpointInBackground(sqlite: SQLite.Database, file: string): () => Promise<void> {
  sqlite.pragma('wal_autocheckpoint = 0');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), file, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('error', () => {
    if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  });
  return async () => {
    // Referenced again, or a process with nothing else to do would exit before the thread has.
    worker.ref();
    worker.postMessage('stop');
    await exited;
  };
}
