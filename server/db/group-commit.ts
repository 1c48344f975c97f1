import { setImmediate as turn } from 'node:timers/promises';
import { type Kysely, type Transaction, sql } from 'kysely';

/** The most writes one transaction takes: bounds how long other writers wait for the connection. */
export const GROUP_COMMIT_MAX = 32;

interface Waiting<DB> {
  work: (trx: Transaction<DB>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  outcome?: { ok: true; value: unknown } | { ok: false; err: unknown };
}

/**
 * SQLite group commit: a write that arrives while another runs joins its transaction, up to
 * GROUP_COMMIT_MAX, each in a savepoint of its own, and all of them commit together; before it
 * commits, the transaction waits one turn of the event loop for more. A write that
 * fails rolls back to its savepoint, so it leaves nothing and the others still commit; each caller
 * hears its outcome only after the commit (a failed commit fails them all). The same result as one
 * transaction each, in the order they came, for one commit: on SQLite a commit writes every page
 * the transaction changed to the WAL, and writes that come together change many of the same pages
 * (docs/decisions.md, "SQLite adds commit together"). One queue per database (Kysely instance).
 */
export function groupCommit<DB>() {
  const queues = new WeakMap<Kysely<DB>, Waiting<DB>[]>();

  async function drain(db: Kysely<DB>, queue: Waiting<DB>[]): Promise<void> {
    // The first write is taken before the transaction begins: if it can't begin, that write fails.
    const batch = [queue.shift() as Waiting<DB>];
    try {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < batch.length; i++) {
          const job = batch[i] as Waiting<DB>;
          await sql`savepoint grouped`.execute(trx);
          try {
            job.outcome = { ok: true, value: await job.work(trx) };
          } catch (err) {
            await sql`rollback to grouped`.execute(trx);
            job.outcome = { ok: false, err };
          }
          await sql`release grouped`.execute(trx);
          if (batch.length >= GROUP_COMMIT_MAX) break;
          // With SQLite's synchronous driver a transaction never yields by itself: one turn of the
          // event loop lets the requests that came meanwhile reach the queue before the commit.
          if (queue.length === 0) await turn();
          const next = queue.shift();
          if (next) batch.push(next);
        }
      });
    } catch (err) {
      for (const job of batch) job.outcome = { ok: false, err };
    }
    for (const { outcome, resolve, reject } of batch) {
      if (outcome?.ok) resolve(outcome.value);
      else reject(outcome?.err);
    }
    if (queue.length > 0) void drain(db, queue);
    else queues.delete(db);
  }

  return function run<T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiting: Waiting<DB> = { work, resolve: resolve as (value: unknown) => void, reject };
      const queue = queues.get(db);
      if (queue) queue.push(waiting);
      else {
        const started = [waiting];
        queues.set(db, started);
        void drain(db, started);
      }
    });
  };
}
