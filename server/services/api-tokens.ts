import { randomBytes } from 'node:crypto';
import { API_TOKEN_PREFIX, type ApiToken, type CreatedApiToken } from '../../shared/domain';
import type { Db } from '../db';
import { sha256 } from './email-subscriptions';
import { queryTemplate } from '../db/query-templates';
import { newId } from '../db/ids';

/** last_used_at is written at most this often per token (and per process), so a token's requests stay reads. */
export const LAST_USED_GRANULARITY_MS = 60_000;

const DAY_MS = 24 * 3600 * 1000;

/** A new token: the prefix and 32 random bytes (256 bits), base64url. */
export const newApiToken = () => `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

/** What is stored of a token: its SHA-256 (hex). A token is random, so no salt or slow hash is needed. */
export const hashApiToken = (token: string) => sha256(token);

type Row = { id: string; name: string; created_at: string; expires_at: string | null; last_used_at: string | null };

const present = (row: Row): ApiToken => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
});

/** The user's tokens, newest first (expired ones too, until revoked: the list says they expired). */
export async function listApiTokens(db: Db, userId: string): Promise<ApiToken[]> {
  const rows = await db.kysely
    .selectFrom('api_tokens')
    .select(['id', 'name', 'created_at', 'expires_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(present);
}

/** Creates a token; the answer is the only place its secret ever appears. */
export async function createApiToken(
  db: Db,
  userId: string,
  input: { name: string; expiresInDays?: number | null },
  now = new Date(),
): Promise<CreatedApiToken> {
  const token = newApiToken();
  const row: Row = {
    id: newId(),
    name: input.name,
    created_at: now.toISOString(),
    expires_at: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY_MS).toISOString() : null,
    last_used_at: null,
  };
  await db.kysely
    .insertInto('api_tokens')
    .values({ ...row, user_id: userId, token_hash: hashApiToken(token) })
    .execute();
  return { ...present(row), token };
}

/** Deletes one of the user's tokens; false when the user has no such token (someone else's included). */
export async function revokeApiToken(db: Db, userId: string, id: string): Promise<boolean> {
  const result = await db.kysely.deleteFrom('api_tokens').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A token's row and its user by the token's hash: one indexed lookup, compiled once. */
const tokenTemplate = queryTemplate<
  'hash',
  { tokenId: string; id: string; email: string; name: string; expires_at: string | null; last_used_at: string | null }
>((db, { hash }) =>
  db
    .selectFrom('api_tokens')
    .innerJoin('user', 'user.id', 'api_tokens.user_id')
    .select(['api_tokens.id as tokenId', 'user.id', 'user.email', 'user.name', 'api_tokens.expires_at', 'api_tokens.last_used_at'])
    .where('api_tokens.token_hash', '=', hash),
);

export interface TokenUser {
  tokenId: string;
  id: string;
  email: string;
  name: string;
}

/**
 * Resolves bearer tokens. Every call reads the row (no cache: a revoked token fails on its next
 * request). last_used_at is written only when the stored time is a minute old or more, and then
 * with a conditional update, so concurrent requests and processes write it about once a minute.
 */
export function apiTokenReader(db: Db) {
  return async function userOfToken(token: string, now = Date.now()): Promise<TokenUser | null> {
    if (!token.startsWith(API_TOKEN_PREFIX) || token.length > 200) return null;
    const [row] = await tokenTemplate(db.kysely, { hash: hashApiToken(token) });
    if (!row) return null;
    if (row.expires_at && Date.parse(row.expires_at) <= now) return null;
    const stale = new Date(now - LAST_USED_GRANULARITY_MS).toISOString();
    if (!row.last_used_at || row.last_used_at <= stale) {
      await db.kysely
        .updateTable('api_tokens')
        .set({ last_used_at: new Date(now).toISOString() })
        .where('id', '=', row.tokenId)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', stale)]))
        .execute();
    }
    return { tokenId: row.tokenId, id: row.id, email: row.email, name: row.name };
  };
}
