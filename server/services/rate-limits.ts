import { sql } from 'kysely';
import type { Db } from '../db';

/** How often a process deletes the rows of windows that are over. */
const PRUNE_INTERVAL_MS = 60_000;

export interface RateLimitCount {
  /** Hits in the current window, these included. */
  count: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

/**
 * Fixed-window counters in the database ("rate_limits"), so that every server process on it
 * shares them. A hit is one upsert, atomic on both dialects: it starts a new window when the
 * key's last one is over, or counts `n` more in it (one hit, or a block of them: see
 * server/http/rate-limit-stores.ts). Once a minute, a hit first deletes the rows
 * of windows that are over (an index range), so the table holds only live windows.
 */
export function rateLimitCounter(db: Db) {
  let nextPruneAt = 0;

  return async function hit(key: string, windowMs: number, n = 1): Promise<RateLimitCount> {
    const now = Date.now();
    const nowIso = new Date(now).toISOString();
    if (now >= nextPruneAt) {
      nextPruneAt = now + PRUNE_INTERVAL_MS;
      await db.kysely.deleteFrom('rate_limits').where('reset_at', '<=', nowIso).execute();
    }
    const over = sql<boolean>`${sql.ref('rate_limits.reset_at')} <= ${nowIso}`;
    const row = await db.kysely
      .insertInto('rate_limits')
      .values({ key, count: n, reset_at: new Date(now + windowMs).toISOString() })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when ${over} then ${sql.ref('excluded.count')} else ${sql.ref('rate_limits.count')} + ${sql.ref('excluded.count')} end`,
          reset_at: sql<string>`case when ${over} then ${sql.ref('excluded.reset_at')} else ${sql.ref('rate_limits.reset_at')} end`,
        }),
      )
      .returning(['count', 'reset_at'])
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), ttl: Math.max(0, Date.parse(row.reset_at) - now) };
  };
}

export type RateLimitHit = ReturnType<typeof rateLimitCounter>;
