import type { Db } from '../../server/db';
import { type OutboxDeps, sendDueMailOnce } from '../../server/mail/outbox';

const POLL_MS = 25;

/** Sends every due outbox row with these deps (batch after batch until none is claimable). */
export async function drainOutbox(deps: OutboxDeps, now = new Date()): Promise<void> {
  while ((await sendDueMailOnce(deps, now)).claimed > 0) {
    /* next batch */
  }
}

/** Polls until no outbox row is queued and due (another worker, e.g. the server's, may hold some). */
export async function waitForOutboxIdle(db: Db, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = new Date().toISOString();
    const due = await db.kysely
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'queued')
      .where('next_attempt_at', '<=', now)
      .executeTakeFirstOrThrow();
    if (Number(due.n) === 0) return;
    if (Date.now() > deadline) throw new Error(`${due.n} outbox rows still queued after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Counts of outbox rows by status. */
export async function outboxCounts(db: Db): Promise<Record<string, number>> {
  const rows = await db.kysely
    .selectFrom('mail_outbox')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
