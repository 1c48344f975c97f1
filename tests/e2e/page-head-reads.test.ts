import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { publicSupercurationPage } from '../../server/http/supercuration-routes';
import { readInProcess, visitorReads } from '../../server/http/visitor-reads';
import { registerWebRoutes } from '../../server/http/web-routes';
import { signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { createCollection } from '../support/supercurations';
import { snapshotWebBuild } from './support/web-build';

/**
 * A public collection's page shows the collection in its head (title, Open Graph) and in its server
 * render: one read for both (server/http/web-routes.ts hands the head's answer to the render). Here
 * rather than among the integration tests: it needs the built server render, which `npm test` builds
 * before the end-to-end tests.
 */
describeEachDatabase('a public page’s reads', (ctx) => {
  it('reads the collection once, for its head and its server render', async () => {
    const curator = await signedInUser(ctx.server.url, 'Olga Read-Once');
    const collection = await createCollection(curator, { isPublic: true, title: 'Read once, shown twice', description: 'Head and body' });
    const hidden = await createCollection(curator, { isPublic: false });
    await curator.api.addResource(collection.id, { link: { url: 'https://example.org/once', title: 'Once upon a resource', description: 'In the body' } });
    const inProcess = readInProcess(visitorReads(ctx.server.db));
    const asked: string[] = [];
    const web = await snapshotWebBuild();
    const app = Fastify();
    await registerWebRoutes(app, web.dir, {
      metaPages: [publicSupercurationPage('https://supercurate.example')],
      hasSessionCookie: (req) => req.headers.cookie !== undefined,
      readInProcess: (url) => {
        asked.push(url.pathname);
        return inProcess(url);
      },
    });
    const collectionRead = `/api/supercurations/public/${collection.slug}`;
    try {
      const visitor = await app.inject({ url: `/supercurations/public/${collection.slug}` });
      expect(visitor.statusCode).toBe(200);
      expect(visitor.body).toContain('<meta property="og:title" content="Read once, shown twice" />');
      expect(visitor.body).toContain('Once upon a resource');
      expect(asked).toEqual([collectionRead, `/api/supercurations/${collection.id}/resources`]);

      // With a session the page is not rendered: the head alone reads the collection.
      asked.length = 0;
      const member = await app.inject({ url: `/supercurations/public/${collection.slug}`, headers: { cookie: 'session=1' } });
      expect(member.statusCode).toBe(200);
      expect(member.body).toContain('<meta property="og:title" content="Read once, shown twice" />');
      expect(member.body).not.toContain('Once upon a resource');
      expect(asked).toEqual([collectionRead]);

      const missing = await app.inject({ url: `/supercurations/public/${hidden.slug ?? 'no-slug'}` });
      expect(missing.statusCode).toBe(404);
      expect(missing.body).not.toContain('og:title');
    } finally {
      await app.close();
      web.remove();
    }
  });
});
