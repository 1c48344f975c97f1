import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { http, signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

/** A stand-in for the built web app: the server only needs its index.html. */
const webDir = mkdtempSync(path.join(tmpdir(), 'supercurate-web-'));
writeFileSync(
  path.join(webDir, 'index.html'),
  `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta
      name="description"
      content="The app's own description"
    />
    <title>Supercurate — Internet. Curated.</title>
  </head>
  <body><div id="root"></div><script type="module" src="/assets/app.js"></script></body>
</html>
`,
);

const metaContent = (html: string, attr: string, key: string) =>
  html.match(new RegExp(`<meta ${attr}="${key}" content="([^"]*)" />`))?.[1];

describeEachDatabase(
  'links: detail page head for unfurlers',
  (ctx) => {
    it('serves /links/{id} with the link in <title>, description, og:* and twitter:*, HTML-escaped', async () => {
      const user = await signedInUser(ctx.server.url);
      const link = await user.api.createLink({
        title: 'Tom & Jerry <script>alert("x")</script>',
        description: `It's "great" </head> ${'long '.repeat(60)}`,
        url: 'https://example.com/tj',
        thumbnailUrl: 'https://img.example.com/tj.png?a=1&b=2',
      });
      const res = await http(`${ctx.server.url}/links/${link.id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      expect(html).not.toContain('<script>alert');
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(html).toContain('<title>Tom &amp; Jerry &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; · Supercurate</title>');
      expect(html.match(/name="description"/g)).toHaveLength(1);
      expect(html.match(/<\/head>/g)).toHaveLength(1);
      const description = metaContent(html, 'name', 'description') ?? '';
      expect(description.startsWith('It&#39;s &quot;great&quot; &lt;/head&gt; long')).toBe(true);
      expect(description.endsWith('…')).toBe(true);
      expect(metaContent(html, 'property', 'og:title')).toBe('Tom &amp; Jerry &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      expect(metaContent(html, 'property', 'og:url')).toBe(`${ctx.server.url}/links/${link.id}`);
      expect(metaContent(html, 'property', 'og:image')).toBe('https://img.example.com/tj.png?a=1&amp;b=2');
      expect(metaContent(html, 'name', 'twitter:card')).toBe('summary_large_image');
      expect(metaContent(html, 'name', 'twitter:image')).toBe('https://img.example.com/tj.png?a=1&amp;b=2');
      // The app itself still loads.
      expect(html).toContain('<script type="module" src="/assets/app.js"></script>');
      expect(html.indexOf('og:title')).toBeLessThan(html.indexOf('</head>'));
    });

    it('makes an uploaded thumbnail absolute with PUBLIC_URL; no image gives a summary card', async () => {
      const user = await signedInUser(ctx.server.url);
      const uploaded = await user.api.createLink({
        title: 'Uploaded',
        description: 'x',
        thumbnailUrl: '/api/uploads/images/0123456789abcdef0123456789abcdef.webp',
      });
      const html = await (await http(`${ctx.server.url}/links/${uploaded.id}`)).text();
      expect(metaContent(html, 'property', 'og:image')).toBe(
        `${ctx.server.url}/api/uploads/images/0123456789abcdef0123456789abcdef.webp`,
      );
      const plain = await user.api.createLink({ title: 'Plain', description: 'x' });
      const plainHtml = await (await http(`${ctx.server.url}/links/${plain.id}`)).text();
      expect(plainHtml).not.toContain('og:image');
      expect(metaContent(plainHtml, 'name', 'twitter:card')).toBe('summary');
    });

    it('serves the plain app with 404 for an unknown link (the client shows its message)', async () => {
      const res = await http(`${ctx.server.url}/links/no-such-link`);
      expect(res.status).toBe(404);
      const html = await res.text();
      expect(html).toContain('<title>Supercurate — Internet. Curated.</title>');
      expect(html).not.toContain('og:title');
      // Other pages are the plain app as before.
      const home = await http(`${ctx.server.url}/home`);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain("The app's own description");
    });
  },
  { WEB_DIR: webDir },
);
