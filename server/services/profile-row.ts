import type { Kysely } from 'kysely';
import { now } from '../db/ids';
import type { Database } from '../db/schema';
import { seedDefaultTopics } from './topics';

/**
 * The profile row of a user, created with their default topics when it is missing (a new account,
 * or a counter that lives on it); a no-op when it exists. Runs in the caller's transaction.
 */
export async function ensureProfile(trx: Kysely<Database>, userId: string): Promise<void> {
  const created = await trx
    .insertInto('profiles')
    .values({ user_id: userId, updated_at: now() })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .executeTakeFirst();
  if (Number(created.numInsertedOrUpdatedRows ?? 0) > 0) await seedDefaultTopics(trx, userId);
}
