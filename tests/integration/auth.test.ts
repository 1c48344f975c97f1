import { expect, it, vi } from 'vitest';
import { MSG } from '../../shared/domain';
import { SESSION_CACHE_MS } from '../../server/http/session-cache';
import { failure, http, newUser, secondSession, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

describeEachDatabase('accounts', (ctx) => {
  it('registers, starts a session and reads the own profile with e-mail', async () => {
    const client = testClient(ctx.server.url);
    const input = newUser('Ada Lovelace');
    await client.api.signUp(input);
    const me = await client.api.me();
    expect(me).toMatchObject({ name: 'Ada Lovelace', email: input.email, bio: null, subscribersCount: 0 });
    expect(me?.avatarUrl).toMatch(/^\/api\/users\/.+\/avatar\?v=generated$/);
  });

  it('sets the session cookie HttpOnly and SameSite=Lax (not Secure over http)', async () => {
    const res = await http(`${ctx.server.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ctx.server.url },
      body: JSON.stringify(newUser()),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('better-auth.session_token='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it("refuses a second account with the same e-mail: 'Email already in use'", async () => {
    const input = newUser();
    await testClient(ctx.server.url).api.signUp(input);
    const err = await failure(testClient(ctx.server.url).api.signUp({ ...input, email: input.email.toUpperCase() }));
    expect(err.message).toBe(MSG.emailInUse);
    expect(err.status).toBeGreaterThanOrEqual(400);
    expect(err.status).toBeLessThan(500);
  });

  it('validates registration on the server with the shared messages', async () => {
    const client = testClient(ctx.server.url);
    const short = await failure(client.api.signUp({ ...newUser(), password: 'short' }));
    expect([short.status, short.message]).toEqual([400, MSG.passwordTooShort]);
    const noName = await failure(client.api.signUp({ ...newUser(), name: '   ' }));
    expect([noName.status, noName.message]).toEqual([400, MSG.nameRequired]);
    const badEmail = await failure(client.api.signUp({ ...newUser(), email: 'not-an-email' }));
    expect([badEmail.status, badEmail.message]).toEqual([400, MSG.emailInvalid]);
    expect(await client.api.me()).toBeNull();
  });

  it("answers a wrong password and an unknown e-mail alike: 'Invalid email or password'", async () => {
    const { input } = await signedInUser(ctx.server.url);
    const wrong = await failure(testClient(ctx.server.url).api.signIn({ email: input.email, password: 'nope-nope-1' }));
    const unknown = await failure(
      testClient(ctx.server.url).api.signIn({ email: 'nobody@example.com', password: input.password }),
    );
    expect([wrong.status, wrong.message]).toEqual([401, MSG.invalidCredentials]);
    expect([unknown.status, unknown.message]).toEqual([401, MSG.invalidCredentials]);
  });

  it('signs out and back in', async () => {
    const user = await signedInUser(ctx.server.url);
    await user.api.signOut();
    expect(await user.api.me()).toBeNull();
    await user.api.signIn({ email: user.input.email, password: user.input.password });
    expect((await user.api.me())?.id).toBe(user.me.id);
  });

  it('keeps accounts and sessions across a server restart', async () => {
    const user = await signedInUser(ctx.server.url, 'Persistent Pat');
    ctx.server = await ctx.server.restart();
    expect(await user.api.me()).toMatchObject({ id: user.me.id, name: 'Persistent Pat' });
    const again = testClient(ctx.server.url);
    await again.api.signIn({ email: user.input.email, password: user.input.password });
    expect((await again.api.me())?.id).toBe(user.me.id);
  });

  it('refuses cookie-authenticated auth calls from a foreign origin', async () => {
    const user = await signedInUser(ctx.server.url);
    const res = await http(`${ctx.server.url}/api/auth/sign-out`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie: user.cookieHeader() },
      body: '{}',
    });
    expect(res.status).toBe(403);
    expect(await user.api.me()).not.toBeNull();
  });
});

describeEachDatabase(
  'sign-in rate limit',
  (ctx) => {
    it('answers 429 with a clear message after 3 attempts a minute from one address', async () => {
      const client = testClient(ctx.server.url);
      const attempt = () => failure(client.api.signIn({ email: 'nobody@example.com', password: 'whatever-1' }));
      for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(401);
      const limited = await attempt();
      expect([limited.status, limited.message]).toEqual([429, MSG.tooManyRequests]);
    });
  },
  { AUTH_RATE_LIMIT: '3' },
);

describeEachDatabase('sessions', (ctx) => {
  const tokenOf = (cookieHeader: string) => {
    const value = decodeURIComponent(cookieHeader.split('better-auth.session_token=')[1] ?? '');
    return value.slice(0, value.lastIndexOf('.'));
  };

  it('ignores a session cookie whose signature does not match', async () => {
    const user = await signedInUser(ctx.server.url);
    const forged = user.cookieHeader().replace(/\.[^.;]+$/, `.${encodeURIComponent('A'.repeat(43) + '=')}`);
    const res = await http(`${ctx.server.url}/api/me`, { headers: { cookie: forged } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: MSG.notAuthenticated });
  });

  // The next two change a session in the database before the server first reads it (a session
  // read is trusted for SESSION_CACHE_MS, see the last tests here): a second sign-in's.
  it('refuses an expired session', async () => {
    const user = await signedInUser(ctx.server.url);
    const other = await secondSession(ctx.server.url, user.input);
    await ctx.server.db.kysely
      .updateTable('session')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('token', '=', tokenOf(other.cookieHeader()))
      .execute();
    expect(await other.api.me()).toBeNull();
  });

  it('slides a day-old session forward, as Better Auth does', async () => {
    const signedUp = await signedInUser(ctx.server.url);
    const user = { ...(await secondSession(ctx.server.url, signedUp.input)), me: signedUp.me };
    const token = tokenOf(user.cookieHeader());
    const inSixDays = new Date(Date.now() + 6 * 24 * 3600 * 1000 - 60_000);
    await ctx.server.db.kysely
      .updateTable('session')
      .set({ expiresAt: inSixDays.toISOString() })
      .where('token', '=', token)
      .execute();
    expect((await user.api.me())?.id).toBe(user.me.id);
    const row = await ctx.server.db.kysely
      .selectFrom('session')
      .select('expiresAt')
      .where('token', '=', token)
      .executeTakeFirstOrThrow();
    expect(new Date(row.expiresAt).getTime()).toBeGreaterThan(inSixDays.getTime() + 12 * 3600 * 1000);
  });

  it('refuses a signed-out session on its very next request, though it was just read', async () => {
    const user = await signedInUser(ctx.server.url);
    const cookie = user.cookieHeader();
    expect((await http(`${ctx.server.url}/api/me`, { headers: { cookie } })).status).toBe(200);
    await user.api.signOut();
    const res = await http(`${ctx.server.url}/api/me`, { headers: { cookie } });
    expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([401, MSG.notAuthenticated]);
  });

  it("refuses a deleted account's other sessions on their next request", async () => {
    const user = await signedInUser(ctx.server.url);
    const other = await secondSession(ctx.server.url, user.input);
    expect((await other.api.me())?.id).toBe(user.me.id);
    await user.api.deleteAccount(user.input.password, user.input.email);
    expect(await other.api.me()).toBeNull();
  });

  it('shows a new display name on the next request', async () => {
    const user = await signedInUser(ctx.server.url, 'Old Name');
    await user.api.updateProfile(user.me.id, { name: 'New Name' });
    const link = await user.api.createLink({ url: 'https://example.com/renamed', title: 'Renamed', description: 'Shared after a rename' });
    expect([(await user.api.me())?.name, link.user.name]).toEqual(['New Name', 'New Name']);
  });

  it(`refuses a session revoked elsewhere (another server, or the database) within ${SESSION_CACHE_MS / 1000} s`, async () => {
    const user = await signedInUser(ctx.server.url);
    await ctx.server.db.kysely.deleteFrom('session').where('token', '=', tokenOf(user.cookieHeader())).execute();
    // Trusted as read, for at most SESSION_CACHE_MS: this server was not told.
    expect((await user.api.me())?.id).toBe(user.me.id);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + SESSION_CACHE_MS });
    try {
      expect(await user.api.me()).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
