import { expect, it } from 'vitest';
import { MSG } from '../../shared/domain';
import { MAILS_PER_ADDRESS_PER_HOUR } from '../../server/http/auth-routes';
import { SUBSCRIBE_RATE_LIMIT } from '../../server/http/email-subscription-routes';
import { CONFIRMATIONS_PER_ADDRESS_PER_DAY } from '../../server/services/email-subscriptions';
import { http, newUser, signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import type { TestServer } from '../support/server';
import { createCollection } from '../support/supercurations';

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

async function queuedTo(server: TestServer, address: string, kind: string): Promise<number> {
  const rows = await server.db.kysely.selectFrom('mail_outbox').select('id').where('recipient', '=', address).where('kind', '=', kind).execute();
  return rows.length;
}

describeEachDatabase('limits per e-mail address, across server processes', (ctx) => {
  it(`mails one address at most ${MAILS_PER_ADDRESS_PER_HOUR} reset links an hour, known or not, from any process`, async () => {
    const user = await signedInUser(ctx.server.url);
    await withTwin(ctx.server, async (twin) => {
      for (const email of [user.input.email, newUser().email]) {
        const servers = [ctx.server, twin, ctx.server];
        for (const server of servers) expect((await post(server, '/api/auth/request-password-reset', { email })).status).toBe(200);
        // The same refusal whether an account uses the address or not.
        expect(await post(twin, '/api/auth/request-password-reset', { email })).toEqual({ status: 429, body: limited });
        // The address is normalised before counting.
        expect(await post(ctx.server, '/api/auth/request-password-reset', { email: ` ${email.toUpperCase()} ` })).toEqual({ status: 429, body: limited });
      }
      expect(await queuedTo(ctx.server, user.input.email, 'password-reset')).toBe(MAILS_PER_ADDRESS_PER_HOUR);
      // Another address is not held back by them.
      expect((await post(twin, '/api/auth/request-password-reset', { email: newUser().email })).status).toBe(200);
    });
  });

  it('limits verification resends of one address across processes', async () => {
    const user = await signedInUser(ctx.server.url);
    const cookie = user.cookieHeader();
    await withTwin(ctx.server, async (twin) => {
      for (const server of [twin, ctx.server, twin]) {
        expect((await post(server, '/api/auth/send-verification-email', { email: user.input.email }, cookie)).status).toBe(200);
      }
      expect(await post(ctx.server, '/api/auth/send-verification-email', { email: user.input.email }, cookie)).toEqual({ status: 429, body: limited });
      // The sign-up's own mail, then the resends.
      expect(await queuedTo(ctx.server, user.input.email, 'verification')).toBe(1 + MAILS_PER_ADDRESS_PER_HOUR);
    });
  });

  it(`sends one address at most ${CONFIRMATIONS_PER_ADDRESS_PER_DAY} subscription confirmations a day, across processes`, async () => {
    const owner = await signedInUser(ctx.server.url);
    const address = newUser().email;
    await withTwin(ctx.server, async (twin) => {
      for (const [i, server] of [ctx.server, twin, ctx.server, twin, ctx.server].entries()) {
        const c = await createCollection(owner, { isPublic: true, title: `Collection ${i}` });
        expect((await post(server, `/api/supercurations/${c.id}/subscribers`, { email: address })).status).toBe(200);
      }
      expect(await queuedTo(ctx.server, address, 'confirmation')).toBe(CONFIRMATIONS_PER_ADDRESS_PER_DAY);
    });
  });
});

describeEachDatabase(
  'limits per client, across server processes',
  (ctx) => {
    it('counts reset requests, resets and verification resends of one client across two processes', async () => {
      await withTwin(ctx.server, async (twin) => {
        const servers = [ctx.server, twin, ctx.server];
        for (const server of servers) expect((await post(server, '/api/auth/request-password-reset', { email: newUser().email })).status).toBe(200);
        expect(await post(twin, '/api/auth/request-password-reset', { email: newUser().email })).toEqual({ status: 429, body: limited });

        // Guessing reset tokens.
        for (const server of servers) expect((await post(server, '/api/auth/reset-password', { token: 'guess', newPassword: 'a guess of mine 1' })).status).toBe(400);
        expect(await post(twin, '/api/auth/reset-password', { token: 'guess', newPassword: 'a guess of mine 1' })).toEqual({ status: 429, body: limited });

        for (const server of servers) expect((await post(server, '/api/auth/send-verification-email', { email: newUser().email })).status).toBe(200);
        expect(await post(twin, '/api/auth/send-verification-email', { email: newUser().email })).toEqual({ status: 429, body: limited });
      });
    });

    it(`counts e-mail subscription requests of one client (${SUBSCRIBE_RATE_LIMIT} a minute) across two processes`, async () => {
      const owner = await signedInUser(ctx.server.url);
      const c = await createCollection(owner, { isPublic: true });
      await withTwin(ctx.server, async (twin) => {
        for (let i = 0; i < SUBSCRIBE_RATE_LIMIT; i += 1) {
          const server = i % 2 === 0 ? ctx.server : twin;
          expect((await post(server, `/api/supercurations/${c.id}/subscribers`, { email: newUser().email })).status).toBe(200);
        }
        const refused = await post(ctx.server, `/api/supercurations/${c.id}/subscribers`, { email: newUser().email });
        expect(refused).toEqual({ status: 429, body: limited });
      });
    });
  },
  { AUTH_RATE_LIMIT: '3' },
);
