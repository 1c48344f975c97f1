import type { Db } from '../db';
import { pruneFinished } from '../db/leases';

/**
 * The delivery worker of a server process (federation_deliveries; the sending is
 * ./deliveries.ts): it looks for due rows every pollMs with one read, and only then asks for the
 * sender, so Fedify is not loaded by a server that has nothing to send. About once an hour it
 * first prunes old rows.
 */

export interface DeliveryRun {
  claimed: number;
  sent: number;
  retrying: number;
  failed: number;
  cancelled: number;
}

const DEFAULT_POLL_MS = 1000;
/** Sent and cancelled rows are kept a week (to look up what went out), failed ones a month. */
const KEEP_SENT_MS = 7 * 86_400_000;
const KEEP_FAILED_MS = 30 * 86_400_000;

export interface DeliveryWorkerOptions {
  db: Db;
  /** Claims one batch of due rows and sends it (deliverDueOnce). */
  deliver(): Promise<DeliveryRun>;
  log: { warn(obj: object, msg: string): void };
  /** How often the worker looks for due rows. */
  pollMs?: number;
}

/** Whether a row is due: a read, where a claim is a write (on SQLite, the one writer's lock) every poll. */
async function anyDue(db: Db, now = new Date()): Promise<boolean> {
  const row = await db.kysely
    .selectFrom('federation_deliveries')
    .select('id')
    .where('status', '=', 'queued')
    .where('next_attempt_at', '<=', now.toISOString())
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every pollMs, sends batches until none is due. stop() lets the batch in hand finish. */
export function startDeliveryWorker(o: DeliveryWorkerOptions): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<void> | null = null;
  let prunedAt = 0;
  const drain = async () => {
    if (Date.now() - prunedAt > 3600_000) {
      prunedAt = Date.now();
      await pruneFinished(o.db, 'federation_deliveries', KEEP_SENT_MS, KEEP_FAILED_MS);
    }
    while (!stopped && (await anyDue(o.db))) {
      const run = await o.deliver();
      if (run.claimed === 0) return;
    }
  };
  const tick = () => {
    if (stopped || running) return;
    running = drain()
      .catch((err: unknown) => o.log.warn({ err }, 'ActivityPub deliveries: a run failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, o.pollMs ?? DEFAULT_POLL_MS);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
