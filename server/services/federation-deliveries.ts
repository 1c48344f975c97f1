import type { Kysely } from 'kysely';
import { newId, now } from '../db/ids';
import type { Database } from '../db/schema';

/**
 * What a public collection's remote (fediverse) followers are to be sent, queued in the caller's
 * transaction so that it commits with the change: one row per remote inbox, a server's shared inbox
 * standing for all its followers there. server/federation/deliveries.ts builds, signs and sends
 * them. A collection without remote followers costs one indexed read. Only public collections have
 * followers: turning private forgets them (forgetRemoteFollowers).
 * - 'create': a resource added (a Note);
 * - 'delete': a resource removed, or its link deleted (the Note's Tombstone);
 * - 'delete-actor': the collection turned private (no longer an actor).
 */
export type FederatedActivity = Database['federation_deliveries']['activity'];

type Q = Kysely<Database>;

/** Rows per INSERT (PostgreSQL allows 65,535 parameters a statement). */
const INSERT_CHUNK = 500;

export async function queueDeliveries(trx: Q, activity: FederatedActivity, supercurationIds: readonly string[], linkId: string | null): Promise<void> {
  if (supercurationIds.length === 0) return;
  const inboxes = await trx
    .selectFrom('federation_followers')
    .select(['supercuration_id', (eb) => eb.fn.coalesce('shared_inbox_uri', 'inbox_uri').as('inbox')])
    .where('supercuration_id', 'in', supercurationIds)
    .distinct()
    .execute();
  if (inboxes.length === 0) return;
  const at = now();
  const rows = inboxes.map((r) => ({
        id: newId(),
        supercuration_id: r.supercuration_id,
        link_id: linkId,
        activity,
        inbox_uri: r.inbox,
        status: 'queued' as const,
        attempts: 0,
        next_attempt_at: at,
        created_at: at,
        claimed_until: null,
        claim_token: null,
        last_error: null,
        sent_at: null,
  }));
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await trx.insertInto('federation_deliveries').values(rows.slice(i, i + INSERT_CHUNK)).execute();
}

/** A collection turned private: its remote followers are told it is gone, then forgotten. */
export async function forgetRemoteFollowers(trx: Q, supercurationId: string): Promise<void> {
  await queueDeliveries(trx, 'delete-actor', [supercurationId], null);
  await trx.deleteFrom('federation_followers').where('supercuration_id', '=', supercurationId).execute();
}
