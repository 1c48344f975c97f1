import type { Kysely } from 'kysely';
import type { Db } from '../db';
import { decrement } from '../db/counters';
import type { Database } from '../db/schema';
import { lockCollections } from './memberships';

type Q = Kysely<Database>;

/** How many times each id occurs: what to take off each counter. */
function tally(ids: (string | null)[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) if (id !== null) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/**
 * Takes `by` off `column` of each row, in id order (concurrent writers of the same rows then lock
 * them in the same order on PostgreSQL).
 */
async function decrementEach(
  trx: Q,
  table: 'links' | 'supercurations' | 'profiles',
  key: 'id' | 'user_id',
  column: 'likes_count' | 'reposts_count' | 'links_count' | 'followers_count' | 'subscribers_count' | 'subscriptions_count',
  counts: Map<string, number>,
): Promise<void> {
  for (const [id, by] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    await trx
      .updateTable(table)
      .set({ [column]: decrement(column, by) })
      .where(key, '=', id)
      .execute();
  }
}

/**
 * Deletes an account and everything that is only its own, in ONE transaction:
 * - its likes, links (with their topics, memberships and likes by others), topics, subscriptions
 *   both ways, collaborations (the collections stay), and the collections it owns with their
 *   tags, memberships and e-mail subscribers; queued mail to those subscribers or to the account
 *   is cancelled, so none of it goes out;
 * - Better Auth's rows: sessions, accounts (the password), pending tokens, the user.
 * Every counter of other rows moves by exactly the rows deleted here: the likes_count of links it
 * liked, the reposts_count of links it reposted, the links_count of others' collections holding
 * its links, the subscribers_count of users it followed and the subscriptions_count of its
 * followers, the followers_count of the collections it followed. Links others reposted from it
 * stay theirs (original_post_id → null).
 *
 * Runs in Better Auth's `beforeDelete` of delete-user, which has checked the password; Better
 * Auth's own deletion then finds nothing left. Answers the uploaded avatar to remove once committed.
 */
export async function deleteAccountData(db: Db, userId: string): Promise<{ avatarKey: string | null }> {
  return db.kysely.transaction().execute(async (trx) => {
    const owned = trx.selectFrom('supercurations').select('id').where('user_id', '=', userId);
    const myLinks = trx.selectFrom('links').select('id').where('user_id', '=', userId);

    // Others' collections that lose a member link: locked in the order every membership change uses.
    const memberships = await trx
      .selectFrom('supercuration_links')
      .select('supercuration_id')
      .where('link_id', 'in', myLinks)
      .where('supercuration_id', 'not in', owned)
      .execute();
    const collections = tally(memberships.map((m) => m.supercuration_id));
    await lockCollections(trx, db.dialect, [...collections.keys()].sort());

    const likes = await trx.deleteFrom('likes').where('user_id', '=', userId).returning('link_id').execute();
    await decrementEach(trx, 'links', 'id', 'likes_count', tally(likes.map((l) => l.link_id)));

    const reposts = await trx
      .selectFrom('links')
      .select('original_post_id')
      .where('user_id', '=', userId)
      .where('original_post_id', 'is not', null)
      .execute();
    await decrementEach(trx, 'links', 'id', 'reposts_count', tally(reposts.map((r) => r.original_post_id)));

    await trx.deleteFrom('supercuration_links').where('link_id', 'in', myLinks).where('supercuration_id', 'not in', owned).execute();
    await decrementEach(trx, 'supercurations', 'id', 'links_count', collections);

    const following = await trx.deleteFrom('user_subscriptions').where('subscriber_id', '=', userId).returning('publisher_id').execute();
    await decrementEach(trx, 'profiles', 'user_id', 'subscribers_count', tally(following.map((s) => s.publisher_id)));
    const followers = await trx.deleteFrom('user_subscriptions').where('publisher_id', '=', userId).returning('subscriber_id').execute();
    await decrementEach(trx, 'profiles', 'user_id', 'subscriptions_count', tally(followers.map((s) => s.subscriber_id)));
    const followed = await trx.deleteFrom('supercuration_followers').where('user_id', '=', userId).returning('supercuration_id').execute();
    await decrementEach(trx, 'supercurations', 'id', 'followers_count', tally(followed.map((f) => f.supercuration_id)));

    // No mail goes out to the subscribers of its collections, nor to the account itself.
    const user = await trx.selectFrom('user').select('email').where('id', '=', userId).executeTakeFirst();
    await trx
      .updateTable('mail_outbox')
      .set({ status: 'cancelled', text_body: '', html_body: '', claimed_until: null, claim_token: null })
      .where('status', '=', 'queued')
      .where((eb) =>
        eb.or([
          eb('subscriber_id', 'in', eb.selectFrom('email_subscribers').select('id').where('supercuration_id', 'in', owned)),
          eb('recipient', '=', user?.email ?? ''),
        ]),
      )
      .execute();

    await trx.deleteFrom('collaborators').where('user_id', '=', userId).execute();
    // Its collections go with their tags, memberships, e-mail subscribers and digest state (cascades).
    await trx.deleteFrom('supercurations').where('user_id', '=', userId).execute();
    // Its links go with their topics, memberships and others' likes; reposts of them are kept.
    await trx.deleteFrom('links').where('user_id', '=', userId).execute();
    await trx.deleteFrom('topics').where('user_id', '=', userId).execute();
    const profile = await trx.deleteFrom('profiles').where('user_id', '=', userId).returning('avatar_key').executeTakeFirst();
    await trx.deleteFrom('api_tokens').where('user_id', '=', userId).execute();
    await trx.deleteFrom('verification').where('value', '=', userId).execute();
    await trx.deleteFrom('session').where('userId', '=', userId).execute();
    await trx.deleteFrom('account').where('userId', '=', userId).execute();
    await trx.deleteFrom('user').where('id', '=', userId).execute();
    return { avatarKey: profile?.avatar_key ?? null };
  });
}
