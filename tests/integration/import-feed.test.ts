import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOOKMARKS_MAX_BYTES, BOOKMARK_MESSAGES, FEED_IMPORT_MESSAGES, bookmarkSummaryText, feedStatusText } from '../../shared/domain';
import { failure, signedInUser, testClient } from '../support/client';
import { changedTables, dbSnapshot } from '../support/db-snapshot';
import { describeEachDatabase } from '../support/each-database';
import { type ImageSite, type SitePage, sitePage, startImageSite } from '../support/image-site';

/**
 * "Import a public collection by its RSS feed URL" against feeds served on 127.0.0.1 (the
 * server fetches loopback only with PREVIEW_ALLOW_PRIVATE=true; without it, it refuses them).
 */

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../fixtures/imports', name));

let site: ImageSite;
let origin = '';

beforeAll(async () => {
  /** One byte over the limit, in 1 MB writes. */
  const huge: SitePage = (res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let left = BOOKMARKS_MAX_BYTES + 1;
    const write = () => {
      while (left > 0) {
        const part = chunk.subarray(0, Math.min(chunk.length, left));
        left -= part.length;
        if (!res.write(part)) return void res.once('drain', write);
      }
      res.end();
    };
    write();
  };
  site = await startImageSite(
    {
      '/climate.rss': sitePage('application/rss+xml', fixture('feed-rss.xml')),
      '/reading.atom': sitePage('application/atom+xml; charset=utf-8', fixture('feed-atom.xml')),
      '/moved': (res) => res.writeHead(301, { location: '/reading.atom' }).end(),
      '/page': sitePage('text/html', '<!doctype html><title>Not a feed</title>'),
      '/empty.rss': sitePage('application/rss+xml', '<rss><channel><title>Empty</title></channel></rss>'),
      '/gone.rss': (res) => res.writeHead(410, { 'content-type': 'text/plain' }).end('gone'),
      '/huge.rss': huge,
    },
    (res) => res.writeHead(404).end(),
  );
  origin = site.origin;
});

afterAll(() => site.close());

