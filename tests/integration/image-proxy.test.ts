import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MSG, imageProxyUrl } from '../../shared/domain';
import { IMAGE_PROXY_MESSAGES, IMAGE_PROXY_RATE_LIMIT } from '../../server/http/image-proxy-routes';
import { proxyStorageKey } from '../../server/preview/image-proxy';
import { http as fetchHttp, signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { type ImageSite, type SitePage, sitePage, startImageSite } from '../support/image-site';

/**
 * The thumbnail proxy against images served by a local site on 127.0.0.1. No test sends traffic
 * anywhere else: with PREVIEW_ALLOW_PRIVATE off, loopback and private addresses are refused
 * before any connection.
 */

const MB = 1024 * 1024;
const TIMEOUT_MS = 2000;
const EXIF_MARKER = 'secret-camera-owner';

interface Fixtures {
  jpeg: Buffer;
  png: Buffer;
  gif: Buffer;
  svg: string;
}

async function makeFixtures(): Promise<Fixtures> {
  const jpeg = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#cc6633' } })
    .jpeg()
    .withExif({ IFD0: { Copyright: EXIF_MARKER, Artist: EXIF_MARKER } })
    .toBuffer();
  const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: '#2563eb80' } })
    .png()
    .toBuffer();
  const frame = (background: string) =>
    sharp({ create: { width: 120, height: 60, channels: 3, background } })
      .png()
      .toBuffer();
  const gif = await sharp([await frame('#ff0000'), await frame('#00ff00'), await frame('#0000ff')], {
    join: { animated: true },
  })
    .gif({ loop: 0, delay: [100, 100, 100] })
    .toBuffer();
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100"/></svg>';
  return { jpeg, png, gif, svg };
}

/** Bytes the endless image had sent when the client hung up. */
let hugeSent = 0;

