import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '.';
import type { Database } from './schema';

/** The outboxes whose rows are claimed under a lease: same columns for status, attempts and claim. */
export type LeasedTable = 'mail_outbox' | 'federation_deliveries';

export interface Claim<T extends LeasedTable> {
  token: string;
  rows: Selectable<Database[T]>[];
}

/**
 * Takes up to `limit` due rows of an outbox under a new lease (claimed_until, claim_token,
 * attempts + 1): on PostgreSQL `SELECT … FOR UPDATE SKIP LOCKED` then UPDATE in one transaction,
 * so several server processes take disjoint batches without waiting for each other; on SQLite (one
 * writer at a time) a single `UPDATE … WHERE id IN (SELECT … LIMIT n) RETURNING`. Rows come back
 * in queue order (next_attempt_at, then id).
 */
export async function claimDueRows<T extends LeasedTable>(db: Db, table: T, limit: number, leaseMs: number, now = new Date()): Promise<Claim<T>> {
  // Both tables have the lease columns; the query is written once, for one of them.
  const k = db.kysely as unknown as Kysely<Pick<Database, 'mail_outbox'>>;
  const t = table as 'mail_outbox';
  const token = randomBytes(12).toString('hex');
  const nowIso = now.toISOString();
  const set = { claimed_until: new Date(now.getTime() + leaseMs).toISOString(), claim_token: token };
  const due = (q: typeof k) =>
    q
      .selectFrom(t)
      .select('id')
      .where('status', '=', 'queued')
      .where('next_attempt_at', '<=', nowIso)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', nowIso)]))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit);
  let rows: Selectable<Database['mail_outbox']>[];
  if (db.dialect === 'postgres') {
    rows = await k.transaction().execute(async (trx) => {
      const ids = (await due(trx).forUpdate().skipLocked().execute()).map((r) => r.id);
      if (ids.length === 0) return [];
      return trx
        .updateTable(t)
        .set((eb) => ({ ...set, attempts: eb('attempts', '+', 1) }))
        .where('id', 'in', ids)
        .returningAll()
        .execute();
    });
  } else {
    rows = await k
      .updateTable(t)
      .set((eb) => ({ ...set, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', due(k))
      .returningAll()
      .execute();
  }
  // RETURNING gives no order.
  rows.sort((a, b) => a.next_attempt_at.localeCompare(b.next_attempt_at) || a.id.localeCompare(b.id));
  return { token, rows: rows as unknown as Selectable<Database[T]>[] };
}

/** Deletes an outbox's finished rows past their keeping time: sent and cancelled ones, and failed ones (kept longer). */
export async function pruneFinished(db: Db, table: LeasedTable, keepSentMs: number, keepFailedMs: number, now = new Date()): Promise<number> {
  const k = db.kysely as unknown as Kysely<Pick<Database, 'mail_outbox'>>;
  const before = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const done = await k
    .deleteFrom(table as 'mail_outbox')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', 'in', ['sent', 'cancelled']), eb('created_at', '<', before(keepSentMs))]),
        eb.and([eb('status', '=', 'failed'), eb('created_at', '<', before(keepFailedMs))]),
      ]),
    )
    .executeTakeFirst();
  return Number(done.numDeletedRows);
}
