import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { publicSupercurationPage } from '../../server/http/supercuration-routes';
import { readInProcess, visitorReads } from '../../server/http/visitor-reads';
import { registerWebRoutes } from '../../server/http/web-routes';
import { snapshotWebBuild } from '../e2e/support/web-build';
import { http, signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { createCollection } from '../support/supercurations';

/**
 * The server render reads its data in process (server/http/visitor-reads.ts), not over HTTP: what
 * it reads must be what a visitor's browser gets from the API, byte for byte, refusals included.
 */
describeEachDatabase('visitor reads in process', (ctx) => {
  it('answer every visitor read with the status and body of its HTTP route', async () => {
    const curator = await signedInUser(ctx.server.url, 'Vera Visitor-Reads');
    const collection = await createCollection(curator, { isPublic: true, title: 'Reads in process', description: 'Same bytes' });
    const hidden = await createCollection(curator, { isPublic: false });
    const category = await curator.api.createTagCategory(collection.id);
    await curator.api.addTag(collection.id, category.id, 'essential');
    const links = [];
    for (let i = 0; i < 12; i++) {
      links.push(
        await curator.api.addResource(collection.id, {
          link: { url: `https://example.org/reads/${i}`, title: `Read ${i}`, description: `Resource ${i}`, format: i % 2 ? 'video' : 'article' },
        }),
      );
    }
    await curator.api.setResourceTags(collection.id, links[0]?.id ?? '', ['essential']);
    const firstPage = await curator.api.listResources(collection.id);
    const inProcess = readInProcess(visitorReads(ctx.server.db));

    const paths = [
      '/api/directory',
      '/api/directory?q=reads',
      `/api/users/${curator.me.id}`,
      `/api/users/${curator.me.id}/supercurations`,
      `/api/supercurations/public/${collection.slug}`,
      `/api/supercurations/${collection.id}/resources`,
      `/api/supercurations/${collection.id}/resources?format=video&sort=oldest`,
      `/api/supercurations/${collection.id}/resources?tag=essential`,
      `/api/supercurations/${collection.id}/resources?cursor=${encodeURIComponent(firstPage.nextCursor ?? '')}`,
      `/api/links/${links[3]?.id}`,
      // Refusals: a private collection, unknown ids, a malformed cursor and filter.
      `/api/supercurations/public/${hidden.slug ?? 'no-slug'}`,
      `/api/supercurations/${hidden.id}/resources`,
      '/api/links/no-such-link',
      '/api/users/no-such-user',
      `/api/supercurations/${collection.id}/resources?cursor=not-a-cursor`,
      `/api/supercurations/${collection.id}/resources?format=hologram`,
    ];
    const statuses = [];
    for (const path of paths) {
      const res = await http(`${ctx.server.url}${path}`);
      const answer = inProcess(new URL(path, 'http://localhost'));
      expect(answer, path).not.toBeNull();
      expect(await answer, path).toEqual({ status: res.status, body: await res.text() });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 404, 404, 404, 400, 400]);
    // Anything else is not a visitor read: the render asks the full route for it.
    expect(inProcess(new URL('/api/links', 'http://localhost'))).toBeNull();
    expect(inProcess(new URL(`/api/supercurations/${collection.id}`, 'http://localhost'))).toBeNull();
  });

  it('read a public page’s collection once, for its head and its server render', async () => {
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
