import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { paths } from '../../shared/domain';
import { PRIVATE_CACHE_CONTROL, PUBLIC_READ_CACHE_CONTROL } from '../../server/http/caching';
import { http, signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { type User, createCollection } from '../support/supercurations';

/** A stand-in for the built web app: the server only needs its index.html. */
const webDir = mkdtempSync(path.join(tmpdir(), 'supercurate-web-'));
writeFileSync(
  path.join(webDir, 'index.html'),
  '<!doctype html><html lang="en"><head><title>Supercurate — Internet. Curated.</title></head><body><div id="root"></div></body></html>\n',
);

/** True when a shared cache (CDN, proxy) may store a response with this Cache-Control. */
function sharedCacheable(cacheControl: string | null): boolean {
  const directives = (cacheControl ?? '').toLowerCase();
  return !/\b(?:private|no-store)\b/.test(directives);
}

describeEachDatabase(
  'caching for visitors',
  (ctx) => {
    let owner: User;
    let stranger: User;
    let collection: { id: string; slug: string };
    let linkId = '';

    beforeAll(async () => {
      owner = await signedInUser(ctx.server.url, 'Cache Curator');
      stranger = await signedInUser(ctx.server.url, 'Someone Else');
      const created = await createCollection(owner, { isPublic: true, title: 'Cached collection' });
      collection = { id: created.id, slug: created.slug ?? '' };
      const link = await owner.api.addResource(created.id, {
        link: { url: 'https://example.com/cached', title: 'A cached article', description: 'Read it.' },
      });
      linkId = link.id;
    });

    /** The pages a visitor opens and every read and feed they are made of. */
    const publicReads = () => [
      '/',
      '/directory',
      `/supercurations/public/${collection.slug}`,
      `/links/${linkId}`,
      `/profile/${owner.me.id}`,
      '/api/directory',
      `/api/supercurations/public/${collection.slug}`,
      `/api/supercurations/${collection.id}/resources`,
      `/api/links/${linkId}`,
      `/api/users/${owner.me.id}`,
      `/api/users/${owner.me.id}/supercurations`,
      paths.collectionFeed(collection.slug),
      `/users/${owner.me.id}/feed.xml`,
    ];

    it('gives visitors a shared Cache-Control and an ETag, and a 304 to a matching If-None-Match', async () => {
      for (const pathname of publicReads()) {
        const first = await http(`${ctx.server.url}${pathname}`);
        expect([pathname, first.status, first.headers.get('cache-control')]).toEqual([pathname, 200, PUBLIC_READ_CACHE_CONTROL]);
        expect(first.headers.get('vary')?.toLowerCase()).toContain('cookie');
        const etag = first.headers.get('etag');
        expect(etag).toMatch(/^W\/".+"$/);

        const again = await http(`${ctx.server.url}${pathname}`, { headers: { 'if-none-match': etag ?? '' } });
        expect([pathname, again.status, await again.text()]).toEqual([pathname, 304, '']);
        expect(again.headers.get('etag')).toBe(etag);
        expect(again.headers.get('cache-control')).toBe(PUBLIC_READ_CACHE_CONTROL);

        // The same tag names the brotli form of the same body.
        const compressed = await http(`${ctx.server.url}${pathname}`, {
          headers: { 'if-none-match': `"other", ${etag}`, 'accept-encoding': 'br' },
        });
        expect([pathname, compressed.status]).toEqual([pathname, 304]);
      }
    });

    it('changes the ETag when the content changes', async () => {
      const url = `${ctx.server.url}/api/supercurations/${collection.id}/resources`;
      const before = (await http(url)).headers.get('etag') ?? '';
      await owner.api.addResource(collection.id, {
        link: { url: 'https://example.com/newer', title: 'A newer article', description: 'Also good.' },
      });
      const after = await http(url, { headers: { 'if-none-match': before } });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(before);
      expect((await after.json()).items.map((l: { title: string }) => l.title)).toContain('A newer article');
    });

    it('never lets a shared cache store what a signed-in user gets', async () => {
      const hidden = await createCollection(owner, { isPublic: false, title: 'Private collection' });
      const signedInReads = [
        ...publicReads(),
        '/api/me',
        '/api/supercurations',
        `/api/supercurations/${hidden.id}`,
        `/api/supercurations/${hidden.id}/resources`,
        '/home',
        `/supercurations/${hidden.id}`,
      ];
      for (const user of [owner, stranger]) {
        for (const pathname of signedInReads) {
          const res = await user.fetch(`${ctx.server.url}${pathname}`);
          expect([pathname, sharedCacheable(res.headers.get('cache-control'))]).toEqual([pathname, false]);
          expect([pathname, res.headers.get('cache-control')]).toEqual([pathname, PRIVATE_CACHE_CONTROL]);
        }
      }
      // What a visitor is refused is not stored either.
      for (const pathname of [`/api/supercurations/${hidden.id}/resources`, '/api/supercurations/public/no-such-slug']) {
        const res = await http(`${ctx.server.url}${pathname}`);
        expect([pathname, res.status, sharedCacheable(res.headers.get('cache-control'))]).toEqual([pathname, 404, false]);
      }
    });

    it('answers 404 for a collection on the very next request after it is made private, then deleted', async () => {
      const created = await createCollection(owner, { isPublic: true, title: 'Soon private' });
      const slug = created.slug ?? '';
      const reads = [
        `/supercurations/public/${slug}`,
        `/api/supercurations/public/${slug}`,
        `/api/supercurations/${created.id}/resources`,
        paths.collectionFeed(slug),
      ];
      const etags = new Map<string, string>();
      for (const pathname of reads) {
        const res = await http(`${ctx.server.url}${pathname}`);
        expect([pathname, res.status]).toEqual([pathname, 200]);
        etags.set(pathname, res.headers.get('etag') ?? '');
      }

      await owner.api.updateSupercuration(created.id, { isPublic: false });
      for (const pathname of reads) {
        const res = await http(`${ctx.server.url}${pathname}`, { headers: { 'if-none-match': etags.get(pathname) ?? '' } });
        expect([pathname, res.status, res.headers.get('cache-control')]).toEqual([pathname, 404, PRIVATE_CACHE_CONTROL]);
      }

      await owner.api.updateSupercuration(created.id, { isPublic: true, slug });
      expect((await http(`${ctx.server.url}/api/supercurations/public/${slug}`)).status).toBe(200);
      await owner.api.deleteSupercuration(created.id);
      for (const pathname of reads) {
        const res = await http(`${ctx.server.url}${pathname}`, { headers: { 'if-none-match': etags.get(pathname) ?? '' } });
        expect([pathname, res.status]).toEqual([pathname, 404]);
      }
    });
  },
  { WEB_DIR: webDir },
);
