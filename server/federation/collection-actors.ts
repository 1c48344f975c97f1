import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { isFederatedCollection } from '../policies/supercurations';

/**
 * Collections as ActivityPub actors: the identifier in an actor's URI is 'c-' and the collection's
 * id (stable: its slug, the handle, may change). User actors would take another prefix.
 */
const PREFIX = 'c-';
export const actorIdentifier = (supercurationId: string) => PREFIX + supercurationId;
export const collectionIdOf = (identifier: string) => (identifier.startsWith(PREFIX) ? identifier.slice(PREFIX.length) : null);

export interface CollectionActorRow {
  id: string;
  slug: string;
  title: string;
  description: string;
  thumbnail_url: string | null;
  created_at: string;
  links_count: number;
  followers: number;
}

/** The collection behind an actor identifier, while it is an actor (public), else null. */
export async function collectionActor(db: Kysely<Database>, identifier: string): Promise<CollectionActorRow | null> {
  const id = collectionIdOf(identifier);
  if (!id) return null;
  const row = await db
    .selectFrom('supercurations as s')
    .select([
      's.id',
      's.slug',
      's.title',
      's.description',
      's.thumbnail_url',
      's.created_at',
      's.links_count',
      's.is_public',
      (eb) => eb('s.followers_count', '+', eb.ref('s.fediverse_followers_count')).as('followers'),
    ])
    .where('s.id', '=', id)
    .executeTakeFirst();
  if (!row?.slug || !isFederatedCollection({ isPublic: row.is_public === 1 })) return null;
  return { ...row, slug: row.slug, links_count: Number(row.links_count), followers: Number(row.followers) };
}

/** The actor identifier of the public collection with this slug (a WebFinger handle), or null. */
export async function actorOfSlug(db: Kysely<Database>, slug: string): Promise<string | null> {
  const row = await db.selectFrom('supercurations').select(['id', 'is_public']).where('slug', '=', slug).executeTakeFirst();
  return row && isFederatedCollection({ isPublic: row.is_public === 1 }) ? actorIdentifier(row.id) : null;
}

/** Whether the collection still exists (public or not): its keys still sign what it sends. */
export async function collectionExists(db: Kysely<Database>, supercurationId: string): Promise<boolean> {
  return (await db.selectFrom('supercurations').select('id').where('id', '=', supercurationId).executeTakeFirst()) !== undefined;
}
