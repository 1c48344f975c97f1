import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite's checkpoints (copying the WAL back into the database file, with an fsync) run in a thread
 * of their own, on a connection of its own, every CHECKPOINT_EVERY_MS. Run by the commit that filled
 * the WAL, as SQLite does by default, a checkpoint held up that request and every one queued behind
 * it: add-resource's p99 at 500 requests/s went from 21-25 to 8-17 ms with this thread, and each of
 * a 50,000-row import's nine checkpoints held the event loop for 70-110 ms (bench/README.md, "fifth
 * session"). A PASSIVE checkpoint never waits for the writer nor blocks it, and with nothing new in
 * the WAL it does no I/O. The server's connection still checkpoints at its backstop (server/db/index.ts):
 * under writes that never pause, the WAL is never wholly copied when a write begins, so only that
 * commit's checkpoint lets it start over. The thread costs ~10 MB of RSS.
 */
export const CHECKPOINT_EVERY_MS = 100;

// Plain CommonJS, run with `eval`: the thread needs only the driver, so it has no bundle of its own.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 5000');
// A checkpoint copies frames straight from the WAL: the page cache holds only the schema.
db.pragma('cache_size = 16');
const checkpoint = db.prepare('pragma wal_checkpoint(passive)');
const timer = setInterval(() => checkpoint.run(), workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/** Starts the thread for the SQLite file; `onFailure` runs if it stops on an error (the caller then checkpoints itself). */
export function startCheckpointer(file: string, onFailure: (err: Error) => void): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const thread = new Worker(THREAD, { eval: true, workerData: { driver, file, everyMs: CHECKPOINT_EVERY_MS } });
  thread.once('error', onFailure);
  // The server's life decides the thread's, not the other way round.
  thread.unref();
  const exited = new Promise((resolve) => thread.once('exit', resolve));
  return {
    stop: async () => {
      thread.ref();
      thread.postMessage('stop');
      await exited;
    },
  };
}
