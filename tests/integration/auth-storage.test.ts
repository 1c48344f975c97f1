import { expect, it } from 'vitest';
import { secondSession, signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

/**
 * server/auth-storage.ts disables Better Auth's AsyncLocalStorage contexts whenever no call into it
 * is under way. A call still running when another ends must keep its context: Better Auth reads it
 * throughout (a call without it fails with 500).
 */
describeEachDatabase('calls into Better Auth side by side', (ctx) => {
  it('sign-ups, sign-ins, session lists and sign-outs all succeed while others end around them', async () => {
    const users = await Promise.all(Array.from({ length: 10 }, (_, i) => signedInUser(ctx.server.url, `Side ${i}`)));
    const rounds = await Promise.all(
      users.map(async (user, i) => {
        const other = await secondSession(ctx.server.url, user.input);
        const [sessions, again] = await Promise.all([user.api.listSessions(), signedInUser(ctx.server.url, `Side again ${i}`)]);
        await other.api.signOut();
        return { sessions: sessions.length, me: await user.api.me(), otherMe: await other.api.me(), again: again.me.name };
      }),
    );
    expect(rounds).toEqual(users.map((user, i) => ({ sessions: 2, me: expect.objectContaining({ id: user.me.id }), otherMe: null, again: `Side again ${i}` })));
  });
});
