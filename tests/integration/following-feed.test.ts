import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { USER_FEED_SIZE } from '../../shared/domain';
import { http, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { parseRss2 } from '../support/feed';
import { type XmlElement, childText, childrenNamed, parseXml } from '../support/xml';

/** A stand-in for the built web app: the server only needs its index.html. */
const webDir = mkdtempSync(path.join(tmpdir(), 'supercurate-web-'));
writeFileSync(
  path.join(webDir, 'index.html'),
  `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="The app's own description" />
    <title>Supercurate — Internet. Curated.</title>
  </head>
  <body><div id="root"></div><script type="module" src="/assets/app.js"></script></body>
</html>
`,
);

const metaContent = (html: string, attr: string, key: string) =>
  html.match(new RegExp(`<meta ${attr}="${key}" content="([^"]*)" />`))?.[1];

function channelOf(xml: string): XmlElement {
  const rss = parseXml(xml);
  expect(rss.name).toBe('rss');
  expect(rss.attributes.version).toBe('2.0');
  const channel = childrenNamed(rss, 'channel')[0];
  if (!channel) throw new Error('no <channel>');
  return channel;
}

describeEachDatabase(
  'following: RSS feed and profile page head',
  (ctx) => {
    it('serves /users/{id}/feed.xml: the main-feed links, newest first, escaped, well-formed', async () => {
      const curator = await signedInUser(ctx.server.url, 'Tom & Jerry <Curators>');
      const first = await curator.api.createLink({
        title: 'Fish & chips <b>bold</b> "quoted"',
        description: "It's <script>alert(1)</script> & more ]]>",
        url: 'https://example.com/a?x=1&y=2',
        format: 'article',
      });
      const noUrl = await curator.api.createLink({ title: 'A thought', description: 'No URL here' });
      await curator.api.createLink({
        title: 'Hidden from the main feed',
        description: 'Only in collections',
        url: 'https://example.com/hidden',
        inMainFeed: false,
      });
      // Someone else's links stay out.
      const other = await signedInUser(ctx.server.url, 'Other');
      await other.api.createLink({ title: 'Not mine', description: 'x', url: 'https://example.com/other' });

      const res = await http(`${ctx.server.url}/users/${curator.me.id}/feed.xml`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
      const xml = await res.text();
      expect(xml).not.toContain('<script>');
      expect(xml).not.toContain('<b>');
      const channel = channelOf(xml);
      expect(childText(channel, 'title')).toBe('Tom & Jerry <Curators> on Supercurate');
      expect(childText(channel, 'link')).toBe(`${ctx.server.url}/profile/${curator.me.id}`);
      expect(childrenNamed(channel, 'atom:link')[0]?.attributes).toEqual({
        href: `${ctx.server.url}/users/${curator.me.id}/feed.xml`,
        rel: 'self',
        type: 'application/rss+xml',
      });
      const items = childrenNamed(channel, 'item');
      // (Order is checked below with distinct timestamps; these two may share a millisecond.)
      expect(items.map((i) => childText(i, 'title')).sort()).toEqual(['A thought', 'Fish & chips <b>bold</b> "quoted"']);
      const byTitle = (title: string) => items.find((i) => childText(i, 'title') === title) as XmlElement;
      const thought = byTitle('A thought');
      const fish = byTitle('Fish & chips <b>bold</b> "quoted"');
      expect(childText(fish, 'link')).toBe('https://example.com/a?x=1&y=2');
      expect(childText(fish, 'guid')).toBe(`${ctx.server.url}/links/${first.id}`);
      expect(childText(fish, 'description')).toBe("It's <script>alert(1)</script> & more ]]>");
      expect(childText(fish, 'category')).toBe('Article');
      expect(new Date(childText(fish, 'pubDate') ?? '').toISOString().slice(0, 16)).toBe(first.createdAt.slice(0, 16));
      // A link without a URL points at our page of it.
      expect(childText(thought, 'link')).toBe(`${ctx.server.url}/links/${noUrl.id}`);
      // A real feed parser (rss-parser, strict XML) reads the same.
      const feed = await parseRss2(xml);
      expect(feed.title).toBe('Tom & Jerry <Curators> on Supercurate');
      expect(feed.link).toBe(`${ctx.server.url}/profile/${curator.me.id}`);
      expect(feed.items.map((i) => i.title).sort()).toEqual(['A thought', 'Fish & chips <b>bold</b> "quoted"']);
      const parsedFish = feed.items.find((i) => i.link === 'https://example.com/a?x=1&y=2');
      expect(parsedFish).toMatchObject({
        title: 'Fish & chips <b>bold</b> "quoted"',
        guid: `${ctx.server.url}/links/${first.id}`,
        content: "It's <script>alert(1)</script> & more ]]>",
        categories: ['Article'],
      });
      expect(new Date(parsedFish?.isoDate ?? '').toISOString().slice(0, 16)).toBe(first.createdAt.slice(0, 16));
      expect(feed.items.find((i) => i.title === 'A thought')?.link).toBe(`${ctx.server.url}/links/${noUrl.id}`);
      // The parser is strict: the same feed with one entity unescaped, or a tag left open, is refused.
      await expect(parseRss2(xml.replace('&amp;', '&'))).rejects.toThrow();
      await expect(parseRss2(xml.replace('</channel>', ''))).rejects.toThrow();
      // The feed never carries the curator's e-mail.
      expect(xml).not.toContain(curator.input.email);
    });

    it(`keeps the newest ${USER_FEED_SIZE} links only; an unknown user is 404; a user with no links has an empty feed`, async () => {
      const curator = await signedInUser(ctx.server.url, 'Prolific');
      const base = Date.parse('2025-01-01T00:00:00Z');
      await ctx.server.db.kysely
        .insertInto('links')
        .values(
          Array.from({ length: USER_FEED_SIZE + 5 }, (_, i) => ({
            id: `feed-${curator.me.id}-${i}`,
            user_id: curator.me.id,
            url: `https://example.com/${i}`,
            title: `Link ${i}`,
            description: 'd',
            link_text: 'Visit Link',
            created_at: new Date(base + i * 60_000).toISOString(),
            updated_at: new Date(base + i * 60_000).toISOString(),
          })),
        )
        .execute();
      const xml = await (await http(`${ctx.server.url}/users/${curator.me.id}/feed.xml`)).text();
      const titles = childrenNamed(channelOf(xml), 'item').map((i) => childText(i, 'title'));
      expect((await parseRss2(xml)).items.map((i) => i.title)).toEqual(titles);
      expect(titles).toHaveLength(USER_FEED_SIZE);
      expect(titles[0]).toBe(`Link ${USER_FEED_SIZE + 4}`);
      expect(titles.at(-1)).toBe('Link 5');

      const missing = await http(`${ctx.server.url}/users/no-such-user/feed.xml`);
      expect(missing.status).toBe(404);

      const quiet = await signedInUser(ctx.server.url, 'Quiet');
      const emptyXml = await (await http(`${ctx.server.url}/users/${quiet.me.id}/feed.xml`)).text();
      expect(childrenNamed(channelOf(emptyXml), 'item')).toEqual([]);
      expect(await parseRss2(emptyXml)).toMatchObject({ title: 'Quiet on Supercurate', items: [] });
    });

    it('serves /profile/{id} with the name, bio, og:type profile and the feed as <link rel="alternate">; never the e-mail', async () => {
      const user = await signedInUser(ctx.server.url, 'Ada "The Countess" <Lovelace>');
      await user.api.updateProfile(user.me.id, { name: 'Ada "The Countess" <Lovelace> $& $\'', bio: 'Poet & analyst' });
      const res = await http(`${ctx.server.url}/profile/${user.me.id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      expect(html).toContain(
        '<title>Ada &quot;The Countess&quot; &lt;Lovelace&gt; $&amp; $&#39; · Supercurate</title>',
      );
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(html.match(/<\/head>/g)).toHaveLength(1);
      expect(metaContent(html, 'name', 'description')).toBe('Poet &amp; analyst');
      expect(metaContent(html, 'property', 'og:type')).toBe('profile');
      expect(metaContent(html, 'property', 'og:url')).toBe(`${ctx.server.url}/profile/${user.me.id}`);
      // The generated avatar is an SVG unfurlers don't show: no og:image until one is uploaded.
      expect(metaContent(html, 'property', 'og:image')).toBeUndefined();
      expect(html).toContain(
        `<link rel="alternate" type="application/rss+xml" title="Ada &quot;The Countess&quot; &lt;Lovelace&gt; $&amp; $&#39; on Supercurate" href="${ctx.server.url}/users/${user.me.id}/feed.xml" />`,
      );
      expect(html).not.toContain(user.input.email);
      expect(html).toContain('<script type="module" src="/assets/app.js"></script>');

      const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#123456' } }).png().toBuffer();
      const withAvatar = await user.api.uploadAvatar(user.me.id, new Blob([png], { type: 'image/png' }));
      const again = await (await http(`${ctx.server.url}/profile/${user.me.id}`)).text();
      expect(metaContent(again, 'property', 'og:image')).toBe(`${ctx.server.url}${withAvatar.avatarUrl}`.replace(/&/g, '&amp;'));
    });

    it('describes a profile without a bio by its name, and answers an unknown profile with the app and 404', async () => {
      const user = await signedInUser(ctx.server.url, 'Plain Person');
      const html = await (await http(`${ctx.server.url}/profile/${user.me.id}`)).text();
      expect(metaContent(html, 'name', 'description')).toBe('Plain Person curates links on Supercurate.');
      const missing = await http(`${ctx.server.url}/profile/no-such-user`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain('<div id="root"></div>');
      // Visitors get the same head (the client then asks them to sign in).
      const visitorView = await testClient(ctx.server.url).fetch(`${ctx.server.url}/profile/${user.me.id}`);
      expect(visitorView.status).toBe(200);
    });
  },
  { WEB_DIR: webDir },
);
