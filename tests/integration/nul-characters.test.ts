import { expect, it } from 'vitest';
import { MSG } from '../../shared/domain';
import { signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { createCollection } from '../support/supercurations';

const cursor = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');

describeEachDatabase('NUL characters in ids, queries and cursors', (ctx) => {
  it('are a client error, never a 500 (PostgreSQL cannot compare them: 400 with a clear message)', async () => {
    const user = await signedInUser(ctx.server.url);
    const link = await user.api.createLink({ url: 'https://example.com/nul', title: 'A link', description: 'About it' });
    const collection = await createCollection(user);
    const requests: [string, string, unknown?][] = [
      ['GET', '/api/links/%00'],
      ['GET', `/api/users/a%00b/supercurations`],
      ['GET', '/api/links?topic=%00'],
      ['GET', '/api/links?q=a%00b'],
      ['GET', `/api/links?cursor=${cursor(['newest', '\u0000', '\u0000'])}`],
      ['GET', `/api/me/subscribers?cursor=${cursor(['subscribers', '\u0000', '\u0000'])}`],
      ['PATCH', `/api/links/${link.id}`, { topicIds: ['\u0000'] }],
      ['POST', `/api/supercurations/${collection.id}/resources`, { linkId: '\u0000' }],
      ['POST', `/api/supercurations/${collection.id}/collaborators`, { userId: '\u0000' }],
    ];
    for (const [method, path, body] of requests) {
      const res = await user.fetch(`${ctx.server.url}${path}`, {
        method,
        ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
      });
      const answer = { request: `${method} ${path}`, status: res.status };
      expect(answer.status, answer.request).toBeLessThan(500);
      if (ctx.server.db.dialect === 'postgres') {
        expect({ ...answer, body: await res.json() }).toEqual({ ...answer, status: 400, body: { error: MSG.nulCharacter, code: 'INVALID_CHARACTERS' } });
      }
    }
  });
});