describeEachDatabase(
  'import a public collection by its RSS or Atom feed URL',
  (ctx) => {
    const db = () => ctx.server.db.kysely;

    it('makes the feed a private supercuration of its items, keeping dates, descriptions and categories; a re-import adds nothing', async () => {
      const user = await signedInUser(ctx.server.url);
      const progress: number[] = [];
      const summary = await user.api.importFeed({ url: `${origin}/climate.rss` }, { onProgress: (done) => progress.push(done) });
      expect(summary).toMatchObject({ created: 3, alreadySaved: 0, skipped: { duplicates: 0, invalid: 2 }, invalidRows: [4, 5] });
      expect(progress.at(-1)).toBe(3);
      expect(summary.collections.map((c) => [c.title, c.count, c.created])).toEqual([['Climate Tech — Weekly', 3, true]]);

      const collection = await db()
        .selectFrom('supercurations')
        .select(['id', 'title', 'description', 'is_public'])
        .where('user_id', '=', user.me.id)
        .executeTakeFirstOrThrow();
      expect(collection).toMatchObject({ title: 'Climate Tech — Weekly', description: 'Links about climate technology, curated.' });
      expect(Number(collection.is_public)).toBe(0);
      const links = await db()
        .selectFrom('links')
        .select(['id', 'url', 'title', 'description', 'created_at', 'in_main_feed'])
        .where('user_id', '=', user.me.id)
        .orderBy('url')
        .execute();
      expect(links.map((l) => [l.url, l.title, l.description, l.created_at, Number(l.in_main_feed)])).toEqual([
        [`${origin}/posts/relative`, 'Relative link', 'Imported bookmark', expect.any(String), 0],
        ['https://example.com/grid-storage', 'Grid storage & the <duck> curve', 'Batteries at scale.', '2024-02-01T12:00:00.000Z', 0],
        ['https://example.com/heat-pumps?utm=1&a=b', 'Heat pumps, explained: “a fridge in reverse”', 'How they work, and why now.', '2024-03-05T09:30:00.000Z', 0],
      ]);
      const heatPumps = links.find((l) => l.url?.includes('heat-pumps'));
      const topics = await db().selectFrom('link_topics').select('topic_id').where('link_id', '=', heatPumps?.id as string).orderBy('topic_id').execute();
      expect(topics.map((t) => t.topic_id)).toEqual(['energy', 'homes']);

      // Nothing of it is public: the owner's RSS feed, as a visitor reads it, has no item.
      const rss = await fetch(testClient(ctx.server.url).api.userFeedUrl(user.me.id));
      expect(rss.status).toBe(200);
      expect(await rss.text()).not.toContain('<item>');

      const before = await dbSnapshot(ctx.server.db);
      const again = await user.api.importFeed({ url: `${origin}/climate.rss` });
      expect(again).toMatchObject({ created: 0, reused: 0, alreadySaved: 3 });
      expect(bookmarkSummaryText(again)).toMatch(/^0 links imported, 3 already saved/);
      expect(changedTables(before, await dbSnapshot(ctx.server.db))).toEqual([]);
    });

    it('follows a redirect to an Atom feed and answers a plain JSON summary without the NDJSON Accept', async () => {
      const user = await signedInUser(ctx.server.url);
      const res = await user.fetch(`${ctx.server.url}/api/import/feed`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${origin}/moved` }),
      });
      expect(res.status).toBe(200);
      const summary = (await res.json()) as { created: number; collections: { title: string }[] };
      expect(summary.created).toBe(3);
      expect(summary.collections.map((c) => c.title)).toEqual(['Reading list']);
    });

    it('refuses, before writing anything: no session, a bad address, an unreachable feed, a page, an empty feed, a feed over 50 MB', async () => {
      const user = await signedInUser(ctx.server.url);
      const before = await dbSnapshot(ctx.server.db);
      const signedOut = await failure(testClient(ctx.server.url).api.importFeed({ url: `${origin}/climate.rss` }));
      expect([signedOut.status, signedOut.message]).toEqual([401, BOOKMARK_MESSAGES.mustLogIn]);
      const cases: [url: string, status: number, message: string][] = [
        ['javascript:alert(1)', 400, FEED_IMPORT_MESSAGES.invalidUrl],
        ['', 400, FEED_IMPORT_MESSAGES.invalidUrl],
        [`${origin}/gone.rss`, 400, feedStatusText(410)],
        [`${origin}/page`, 400, FEED_IMPORT_MESSAGES.notAFeed],
        [`${origin}/empty.rss`, 400, FEED_IMPORT_MESSAGES.noItems],
        [`${origin}/huge.rss`, 413, FEED_IMPORT_MESSAGES.tooLarge],
        ['http://127.0.0.1:9/closed.rss', 400, FEED_IMPORT_MESSAGES.unreachable],
      ];
      for (const [url, status, message] of cases) {
        const err = await failure(user.api.importFeed({ url }));
        expect([url, err.status, err.message]).toEqual([url, status, message]);
      }
      const wrongShape = await user.fetch(`${ctx.server.url}/api/import/feed`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 42 }),
      });
      expect([wrongShape.status, ((await wrongShape.json()) as { error: string }).error]).toEqual([400, FEED_IMPORT_MESSAGES.invalidUrl]);
      expect(changedTables(before, await dbSnapshot(ctx.server.db))).toEqual([]);
    });
  },
  { PREVIEW_ALLOW_PRIVATE: 'true' },
);

describeEachDatabase('feed imports refuse private addresses (PREVIEW_ALLOW_PRIVATE off)', (ctx) => {
  it('refuses a loopback feed without connecting to it', async () => {
    const user = await signedInUser(ctx.server.url);
    const hitsBefore = site.hits.get('/climate.rss') ?? 0;
    for (const url of [`${origin}/climate.rss`, 'http://localhost/feed.rss', 'http://169.254.169.254/latest/meta-data/']) {
      const err = await failure(user.api.importFeed({ url }));
      expect([url, err.status, err.message]).toEqual([url, 400, FEED_IMPORT_MESSAGES.refused]);
    }
    expect(site.hits.get('/climate.rss') ?? 0).toBe(hitsBefore);
  });
});
