import { dictionary } from '@zxcvbn-ts/language-common';
import { expect, it } from 'vitest';
import { MSG } from '../../shared/domain';
import { failure, http, newUser, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

type Client = ReturnType<typeof testClient>;

async function changePassword(client: Client, baseUrl: string, body: Record<string, unknown>) {
  const res = await client.fetch(`${baseUrl}/api/auth/change-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describeEachDatabase('passwords', (ctx) => {
  async function userExists(email: string) {
    const rows = await ctx.server.db.kysely.selectFrom('user').select('id').where('email', '=', email).execute();
    return rows.length > 0;
  }

  it("refuses a password of only spaces at sign-up: 'Password can't be only spaces'", async () => {
    for (const password of [' '.repeat(8), ' \t  \u00a0   \u3000 ']) {
      const input = { ...newUser(), password };
      const err = await failure(testClient(ctx.server.url).api.signUp(input));
      expect([err.status, err.message, err.details.issues]).toEqual([
        400,
        MSG.passwordBlank,
        [{ path: 'password', message: MSG.passwordBlank }],
      ]);
      expect(await userExists(input.email)).toBe(false);
    }
  });

  it('refuses the common passwords of the list, whatever their case', async () => {
    const common = dictionary['passwords-common'];
    expect(common).toEqual(expect.arrayContaining(['password123', 'qwerty123', 'iloveyou']));
    for (const password of ['password123', 'qwerty123', 'QWERTY123', 'ILoveYou']) {
      const input = { ...newUser(), password };
      const err = await failure(testClient(ctx.server.url).api.signUp(input));
      expect([err.status, err.message, err.details.issues]).toEqual([
        400,
        MSG.passwordCommon,
        [{ path: 'password', message: MSG.passwordCommon }],
      ]);
      expect(await userExists(input.email)).toBe(false);
    }
  });

  it('applies the same rules to change-password, and a good new password replaces the old one', async () => {
    const user = await signedInUser(ctx.server.url);
    const current = user.input.password;
    const blank = await changePassword(user, ctx.server.url, { currentPassword: current, newPassword: ' '.repeat(10) });
    expect(blank).toEqual({ status: 400, body: expect.objectContaining({ error: MSG.passwordBlank }) });
    const common = await changePassword(user, ctx.server.url, { currentPassword: current, newPassword: 'Password123' });
    expect(common).toEqual({ status: 400, body: expect.objectContaining({ error: MSG.passwordCommon }) });
    const wrong = await changePassword(user, ctx.server.url, { currentPassword: 'not-my-password', newPassword: 'a new one 42!' });
    expect(wrong).toEqual({ status: 400, body: { error: MSG.currentPasswordWrong, code: 'INVALID_PASSWORD' } });
    const anonymous = await http(`${ctx.server.url}/api/auth/change-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ctx.server.url },
      body: JSON.stringify({ currentPassword: current, newPassword: 'a new one 42!' }),
    });
    expect(anonymous.status).toBe(401);

    const changed = await changePassword(user, ctx.server.url, { currentPassword: current, newPassword: 'a new one 42!' });
    expect(changed.status).toBe(200);
    const old = await failure(testClient(ctx.server.url).api.signIn({ email: user.input.email, password: current }));
    expect([old.status, old.message]).toEqual([401, MSG.invalidCredentials]);
    await testClient(ctx.server.url).api.signIn({ email: user.input.email, password: 'a new one 42!' });
  });
});
