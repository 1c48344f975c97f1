import { expect, it } from 'vitest';
import { MSG } from '../../shared/domain';
import type { TestServer } from '../support/server';
import { http, newUser, signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

/** AUTH_RATE_LIMIT of these suites: the 4th attempt of a minute is refused. */
const LIMIT = 3;
const limited = { error: MSG.tooManyRequests, code: 'RATE_LIMITED' };

/** A JSON POST to `server`, as a page of that server sends it (with the given cookies). */
async function post(server: TestServer, path: string, body: unknown, cookie?: string) {
  const res = await http(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

/** Runs `test` with a second server process-equivalent on the same database, then stops it. */
async function withTwin(server: TestServer, test: (twin: TestServer) => Promise<void>) {
  const twin = await server.twin();
  try {
    await test(twin);
  } finally {
    await twin.destroy();
  }
}

describeEachDatabase(
  'change-password rate limit',
  (ctx) => {
    it('limits wrong current passwords across two server processes on one database', async () => {
      const user = await signedInUser(ctx.server.url);
      const cookie = user.cookieHeader();
      const attempt = (server: TestServer, currentPassword: string) =>
        post(server, '/api/auth/change-password', { currentPassword, newPassword: 'a brand new one 7' }, cookie);

      await withTwin(ctx.server, async (twin) => {
        const servers = [ctx.server, twin, ctx.server];
        for (const server of servers) expect((await attempt(server, 'wrong-password-1')).status).toBe(400);
        expect(await attempt(twin, 'wrong-password-1')).toEqual({ status: 429, body: limited });
        // Limited is limited: the right password too, on either process, and nothing changed.
        expect(await attempt(ctx.server, user.input.password)).toEqual({ status: 429, body: limited });
        const signIn = await post(twin, '/api/auth/sign-in/email', { email: user.input.email, password: user.input.password });
        expect(signIn.status).toBe(200);

        // Once the window is over (moved into the past here), attempts count from one again.
        await ctx.server.db.kysely
          .updateTable('rate_limits')
          .set({ reset_at: new Date(Date.now() - 1000).toISOString() })
          .where('key', 'like', '/api/auth/change-password %')
          .execute();
        expect((await attempt(twin, 'wrong-password-1')).status).toBe(400);
      });
    });
  },
  { AUTH_RATE_LIMIT: String(LIMIT) },
);

describeEachDatabase(
  'sign-in and sign-up rate limits',
  (ctx) => {
    it('counts sign-in and sign-up attempts apart, each across two server processes', async () => {
      await withTwin(ctx.server, async (twin) => {
        const servers = [ctx.server, twin, ctx.server];
        const signIn = (server: TestServer) =>
          post(server, '/api/auth/sign-in/email', { email: 'nobody@example.com', password: 'whatever-1' });
        for (const server of servers) expect((await signIn(server)).status).toBe(401);
        expect(await signIn(twin)).toEqual({ status: 429, body: limited });

        const signUp = (server: TestServer) => post(server, '/api/auth/sign-up/email', newUser());
        for (const server of servers) expect((await signUp(server)).status).toBe(200);
        expect(await signUp(twin)).toEqual({ status: 429, body: limited });
      });
    });
  },
  { AUTH_RATE_LIMIT: String(LIMIT) },
);

describeEachDatabase('rate limit counters', (ctx) => {
  it('prunes the rows of windows that are over', async () => {
    const past = new Date(Date.now() - 1000).toISOString();
    await ctx.server.db.kysely.insertInto('rate_limits').values({ key: 'stale', count: 7, reset_at: past }).execute();
    expect((await post(ctx.server, '/api/auth/sign-in/email', { email: 'nobody@example.com', password: 'x' })).status).toBe(401);
    const rows = await ctx.server.db.kysely.selectFrom('rate_limits').select(['key', 'count']).execute();
    expect(rows).toEqual([{ key: expect.stringMatching(/^\/api\/auth\/sign-in\/email /), count: 1 }]);
  });
});
