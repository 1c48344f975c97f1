import { expect, it } from 'vitest';
import { API_TOKEN_MESSAGES, API_TOKEN_PREFIX, type ApiToken, type CreatedApiToken, MSG } from '../../shared/domain';
import { LAST_USED_GRANULARITY_MS } from '../../server/services/api-tokens';
import { failure, http, signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import type { TestServer } from '../support/server';

/** A call as a script sends it: no cookie, no Origin, the token in the Authorization header. */
async function script(server: TestServer, token: string, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await http(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown>, headers: res.headers };
}

const uniqueUrl = () => `https://tokens-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}.example.com/`;

describeEachDatabase('personal access tokens', (ctx) => {
  it('lets a script share a link and file it in a collection, under the same policies, until the token is revoked', async () => {
    const owner = await signedInUser(ctx.server.url, 'Tess Token');
    const other = await signedInUser(ctx.server.url, 'Otto Other');
    const created = await owner.api.createApiToken({ name: 'Reading-list script' });
    expect(created.token.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect(created).toMatchObject({ name: 'Reading-list script', expiresAt: null, lastUsedAt: null });

    // 1. Share a link.
    const link = await script(ctx.server, created.token, 'POST', '/api/links', { title: 'A read', description: 'Worth it', url: uniqueUrl() });
    expect(link.status).toBe(201);
    expect((link.body.user as { id: string }).id).toBe(owner.me.id);
    // 2. Make a collection and add the link to it.
    const collection = await script(ctx.server, created.token, 'POST', '/api/supercurations', { title: 'Reading list' });
    expect(collection.status).toBe(201);
    const added = await script(ctx.server, created.token, 'POST', `/api/supercurations/${String(collection.body.id)}/resources`, { linkId: link.body.id });
    expect(added.status).toBe(201);
    // Answers to a token are never shared-cacheable.
    const me = await script(ctx.server, created.token, 'GET', '/api/me');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(owner.me.id);
    expect(me.headers.get('cache-control')).toBe('private, no-store');
    const publicRead = await script(ctx.server, created.token, 'GET', `/api/links/${String(link.body.id)}`);
    expect([publicRead.status, publicRead.headers.get('cache-control')]).toEqual([200, 'private, no-store']);
    // 3. A policy refuses what the user may not do: editing someone else's profile.
    const refused = await script(ctx.server, created.token, 'PATCH', `/api/users/${other.me.id}`, { name: 'Hijacked' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: MSG.forbiddenProfile, code: 'FORBIDDEN' });

    // Last used is recorded (and listed, never with the token itself).
    const [listed] = await owner.api.listApiTokens();
    expect(listed?.lastUsedAt).not.toBeNull();
    expect(listed).not.toHaveProperty('token');

    // Revoked: the very next call is refused.
    await owner.api.revokeApiToken(created.id);
    const after = await script(ctx.server, created.token, 'GET', '/api/me');
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: API_TOKEN_MESSAGES.invalidToken, code: 'UNAUTHORIZED' });
    expect(await owner.api.listApiTokens()).toEqual([]);
  });

  it('refuses an expired token', async () => {
    const owner = await signedInUser(ctx.server.url);
    const created = await owner.api.createApiToken({ name: 'Short-lived', expiresInDays: 1 });
    expect(Date.parse(created.expiresAt ?? '') - Date.parse(created.createdAt)).toBe(24 * 3600 * 1000);
    expect((await script(ctx.server, created.token, 'GET', '/api/links')).status).toBe(200);
    await ctx.server.db.kysely
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', created.id)
      .execute();
    const expired = await script(ctx.server, created.token, 'GET', '/api/links');
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe(API_TOKEN_MESSAGES.invalidToken);
  });

  it('refuses a malformed or unknown token rather than treating the request as a visitor', async () => {
    for (const token of ['', 'nonsense', `${API_TOKEN_PREFIX}${'A'.repeat(43)}`]) {
      const res = await http(`${ctx.server.url}/api/directory`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(401);
    }
    // A visitor's copy of a public read varies on both credentials, so no shared cache hands it to a token.
    const visitor = await http(`${ctx.server.url}/api/directory`);
    expect(visitor.headers.get('vary')?.toLowerCase()).toContain('authorization');
    // Another scheme (a proxy's Basic password) is not ours: the request is a visitor's.
    const basic = await http(`${ctx.server.url}/api/directory`, { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect([basic.status, basic.headers.get('cache-control')]).toEqual([200, 'private, no-store']);
  });

  it('cannot create or revoke tokens, nor change the password or e-mail, manage sessions or delete the account', async () => {
    const owner = await signedInUser(ctx.server.url);
    const created = await owner.api.createApiToken({ name: 'Limited' });
    const other = await owner.api.createApiToken({ name: 'Another' });
    const needsSession = { error: API_TOKEN_MESSAGES.tokensNeedSession, code: 'SESSION_REQUIRED' };
    const accountNeedsSession = { error: API_TOKEN_MESSAGES.accountNeedsSession, code: 'SESSION_REQUIRED' };
    const { token } = created;

    expect(await script(ctx.server, token, 'POST', '/api/me/tokens', { name: 'Spawned' })).toMatchObject({ status: 403, body: needsSession });
    expect(await script(ctx.server, token, 'DELETE', `/api/me/tokens/${other.id}`)).toMatchObject({ status: 403, body: needsSession });
    expect(await script(ctx.server, token, 'DELETE', `/api/me/tokens/${created.id}`)).toMatchObject({ status: 403, body: needsSession });
    const { password, email } = owner.input;
    const refusedCalls: [string, string, unknown][] = [
      ['POST', '/api/auth/change-password', { currentPassword: password, newPassword: 'a brand new one 7' }],
      ['POST', '/api/auth/change-email', { newEmail: `new-${email}` }],
      ['POST', '/api/auth/delete-user', { password, email }],
      ['GET', '/api/auth/list-sessions', undefined],
      ['POST', '/api/auth/revoke-other-sessions', {}],
    ];
    for (const [method, path, body] of refusedCalls) {
      expect([path, await script(ctx.server, token, method, path, body)]).toMatchObject([path, { status: 403, body: accountNeedsSession }]);
    }
    // Even with the session cookie alongside: a request with a token is the token's.
    const withCookie = await http(`${ctx.server.url}/api/me/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, cookie: owner.cookieHeader(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Spawned' }),
    });
    expect(withCookie.status).toBe(403);
    // A token may list them (read-only); nothing changed.
    const listed = await script(ctx.server, token, 'GET', '/api/me/tokens');
    expect(listed.status).toBe(200);
    expect((listed.body as unknown as ApiToken[]).map((t) => t.name).sort()).toEqual(['Another', 'Limited']);
    expect(await owner.api.me()).toMatchObject({ email });
  });

  it('stores only a hash of each token', async () => {
    const owner = await signedInUser(ctx.server.url);
    const created: CreatedApiToken = await owner.api.createApiToken({ name: 'Hashed' });
    const rows = await ctx.server.db.kysely.selectFrom('api_tokens').selectAll().where('user_id', '=', owner.me.id).execute();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(created.token);
    expect(stored).not.toContain(created.token.slice(API_TOKEN_PREFIX.length));
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keeps each user's tokens their own", async () => {
    const owner = await signedInUser(ctx.server.url);
    const stranger = await signedInUser(ctx.server.url);
    const created = await owner.api.createApiToken({ name: 'Mine' });
    expect(await stranger.api.listApiTokens()).toEqual([]);
    const err = await failure(stranger.api.revokeApiToken(created.id));
    expect([err.status, err.message]).toEqual([404, API_TOKEN_MESSAGES.tokenNotFound]);
    expect((await owner.api.listApiTokens()).map((t) => t.id)).toEqual([created.id]);
    expect((await script(ctx.server, created.token, 'GET', '/api/me')).status).toBe(200);
    // A visitor has no tokens to see.
    expect((await http(`${ctx.server.url}/api/me/tokens`)).status).toBe(401);
  });

  it('ends with the account: deleting it deletes its tokens', async () => {
    const owner = await signedInUser(ctx.server.url);
    const created = await owner.api.createApiToken({ name: 'Doomed' });
    await owner.api.deleteAccount(owner.input.password, owner.input.email);
    expect(await ctx.server.db.kysely.selectFrom('api_tokens').select('id').where('id', '=', created.id).execute()).toEqual([]);
    expect((await script(ctx.server, created.token, 'GET', '/api/me')).status).toBe(401);
  });

  it('validates the name and the expiry', async () => {
    const owner = await signedInUser(ctx.server.url);
    expect((await failure(owner.api.createApiToken({ name: '   ' }))).message).toBe(API_TOKEN_MESSAGES.nameRequired);
    expect((await failure(owner.api.createApiToken({ name: 'x', expiresInDays: 0 }))).message).toBe(API_TOKEN_MESSAGES.expiryInvalid);
    expect((await failure(owner.api.createApiToken({ name: 'x', expiresInDays: 366 }))).message).toBe(API_TOKEN_MESSAGES.expiryInvalid);
    expect((await failure(owner.api.createApiToken({ name: 'x'.repeat(101) }))).message).toBe(API_TOKEN_MESSAGES.nameTooLong);
  });

  it('writes last-used at most once a minute', async () => {
    const owner = await signedInUser(ctx.server.url);
    const created = await owner.api.createApiToken({ name: 'Busy' });
    const lastUsed = async () =>
      (await ctx.server.db.kysely.selectFrom('api_tokens').select('last_used_at').where('id', '=', created.id).executeTakeFirstOrThrow()).last_used_at;
    await script(ctx.server, created.token, 'GET', '/api/me');
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await Promise.all(Array.from({ length: 5 }, () => script(ctx.server, created.token, 'GET', '/api/me')));
    expect(await lastUsed()).toBe(first);
    // A minute later (moved into the past here), the next request records it again.
    const old = new Date(Date.now() - LAST_USED_GRANULARITY_MS - 1000).toISOString();
    await ctx.server.db.kysely.updateTable('api_tokens').set({ last_used_at: old }).where('id', '=', created.id).execute();
    await script(ctx.server, created.token, 'GET', '/api/me');
    expect(await lastUsed()).not.toBe(old);
  });
});

/** AUTH_RATE_LIMIT of this suite: the 4th failed token of a minute from one client is refused. */
const LIMIT = 3;

describeEachDatabase(
  'personal access tokens: failed attempts are limited',
  (ctx) => {
    it('limits failed bearer tokens per client, across server processes, valid ones included once limited', async () => {
      const owner = await signedInUser(ctx.server.url);
      const { token } = await owner.api.createApiToken({ name: 'Good' });
      const twin = await ctx.server.twin();
      try {
        const guess = `${API_TOKEN_PREFIX}${'B'.repeat(43)}`;
        for (const server of [ctx.server, twin, ctx.server]) expect((await script(server, guess, 'GET', '/api/me')).status).toBe(401);
        expect(await script(twin, guess, 'GET', '/api/me')).toMatchObject({ status: 429, body: { error: MSG.tooManyRequests, code: 'RATE_LIMITED' } });
        // Limited is limited: the right token too, from this client, on the process that saw it.
        expect((await script(twin, token, 'GET', '/api/me')).status).toBe(429);
        // Sessions are not tokens: the signed-in user is not locked out.
        expect((await owner.api.me())?.id).toBe(owner.me.id);
      } finally {
        await twin.destroy();
      }
    });
  },
  { AUTH_RATE_LIMIT: String(LIMIT) },
);