function startSite(fx: Fixtures): Promise<ImageSite> {
  const pages: Record<string, SitePage> = {
    '/photo.jpg': sitePage('image/jpeg', fx.jpeg),
    '/slow-photo.jpg': (res) => setTimeout(() => sitePage('image/jpeg', fx.jpeg)(res), 200),
    '/small.png': sitePage('image/png', fx.png),
    '/anim.gif': sitePage('image/gif', fx.gif),
    '/logo.svg': sitePage('image/svg+xml', fx.svg),
    '/disguised-svg.png': sitePage('image/png', fx.svg),
    '/html-as-png.png': sitePage('image/png', '<!doctype html><html><body>hi</body></html>'),
    '/page.html': sitePage('text/html; charset=utf-8', '<!doctype html><html><head><title>Page</title></head></html>'),
    '/photo-as-html': sitePage('text/html', fx.jpeg),
    '/to-photo': (res) => {
      res.writeHead(302, { location: '/photo.jpg' });
      res.end();
    },
    '/huge.jpg': (res) => {
      // An endless "image" (bounded at 64 MB so a broken limit cannot hang the run).
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      const chunk = Buffer.alloc(64 * 1024, 0);
      res.write(fx.jpeg.subarray(0, 2));
      let sent = 0;
      res.on('close', () => (hugeSent = sent));
      const pump = () => {
        while (!res.destroyed && sent < 64 * MB) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      pump();
    },
  };
  return startImageSite(pages, (res) => {
    res.writeHead(404, { 'content-type': 'image/png' });
    res.end(fx.png);
  });
}

let site: ImageSite;
let fx: Fixtures;
beforeAll(async () => {
  fx = await makeFixtures();
  site = await startSite(fx);
});
afterAll(async () => {
  await site?.close();
});

let unique = 0;
/** A URL of the local site that no earlier request has proxied. */
const fresh = (p: string) => `${site.origin}${p}?t=${++unique}`;
const hits = (p: string) => site.hits.get(p) ?? 0;
const totalHits = () => [...site.hits.values()].reduce((a, b) => a + b, 0);

describeEachDatabase(
  'image proxy (PREVIEW_ALLOW_PRIVATE=true)',
  (ctx) => {
    let user: Awaited<ReturnType<typeof signedInUser>>;
    beforeAll(async () => {
      user = await signedInUser(ctx.server.url, 'Reader');
    });
    /** Asks as the signed-in user (who may have any URL fetched). */
    const proxied = (url: string, headers: Record<string, string> = {}) =>
      user.fetch(`${ctx.server.url}${imageProxyUrl(url)}`, { headers });
    /** Asks as a visitor. */
    const visitor = (url: string) => fetchHttp(`${ctx.server.url}${imageProxyUrl(url)}`);
    const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

    it('re-encodes a JPEG to a WebP at most 800 px wide, without EXIF, with safe headers', async () => {
      const url = fresh('/photo.jpg');
      expect((await sharp(fx.jpeg).metadata()).exif?.toString('latin1')).toContain(EXIF_MARKER);
      const res = await proxied(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
      expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      const body = await bytes(res);
      const meta = await sharp(body).metadata();
      expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', 800, 500, undefined]);
      expect(body.toString('latin1')).not.toContain(EXIF_MARKER);
    });

    it('keeps the result in the storage under sha256(url): the next request is a file read', async () => {
      const url = fresh('/photo.jpg');
      const before = hits('/photo.jpg');
      const first = await proxied(url);
      const firstBody = await bytes(first);
      const second = await proxied(url);
      expect(second.status).toBe(200);
      expect((await bytes(second)).equals(firstBody)).toBe(true);
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(hits('/photo.jpg')).toBe(before + 1);

      const key = proxyStorageKey(url);
      expect(key).toMatch(/^proxy\/([a-f0-9]{2})\/\1[a-f0-9]{62}\.webp$/);
      expect(existsSync(path.join(ctx.server.config.dataDir, 'uploads', key))).toBe(true);

      // A new process (empty memory) still reads it from the storage.
      ctx.server = await ctx.server.restart();
      user = await signedInUser(ctx.server.url, 'Reader');
      const third = await proxied(url);
      expect((await bytes(third)).equals(firstBody)).toBe(true);
      expect(hits('/photo.jpg')).toBe(before + 1);
    });

    it('answers 304 to a matching If-None-Match', async () => {
      const url = fresh('/small.png');
      const etag = (await proxied(url)).headers.get('etag') ?? '';
      const res = await proxied(url, { 'if-none-match': etag });
      expect(res.status).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
      expect((await proxied(url, { 'if-none-match': '"other"' })).status).toBe(200);
    });

    it('does not enlarge a small PNG, and follows a redirect to the image', async () => {
      const small = await sharp(await bytes(await proxied(fresh('/small.png')))).metadata();
      expect([small.format, small.width, small.height]).toEqual(['webp', 300, 200]);
      const redirected = await proxied(fresh('/to-photo'));
      expect(redirected.status).toBe(200);
      expect((await sharp(await bytes(redirected)).metadata()).width).toBe(800);
    });

    it('keeps only the first frame of an animation', async () => {
      expect((await sharp(fx.gif).metadata()).pages).toBe(3);
      const res = await proxied(fresh('/anim.gif'));
      expect(res.status).toBe(200);
      const body = await bytes(res);
      const meta = await sharp(body, { animated: true }).metadata();
      expect([meta.format, meta.width, meta.height, meta.pages ?? 1]).toEqual(['webp', 120, 60, 1]);
      const { data } = await sharp(body).raw().toBuffer({ resolveWithObject: true });
      expect([data[0], data[1], data[2]].map((c) => (c ?? 0) > 128)).toEqual([true, false, false]);
    });

    it('refuses SVG, whatever its Content-Type, and what is not an image', async () => {
      for (const p of ['/logo.svg', '/disguised-svg.png', '/html-as-png.png', '/page.html', '/photo-as-html', '/missing.png']) {
        const res = await proxied(fresh(p));
        expect([p, res.status, res.headers.get('content-type')]).toEqual([p, 404, 'application/json; charset=utf-8']);
        expect(await res.json()).toEqual({ error: IMAGE_PROXY_MESSAGES.unavailable, code: 'IMAGE_UNAVAILABLE' });
        expect(res.headers.get('cache-control')).toBe('public, max-age=600');
      }
    });

    it('stops reading a body over 10 MB and refuses it', async () => {
      hugeSent = 0;
      const res = await proxied(fresh('/huge.jpg'));
      expect(res.status).toBe(404);
      await expect.poll(() => hugeSent).toBeGreaterThan(0);
      expect(hugeSent).toBeLessThan(32 * MB);
    });

    it('remembers a failure: a broken image is not refetched on every view', async () => {
      const url = fresh('/page.html');
      const before = hits('/page.html');
      for (let i = 0; i < 3; i++) expect((await proxied(url)).status).toBe(404);
      expect(hits('/page.html')).toBe(before + 1);
    });

    it('shares one fetch between concurrent requests for the same URL', async () => {
      const url = fresh('/slow-photo.jpg');
      const before = hits('/slow-photo.jpg');
      const responses = await Promise.all(Array.from({ length: 5 }, () => proxied(url)));
      const bodies = await Promise.all(responses.map(bytes));
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(bodies.every((b) => b.equals(bodies[0] as Buffer))).toBe(true);
      expect(hits('/slow-photo.jpg')).toBe(before + 1);
    });

    it('answers 400 to a missing or non-http(s) url', async () => {
      const before = totalHits();
      const ask = (query: string) => fetchHttp(`${ctx.server.url}/api/images/proxy${query}`);
      for (const query of [
        '',
        '?url=',
        `?url=${encodeURIComponent('javascript:alert(1)')}`,
        `?url=${encodeURIComponent('data:image/png;base64,iVBORw0KGgo=')}`,
        `?url=${encodeURIComponent('ftp://files.example/a.png')}`,
        `?url=${encodeURIComponent('file:///etc/passwd')}`,
        `?url=${encodeURIComponent('/api/uploads/images/a.webp')}`,
        `?url=${encodeURIComponent(`https://a.example/${'a'.repeat(3000)}.png`)}`,
        `?url=a&url=b`,
      ]) {
        const res = await ask(query);
        expect([query, res.status]).toEqual([query, 400]);
        expect(await res.json()).toEqual({ error: IMAGE_PROXY_MESSAGES.invalidUrl, code: 'INVALID_URL' });
      }
      expect(totalHits()).toBe(before);
    });

    it('lets a visitor see stored thumbnails, but not have any URL fetched', async () => {
      const url = fresh('/photo.jpg');
      const before = hits('/photo.jpg');
      const refused = await visitor(url);
      expect(refused.status).toBe(404);
      expect(refused.headers.get('cache-control')).toBe('no-store');
      expect(hits('/photo.jpg')).toBe(before);

      // Once a link shows it, a visitor's request fetches it.
      await user.api.createLink({ title: 'Pictured', description: 'x', thumbnailUrl: url });
      const res = await visitor(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(hits('/photo.jpg')).toBe(before + 1);

      // Anything already proxied for a signed-in user is served to visitors too.
      const other = fresh('/small.png');
      expect((await proxied(other)).status).toBe(200);
      expect((await visitor(other)).status).toBe(200);
    });

    it(`rate limits each address to ${IMAGE_PROXY_RATE_LIMIT} images a minute`, async () => {
      // Start the count over, so the earlier tests' requests do not count: it is kept in the database
      // (shared by every process), and each process holds the rest of the block of hits it reserved.
      ctx.server = await ctx.server.restart();
      await ctx.server.db.kysely.deleteFrom('rate_limits').where('key', 'like', '/api/images/proxy %').execute();
      const ask = () => fetchHttp(`${ctx.server.url}/api/images/proxy?url=javascript:1`).then((r) => r.status);
      const statuses: number[] = [];
      for (let i = 0; i < IMAGE_PROXY_RATE_LIMIT / 50; i++) {
        statuses.push(...(await Promise.all(Array.from({ length: 50 }, ask))));
      }
      expect(statuses.every((s) => s === 400)).toBe(true);
      const res = await fetchHttp(`${ctx.server.url}/api/images/proxy?url=javascript:1`);
      expect(res.status).toBe(429);
      expect(await res.json()).toMatchObject({ error: MSG.tooManyRequests });
    });
  },
  { PREVIEW_ALLOW_PRIVATE: 'true', PREVIEW_TIMEOUT_MS: String(TIMEOUT_MS) },
);

describeEachDatabase('image proxy refuses private addresses (PREVIEW_ALLOW_PRIVATE off)', (ctx) => {
  it('refuses loopback, private and metadata addresses with 400, without connecting', async () => {
    const user = await signedInUser(ctx.server.url, 'Attacker');
    const before = totalHits();
    const targets = [
      fresh('/photo.jpg'),
      fresh('/photo.jpg').replace('127.0.0.1', 'localhost'),
      'http://127.0.0.1/photo.jpg',
      'http://[::1]/photo.jpg',
      'http://10.0.0.1/a.png',
      'http://192.168.1.1/a.png',
      'http://169.254.169.254/latest/meta-data/',
      'http://0.0.0.0/a.png',
      'http://metadata.google.internal/computeMetadata/v1/',
    ];
    for (const target of targets) {
      const res = await user.fetch(`${ctx.server.url}${imageProxyUrl(target)}`);
      expect([target, res.status]).toEqual([target, 400]);
      expect(await res.json()).toEqual({ error: IMAGE_PROXY_MESSAGES.refused, code: 'IMAGE_REFUSED' });
    }
    expect(totalHits()).toBe(before);
  });
});
