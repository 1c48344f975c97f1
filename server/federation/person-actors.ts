import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Curators as ActivityPub actors: a user with a public collection is a `Person` whose identifier is
 * 'u-' and the user's id (stable when the username changes), found by WebFinger as
 * @{fediverse username}@{host}. Following it brings the resources added to their public collections.
 */
const PREFIX = 'u-';
export const personIdentifier = (userId: string) => PREFIX + userId;
export const userIdOf = (identifier: string) => (identifier.startsWith(PREFIX) ? identifier.slice(PREFIX.length) : null);

export interface PersonActorRow {
  id: string;
  name: string;
  username: string;
  bio: string | null;
  avatar_key: string | null;
  created_at: string;
  /** In-app subscribers and remote followers. */
  followers: number;
}

/** A public collection of the user's exists: only then are they an actor. */
const curatesInPublic = (db: Kysely<Database>, userId: string) =>
  db.selectFrom('supercurations').select('id').where('user_id', '=', userId).where('is_public', '=', 1).limit(1).executeTakeFirst();

/** The user behind an actor identifier, while they are an actor (a username and a public collection), else null. */
export async function personActor(db: Kysely<Database>, identifier: string): Promise<PersonActorRow | null> {
  const id = userIdOf(identifier);
  if (!id) return null;
  const [row, curates] = await Promise.all([
    db
      .selectFrom('user')
      .innerJoin('profiles as p', 'p.user_id', 'user.id')
      .select([
        'user.id',
        'user.name',
        'user.createdAt',
        'p.fediverse_username',
        'p.bio',
        'p.avatar_key',
        (eb) => eb('p.subscribers_count', '+', eb.ref('p.fediverse_followers_count')).as('followers'),
      ])
      .where('user.id', '=', id)
      .executeTakeFirst(),
    curatesInPublic(db, id),
  ]);
  if (!row?.fediverse_username || !curates) return null;
  return {
    id: row.id,
    name: row.name,
    username: row.fediverse_username,
    bio: row.bio,
    avatar_key: row.avatar_key,
    created_at: new Date(row.createdAt).toISOString(),
    followers: Number(row.followers),
  };
}

/** The actor identifier of the user with this fediverse username (a WebFinger handle), or null. */
export async function actorOfUsername(db: Kysely<Database>, username: string): Promise<string | null> {
  const row = await db.selectFrom('profiles').select('user_id').where('fediverse_username', '=', username).executeTakeFirst();
  return row && (await curatesInPublic(db, row.user_id)) ? personIdentifier(row.user_id) : null;
}

/** Whether the user still exists (actor or not): their keys still sign what they send. */
export async function userExists(db: Kysely<Database>, userId: string): Promise<boolean> {
  return (await db.selectFrom('user').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined;
}

/** The resources of the user's public collections (their outbox's size). */
export async function publicResourcesCount(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('supercurations')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('links_count'), eb.lit(0)).as('n'))
    .where('user_id', '=', userId)
    .where('is_public', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
