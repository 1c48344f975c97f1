import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { ApiError } from '../../shared/api/client';
import type { CreateSupercurationInput } from '../../shared/domain';
import type { Db } from '../../server/db';
import type { signedInUser } from './client';

export type User = Awaited<ReturnType<typeof signedInUser>>;

/** The ApiError a call fails with (the test fails if it succeeds). */
export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`);
  return err;
}

/** Expects a call to fail with this status and message. */
export async function expectFailure(promise: Promise<unknown>, status: number, message: string): Promise<void> {
  const err = await failure(promise);
  expect([err.status, err.message]).toEqual([status, message]);
}

/**
 * Ids in the order the API lists collections: newest first, and by id among those made in the
 * same millisecond (the keyset's tie-break).
 */
export const newestFirst = (made: readonly { id: string; createdAt: string }[]) =>
  [...made].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id)).map((s) => s.id);

export const uniqueSlug = (prefix = 'c') => `${prefix}-${randomBytes(5).toString('hex')}`;

/** A collection created through the API; public ones get a unique slug. */
export async function createCollection(user: User, input: Partial<CreateSupercurationInput> = {}) {
  const isPublic = input.isPublic ?? false;
  return user.api.createSupercuration({
    title: 'A collection',
    description: 'About things',
    isPublic,
    ...(isPublic ? { slug: uniqueSlug() } : {}),
    ...input,
  });
}

export async function linksCount(db: Db, id: string): Promise<number> {
  const row = await db.kysely.selectFrom('supercurations').select('links_count').where('id', '=', id).executeTakeFirstOrThrow();
  return Number(row.links_count);
}

export async function memberCount(db: Db, id: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('supercuration_links')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('supercuration_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function rowCount(
  db: Db,
  table: 'supercurations' | 'links' | 'supercuration_links' | 'supercuration_link_tags' | 'tags' | 'tag_categories' | 'collaborators' | 'email_subscribers' | 'supercuration_topics',
): Promise<number> {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
