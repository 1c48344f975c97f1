import { expect, it } from 'vitest';
import { readInProcess, visitorReads } from '../../server/http/visitor-reads';
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
});
