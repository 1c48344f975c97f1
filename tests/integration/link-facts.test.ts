import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPreviewService } from '../../server/preview/service';
import { runPreviewRound } from '../../server/services/import-previews';
import { makeNewLinkJobs } from '../../server/services/new-link-jobs';
import { signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { type ImageSite, sitePage, startImageSite } from '../support/image-site';

/**
 * What pages say about themselves (issue 19): site name, icon, author, date and language, and
 * oEmbed's thumbnail and format, read from pages on 127.0.0.1 (PREVIEW_ALLOW_PRIVATE), stored with
 * the links saved after Preview & Share, or filled in by a background job when there was none.
 */

let site: ImageSite;

const html = (head: string, lang = 'en') =>
  sitePage('text/html; charset=utf-8', `<!doctype html><html lang="${lang}"><head>${head}</head><body><p>Text</p></body></html>`);
const json = (value: object) => sitePage('application/json', JSON.stringify(value));

const ARTICLE_HEAD = `<title>Plain</title>
  <meta property="og:title" content="The article">
  <meta property="og:description" content="What it says.">
  <meta property="og:image" content="/og.png">
  <meta property="og:site_name" content="The Daily Loopback">
  <meta name="author" content="Ada Lovelace">
  <meta property="article:published_time" content="2024-03-05T10:20:30+01:00">
  <link rel="icon" href="/favicon.ico">
  <link rel="icon" type="image/png" sizes="32x32" href="/icon-32.png">
  <link rel="apple-touch-icon" href="/touch.png">`;

beforeAll(async () => {
  const png = await sharp({ create: { width: 180, height: 180, channels: 3, background: '#2563eb' } }).png().toBuffer();
  site = await startImageSite(
    {
      '/article': html(ARTICLE_HEAD),
      '/article-fr': html(ARTICLE_HEAD.replace('The article', 'Un article'), 'fr-FR'),
      '/touch.png': sitePage('image/png', png),
      // A video page that gives no picture of its own: its oEmbed answer does.
      '/watch': html(
        `<title>A talk</title><link rel="alternate" type="application/json+oembed" href="/oembed/video?format=json" title="A talk">`,
      ),
      '/oembed/video': json({ type: 'video', version: '1.0', title: 'A talk', provider_name: 'LoopTube', author_name: 'Grace Hopper', thumbnail_url: '/thumb.jpg', html: '<iframe></iframe>' }),
      '/episode': html(`<meta property="og:title" content="Episode 12"><link rel="alternate" type="application/json+oembed" href="/oembed/audio">`),
      '/oembed/audio': json({ type: 'rich', version: '1.0', provider_name: 'Acast', html: '<iframe src="https://embed.acast.com/x"></iframe>' }),
      // An oEmbed endpoint that answers garbage adds nothing and breaks nothing.
      '/broken-oembed': html(`<meta property="og:title" content="Still fine"><link rel="alternate" type="application/json+oembed" href="/oembed/garbage">`),
      '/oembed/garbage': sitePage('application/json', '{not json'),
    },
    (res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('gone'),
  );
});

afterAll(() => site.close());

describeEachDatabase(
  'link facts and oEmbed',
  (ctx) => {
    it('reads the site name, icon, author, date and language of a page, and keeps them with the link saved after its preview', async () => {
      const user = await signedInUser(ctx.server.url);
      const url = `${site.origin}/article`;
      const preview = await user.api.preview(url);
      expect(preview).toMatchObject({
        title: 'The article',
        siteName: 'The Daily Loopback',
        // Apple's touch icon: a raster the image proxy can serve (no .ico, no SVG).
        faviconUrl: `${site.origin}/touch.png`,
        author: 'Ada Lovelace',
        publishedAt: '2024-03-05T09:20:30.000Z',
        lang: 'en',
        format: null,
      });
      const link = await user.api.createLink({ url, title: 'My own title', description: 'My own words' });
      expect(link).toMatchObject({ title: 'My own title', siteName: 'The Daily Loopback', faviconUrl: `${site.origin}/touch.png`, author: 'Ada Lovelace', lang: 'en' });
      // Visitors see the facts of a public link, and its icon comes through our image proxy.
      const visitor = testClient(ctx.server.url);
      expect(await visitor.api.getLink(link.id)).toMatchObject({ siteName: 'The Daily Loopback', publishedAt: '2024-03-05T09:20:30.000Z' });
      // Added to a collection as a new resource by another curator (its URL with a fragment: the same page), it has them too.
      const curator = await signedInUser(ctx.server.url);
      const reading = await curator.api.createSupercuration({ title: 'Reading list' });
      const added = await curator.api.addResource(reading.id, { link: { url: `${url}#part-2`, title: 'Part two', description: 'Worth it' } });
      expect(added).toMatchObject({ siteName: 'The Daily Loopback', author: 'Ada Lovelace', lang: 'en', title: 'Part two' });
      const icon = await fetch(`${ctx.server.url}/api/images/proxy?url=${encodeURIComponent(`${site.origin}/touch.png`)}`);
      expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/webp']);

      // A new URL is a new page: its facts replace the old ones.
      const moved = await user.api.updateLink(link.id, { url: `${site.origin}/article-fr` });
      expect(moved).toMatchObject({ siteName: null, lang: null });
      await user.api.preview(`${site.origin}/article-fr`);
      const again = await user.api.updateLink(link.id, { url: `${site.origin}/article` });
      expect(again.lang).toBe('en');
      const french = await user.api.updateLink(link.id, { url: `${site.origin}/article-fr` });
      expect(french).toMatchObject({ lang: 'fr-FR', siteName: 'The Daily Loopback' });
    });

    it("completes a video page from its oEmbed answer: thumbnail, author, provider and the 'Video' format", async () => {
      const user = await signedInUser(ctx.server.url);
      const asked = site.hits.get('/oembed/video') ?? 0;
      expect(await user.api.preview(`${site.origin}/watch`)).toMatchObject({
        title: 'A talk',
        thumbnailUrl: `${site.origin}/thumb.jpg`,
        siteName: 'LoopTube',
        author: 'Grace Hopper',
        format: 'video',
      });
      expect(await user.api.preview(`${site.origin}/episode`)).toMatchObject({ title: 'Episode 12', siteName: 'Acast', format: 'podcast' });
      expect(await user.api.preview(`${site.origin}/broken-oembed`)).toMatchObject({ title: 'Still fine', format: null, thumbnailUrl: null });
      expect(site.hits.get('/oembed/video')).toBe(asked + 1);
    });

    it('fills in the facts of a link shared without a preview in the background, touching nothing the user wrote', async () => {
      const user = await signedInUser(ctx.server.url);
      const url = `${site.origin}/article?from=extension`;
      const link = await user.api.createLink({ url, title: 'Mine', description: 'My words' });
      expect(link).toMatchObject({ siteName: null, faviconUrl: null, thumbnailUrl: null });
      const previews = createPreviewService({ db: ctx.server.db, allowPrivate: true, timeoutMs: 5000, publicUrl: ctx.server.url });
      const waiting = () => ctx.server.db.kysely.selectFrom('link_preview_jobs').select('link_id').where('link_id', '=', link.id).execute();
      // The server's worker queues a new link's jobs within a moment; here at once.
      await makeNewLinkJobs(ctx.server.db);
      expect(await waiting()).toHaveLength(1);
      // Rounds a second apart (one request per host each), until this link's job is done.
      const start = Date.now();
      for (let round = 1; round <= 10 && (await waiting()).length > 0; round++) {
        await runPreviewRound({ db: ctx.server.db, previews, perMinute: 1000 }, new Date(start + round * 1000));
      }
      expect(await waiting()).toEqual([]);
      expect(await user.api.getLink(link.id)).toMatchObject({
        title: 'Mine',
        description: 'My words',
        thumbnailUrl: null,
        siteName: 'The Daily Loopback',
        author: 'Ada Lovelace',
        lang: 'en',
      });
    });
  },
  { PREVIEW_ALLOW_PRIVATE: 'true' },
);
