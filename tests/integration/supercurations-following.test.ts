import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { SUPERCURATION_MESSAGES as M, SUPERCURATION_PAGE_SIZE } from '../../shared/domain';
import { http, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { parseRss2 } from '../support/feed';
import { createCollection, expectFailure, newestFirst } from '../support/supercurations';
import { childText, childrenNamed, parseXml } from '../support/xml';

const webDir = mkdtempSync(path.join(tmpdir(), 'supercurate-web-'));
writeFileSync(
  path.join(webDir, 'index.html'),
  '<!doctype html><html><head><title>Supercurate</title></head><body><div id="root"></div></body></html>',
);

describeEachDatabase(
  "supercurations: a user's public collections and a collection's RSS",
  (ctx) => {
    it('GET /api/users/:id/supercurations: public ones only, newest first, 24 a page, open to anyone', async () => {
      const curator = await signedInUser(ctx.server.url, 'Paula Public');
      const created: { id: string; createdAt: string }[] = [];
      for (let i = 0; i < SUPERCURATION_PAGE_SIZE + 2; i++) {
        created.push(await createCollection(curator, { isPublic: true, title: `Public ${i}` }));
      }
      const secret = await createCollection(curator, { title: 'Secret' });
      const visitor = testClient(ctx.server.url).api;
      const first = await visitor.userSupercurations(curator.me.id);
      expect(first.items).toHaveLength(SUPERCURATION_PAGE_SIZE);
      expect(first.hasMore).toBe(true);
      const second = await visitor.userSupercurations(curator.me.id, first.nextCursor ?? undefined);
      expect(second.hasMore).toBe(false);
      const ids = [...first.items, ...second.items].map((s) => s.id);
      expect(ids).toEqual(newestFirst(created));
      expect(ids).not.toContain(secret.id);
      // Not even the owner sees private ones here.
      const own = await curator.api.userSupercurations(curator.me.id);
      expect(own.items.map((s) => s.id)).not.toContain(secret.id);
      expect(own.items.every((s) => s.isPublic)).toBe(true);
      await expectFailure(visitor.userSupercurations('no-such-user'), 404, M.userNotFound);
      const empty = await visitor.userSupercurations((await signedInUser(ctx.server.url)).me.id);
      expect(empty).toEqual({ items: [], hasMore: false, nextCursor: null });
    });

    it('serves /supercurations/public/:slug/feed.xml for public collections only, linked from the page head', async () => {
      const curator = await signedInUser(ctx.server.url, 'Rita Rss');
      const collection = await createCollection(curator, { isPublic: true, title: 'Tools & <Tricks>' });
      await curator.api.addResource(collection.id, {
        link: { title: 'First & best', description: 'a <b>thing</b>', url: 'https://example.com/a?x=1&y=2' },
      });
      await curator.api.addResource(collection.id, { link: { title: 'Second', description: 'b', url: 'https://example.com/b' } });
      const res = await http(`${ctx.server.url}/supercurations/public/${collection.slug}/feed.xml`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
      const xml = await res.text();
      const rss = parseXml(xml);
      expect(rss.name).toBe('rss');
      const channel = childrenNamed(rss, 'channel')[0];
      if (!channel) throw new Error('no channel');
      expect(childText(channel, 'title')).toBe('Tools & <Tricks>');
      expect(childText(channel, 'link')).toBe(`${ctx.server.url}/supercurations/public/${collection.slug}`);
      const items = childrenNamed(channel, 'item');
      expect(items.map((i) => childText(i, 'title'))).toEqual(['Second', 'First & best']);
      expect(childText(items[1] ?? channel, 'link')).toBe('https://example.com/a?x=1&y=2');
      // A real feed parser (rss-parser, strict XML) reads the same.
      const feed = await parseRss2(xml);
      expect(feed.title).toBe('Tools & <Tricks>');
      expect(feed.link).toBe(`${ctx.server.url}/supercurations/public/${collection.slug}`);
      expect(feed.items.map((i) => [i.title, i.link])).toEqual([
        ['Second', 'https://example.com/b'],
        ['First & best', 'https://example.com/a?x=1&y=2'],
      ]);
      expect(feed.items[1]?.content).toBe('a <b>thing</b>');
      expect(feed.items.every((i) => i.guid && i.isoDate)).toBe(true);

      const page = await http(`${ctx.server.url}/supercurations/public/${collection.slug}`);
      const html = await page.text();
      expect(html).toContain(
        `<link rel="alternate" type="application/rss+xml" title="Tools &amp; &lt;Tricks&gt;" href="${ctx.server.url}/supercurations/public/${collection.slug}/feed.xml" />`,
      );

      // Private (or made private) and missing collections have no feed.
      await curator.api.updateSupercuration(collection.id, { isPublic: false });
      expect((await http(`${ctx.server.url}/supercurations/public/${collection.slug}/feed.xml`)).status).toBe(404);
      expect((await http(`${ctx.server.url}/supercurations/public/nope-nope/feed.xml`)).status).toBe(404);
    });
  },
  { WEB_DIR: webDir },
);
