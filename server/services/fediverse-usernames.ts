import type { Kysely } from 'kysely';
import { MSG, numberedUsername, usernameFromName } from '../../shared/domain';
import type { Database } from '../db/schema';
import { conflict } from '../errors';
import { ensureProfile } from './profile-row';

/**
 * Fediverse usernames (issue 21): a curator with a public collection is a Person actor,
 * @{username}@{host}. WebFinger answers collections' slugs and users' usernames alike, so a name
 * is taken when it is either (checked both ways: here, and by a collection's slug check).
 */
type Q = Kysely<Database>;

export const usernameTaken = () => conflict(MSG.fediverseUsernameTaken, 'USERNAME_TAKEN');

/**
 * Whether a user has this username or a collection this slug, but for the user or collection
 * whose name it is about to be (`except`): the one check of both namespaces, for usernames here
 * and for slugs (services/supercurations.ts).
 */
export async function isNameTaken(trx: Q, name: string, except: { userId?: string; collectionId?: string } = {}): Promise<boolean> {
  let users = trx.selectFrom('profiles').select('user_id').where('fediverse_username', '=', name);
  if (except.userId) users = users.where('user_id', '!=', except.userId);
  let collections = trx.selectFrom('supercurations').select('id').where('slug', '=', name);
  if (except.collectionId) collections = collections.where('id', '!=', except.collectionId);
  const [user, collection] = await Promise.all([users.executeTakeFirst(), collections.executeTakeFirst()]);
  return user !== undefined || collection !== undefined;
}

/**
 * Gives the user a username made from their name ("Ada Lovelace" → ada_lovelace, then
 * ada_lovelace2…) when they have none: when their first collection turns public.
 */
export async function ensureFediverseUsername(trx: Q, userId: string): Promise<void> {
  await ensureProfile(trx, userId);
  const row = await trx
    .selectFrom('profiles')
    .innerJoin('user', 'user.id', 'profiles.user_id')
    .select(['profiles.fediverse_username', 'user.name'])
    .where('profiles.user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (row.fediverse_username) return;
  const base = usernameFromName(row.name);
  let username = base;
  for (let n = 2; await isNameTaken(trx, username); n += 1) username = numberedUsername(base, n);
  await trx.updateTable('profiles').set({ fediverse_username: username }).where('user_id', '=', userId).execute();
}
