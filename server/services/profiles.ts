import type { ProfileChanges, UserProfile } from '../../shared/domain';
import type { Db } from '../db';
import { now } from '../db/ids';
import { profileOf } from '../presenters/users';
import type { ObjectStorage } from '../storage/uploads';
import { newAvatarKey, reencodeAvatar } from './avatars';
import { isSubscribed } from './subscriptions';
import { ensureProfile } from './profile-row';
import { isNameTaken, usernameTaken } from './fediverse-usernames';
import { isUniqueViolation } from '../db/unique-violation';

/** Creates the profile row of a new user with their default topics; a no-op when it already exists. */
export async function createProfile(db: Db, userId: string): Promise<void> {
  await db.kysely.transaction().execute((trx) => ensureProfile(trx, userId));
}

export type ProfileRow = Awaited<ReturnType<ReturnType<typeof profileQuery>['executeTakeFirstOrThrow']>>;

function profileQuery(db: Db) {
  return db.kysely
    .selectFrom('user')
    .leftJoin('profiles', 'profiles.user_id', 'user.id')
    .select([
      'user.id',
      'user.name',
      'user.email',
      'user.emailVerified',
      'user.createdAt',
      'profiles.user_id as profile_id',
      'profiles.bio',
      'profiles.location',
      'profiles.website',
      'profiles.avatar_key',
      'profiles.subscriptions_count',
      'profiles.subscribers_count',
      'profiles.fediverse_username',
      (eb) =>
        eb
          .exists(eb.selectFrom('supercurations').select('id').whereRef('supercurations.user_id', '=', 'user.id').where('supercurations.is_public', '=', 1))
          .as('is_fediverse_actor'),
    ]);
}

/**
 * A user's profile as `viewerId` may see it (profileOf), or null.
 * A user whose profile row is missing gets one created (SPEC §4: "loaded, or created if missing").
 * `fediverseHost`: a federating server's host, to give the profile its fediverse handle.
 */
export async function getProfile(db: Db, userId: string, viewerId: string | null, fediverseHost: string | null = null): Promise<UserProfile | null> {
  const row = await profileQuery(db).where('user.id', '=', userId).executeTakeFirst();
  if (!row) return null;
  if (!row.profile_id) await createProfile(db, userId);
  const viewerSubscribes = viewerId && viewerId !== row.id ? await isSubscribed(db, viewerId, row.id) : undefined;
  return profileOf(row, viewerId, viewerSubscribes, fediverseHost);
}

/**
 * What the profile page's HTML head shows (server/http/following-routes.ts): name, bio and the
 * uploaded avatar's key, never the e-mail; undefined for an unknown user.
 */
export async function getProfilePageMeta(db: Db, userId: string) {
  return db.kysely
    .selectFrom('user')
    .leftJoin('profiles', 'profiles.user_id', 'user.id')
    .select(['user.id', 'user.name', 'profiles.bio', 'profiles.avatar_key'])
    .where('user.id', '=', userId)
    .executeTakeFirst();
}

/**
 * Name lives on Better Auth's "user" row, the rest on "profiles": both change together. A fediverse
 * username taken (by a user or as a collection's slug) is 409, even when a concurrent write takes it.
 */
export async function updateProfile(db: Db, userId: string, data: ProfileChanges): Promise<void> {
  try {
    await writeProfile(db, userId, data);
  } catch (err) {
    if (isUniqueViolation(err)) throw usernameTaken();
    throw err;
  }
}

async function writeProfile(db: Db, userId: string, data: ProfileChanges): Promise<void> {
  const username = data.fediverseUsername;
  await db.kysely.transaction().execute(async (trx) => {
    if (username !== undefined && (await isNameTaken(trx, username, { userId }))) throw usernameTaken();
    await trx.updateTable('user').set({ name: data.name, updatedAt: now() }).where('id', '=', userId).execute();
    await trx
      .insertInto('profiles')
      .values({
        user_id: userId,
        bio: data.bio ?? null,
        location: data.location ?? null,
        website: data.website ?? null,
        fediverse_username: username ?? null,
        updated_at: now(),
      })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          ...(data.bio !== undefined ? { bio: data.bio } : {}),
          ...(data.location !== undefined ? { location: data.location } : {}),
          ...(data.website !== undefined ? { website: data.website } : {}),
          ...(username !== undefined ? { fediverse_username: username } : {}),
          updated_at: now(),
        }),
      )
      .execute();
  });
}

/**
 * What GET /api/users/{id}/avatar serves: the uploaded avatar's key, else the e-mail that seeds the
 * generated one; undefined for an unknown user.
 */
export async function getAvatarSource(db: Db, userId: string) {
  return db.kysely
    .selectFrom('user')
    .leftJoin('profiles', 'profiles.user_id', 'user.id')
    .select(['user.email', 'profiles.avatar_key'])
    .where('user.id', '=', userId)
    .executeTakeFirst();
}

export async function getAvatarKey(db: Db, userId: string): Promise<string | null> {
  const row = await db.kysely
    .selectFrom('profiles')
    .select('avatar_key')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.avatar_key ?? null;
}

/**
 * Stores a re-encoded avatar, then points the profile at it, then deletes the old file.
 * A failure before the row update leaves the old avatar in place.
 */
export async function replaceAvatar(db: Db, storage: ObjectStorage, userId: string, upload: Buffer | null) {
  const image = upload ? await reencodeAvatar(upload) : null;
  const key = image ? newAvatarKey(userId) : null;
  if (key && image) await storage.put(key, image);
  await createProfile(db, userId);
  const previous = await getAvatarKey(db, userId);
  await db.kysely
    .updateTable('profiles')
    .set({ avatar_key: key, updated_at: now() })
    .where('user_id', '=', userId)
    .execute();
  if (previous && previous !== key) await storage.delete(previous);
}
