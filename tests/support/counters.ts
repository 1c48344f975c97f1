import { sql } from 'kysely';
import type { Db } from '../../server/db';

export interface CounterMismatch {
  counter: string;
  id: string;
  stored: number;
  rows: number;
}

/**
 * Every counter of the data rules (ARCHITECTURE.md) recounted from its rows: the rows whose stored
 * counter differs. Empty when every counter equals its rows.
 */
export async function counterMismatches(db: Db): Promise<CounterMismatch[]> {
  const k = db.kysely;
  const checks = [
    k
      .selectFrom('links as l')
      .select([sql<string>`'likes_count'`.as('counter'), 'l.id', 'l.likes_count as stored'])
      .select((eb) => eb.selectFrom('likes').select(eb.fn.countAll<number>().as('n')).whereRef('likes.link_id', '=', 'l.id').as('rows')),
    k
      .selectFrom('links as l')
      .select([sql<string>`'reposts_count'`.as('counter'), 'l.id', 'l.reposts_count as stored'])
      .select((eb) => eb.selectFrom('links as r').select(eb.fn.countAll<number>().as('n')).whereRef('r.original_post_id', '=', 'l.id').as('rows')),
    k
      .selectFrom('supercurations as s')
      .select([sql<string>`'links_count'`.as('counter'), 's.id', 's.links_count as stored'])
      .select((eb) =>
        eb.selectFrom('supercuration_links as sl').select(eb.fn.countAll<number>().as('n')).whereRef('sl.supercuration_id', '=', 's.id').as('rows'),
      ),
    k
      .selectFrom('profiles as p')
      .select([sql<string>`'subscribers_count'`.as('counter'), 'p.user_id as id', 'p.subscribers_count as stored'])
      .select((eb) =>
        eb.selectFrom('user_subscriptions as us').select(eb.fn.countAll<number>().as('n')).whereRef('us.publisher_id', '=', 'p.user_id').as('rows'),
      ),
    k
      .selectFrom('profiles as p')
      .select([sql<string>`'subscriptions_count'`.as('counter'), 'p.user_id as id', 'p.subscriptions_count as stored'])
      .select((eb) =>
        eb.selectFrom('user_subscriptions as us').select(eb.fn.countAll<number>().as('n')).whereRef('us.subscriber_id', '=', 'p.user_id').as('rows'),
      ),
  ];
  const results = await Promise.all(checks.map((q) => q.execute()));
  return results
    .flat()
    .map((r) => ({ counter: r.counter, id: r.id, stored: Number(r.stored), rows: Number(r.rows) }))
    .filter((r) => r.stored !== r.rows);
}
