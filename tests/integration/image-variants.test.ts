import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { IMAGE_WIDTHS, type ImageWidth, imageProxyUrl, imageVariantUrl } from '../../shared/domain';
import { proxyStorageKey } from '../../server/preview/image-proxy';
import { INVALID_IMAGE_WIDTH, imageCacheDir, imageVariantFile } from '../../server/services/image-variants';
import { uploadedImageKey } from '../../server/services/images';
import { http, signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { type ImageSite, sitePage, startImageSite } from '../support/image-site';

/**
 * Resized thumbnails for srcset (`?w=` on uploads and on the image proxy), on the real server:
 * sizes, type, the disk cache under DATA_DIR, never enlarging, refusing other widths. The
 * proxied images come from a local site on 127.0.0.1 (PREVIEW_ALLOW_PRIVATE), nothing else.
 */

const photo = (width: number, height: number, format: 'jpeg' | 'png' = 'jpeg') =>
  sharp({ create: { width, height, channels: 3, background: '#cc6633' } })[format]().toBuffer();

let site: ImageSite;
beforeAll(async () => {
  site = await startImageSite(
    {
      '/photo.jpg': sitePage('image/jpeg', await photo(1600, 1000)),
      '/small.png': sitePage('image/png', await photo(300, 200, 'png')),
      '/logo.svg': sitePage('image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="900"/>'),
    },
    (res) => {
      res.writeHead(404);
      res.end();
    },
  );
});
afterAll(async () => {
  await site?.close();
});

let unique = 0;
/** A URL of the local site that no earlier request has proxied. */
const fresh = (p: string) => `${site.origin}${p}?t=${++unique}`;
const hits = (p: string) => site.hits.get(p) ?? 0;
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
const size = async (image: Buffer) => {
  const meta = await sharp(image).metadata();
  return [meta.format, meta.width, meta.height];
};
/** A WebP no resize of ours would give: what the cache file is swapped for, to see who answers. */
const marker = () => sharp({ create: { width: 7, height: 3, channels: 3, background: '#00ff00' } }).webp().toBuffer();

describeEachDatabase(
  'image variants (?w=) of uploads and proxied images',
  (ctx) => {
    let user: Awaited<ReturnType<typeof signedInUser>>;
    beforeAll(async () => {
      user = await signedInUser(ctx.server.url, 'Curator');
    });
    const get = (pathAndQuery: string, headers: Record<string, string> = {}) => http(`${ctx.server.url}${pathAndQuery}`, { headers });
    const cacheFile = (sourceKey: string, width: ImageWidth) => imageVariantFile(imageCacheDir(ctx.server.config), sourceKey, width);
    const upload = async (width: number, height: number) => {
      const { url } = await user.api.uploadImage(new Blob([await photo(width, height)], { type: 'image/jpeg' }));
      return { url, key: uploadedImageKey(url.split('/').pop() as string) };
    };
    const variant = (shown: string, width: ImageWidth) => imageVariantUrl(shown, width) as string;

    it('serves an upload 320, 640 and 960 px wide as WebP, each cached once under DATA_DIR/cache/images', async () => {
      const { url, key } = await upload(2400, 1600);
      expect(await size(await bytes(await get(url)))).toEqual(['webp', 1200, 800]);
      for (const width of IMAGE_WIDTHS) {
        const file = cacheFile(key, width);
        expect(file.startsWith(path.join(ctx.server.config.dataDir, 'cache', 'images') + path.sep)).toBe(true);
        expect(existsSync(file)).toBe(false);
        const res = await get(variant(url, width));
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/webp');
        expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        const body = await bytes(res);
        expect(await size(body)).toEqual(['webp', width, Math.round((width * 800) / 1200)]);
        expect(readFileSync(file).equals(body)).toBe(true);
      }
    });

    it('answers the second request from the cached file', async () => {
      const { url, key } = await upload(1000, 600);
      const first = await bytes(await get(variant(url, 320)));
      const file = cacheFile(key, 320);
      expect(readFileSync(file).equals(first)).toBe(true);
      // The file, not a new resize, answers: swapped for another image, that image is what comes back.
      const swapped = await marker();
      writeFileSync(file, swapped);
      expect((await bytes(await get(variant(url, 320)))).equals(swapped)).toBe(true);
      // A new process (empty memory) reads it too.
      ctx.server = await ctx.server.restart();
      expect((await bytes(await get(variant(url, 320)))).equals(swapped)).toBe(true);
      user = await signedInUser(ctx.server.url, 'Curator');
    });

    it('never enlarges: an image no wider than asked is served as it is, and nothing is cached', async () => {
      const { url, key } = await upload(500, 300);
      const original = await bytes(await get(url));
      for (const width of [640, 960] as const) {
        const res = await get(variant(url, width));
        expect(res.status).toBe(200);
        const body = await bytes(res);
        expect(await size(body)).toEqual(['webp', 500, 300]);
        expect(body.equals(original)).toBe(true);
        expect(existsSync(cacheFile(key, width))).toBe(false);
      }
      expect(await size(await bytes(await get(variant(url, 320))))).toEqual(['webp', 320, 192]);
    });

    it('refuses any other width with 400 {error, code}, on both routes, and caches nothing', async () => {
      const { url, key } = await upload(1000, 600);
      const proxied = imageProxyUrl(fresh('/photo.jpg')) as string;
      const before = hits('/photo.jpg');
      for (const w of ['', '0', '100', '319', '321', '1200', '640px', ' 640', '6.4e2', 'abc', '-320']) {
        for (const shown of [url, proxied]) {
          const res = await user.fetch(`${ctx.server.url}${shown}${shown.includes('?') ? '&' : '?'}w=${encodeURIComponent(w)}`);
          expect([shown, w, res.status]).toEqual([shown, w, 400]);
          expect(await res.json()).toEqual({ error: INVALID_IMAGE_WIDTH.error, code: INVALID_IMAGE_WIDTH.code });
        }
      }
      // Twice the parameter is no width either.
      expect((await get(`${url}?w=320&w=640`)).status).toBe(400);
      expect((await get(`${proxied}&w=320&w=640`)).status).toBe(400);
      expect(hits('/photo.jpg')).toBe(before);
      for (const width of IMAGE_WIDTHS) expect(existsSync(cacheFile(key, width))).toBe(false);
    });

    it('answers 404 for an unknown upload, with or without a width', async () => {
      const missing = '/api/uploads/images/0123456789abcdef0123456789abcdef.webp';
      expect((await get(missing)).status).toBe(404);
      expect((await get(variant(missing, 320))).status).toBe(404);
    });

    it('resizes a proxied image from its stored WebP (800 px wide): 320 and 640, and 960 is the 800 px one', async () => {
      const url = fresh('/photo.jpg');
      const shown = imageProxyUrl(url) as string;
      const before = hits('/photo.jpg');
      const full = await user.fetch(`${ctx.server.url}${shown}`);
      const fullBody = await bytes(full);
      expect(await size(fullBody)).toEqual(['webp', 800, 500]);
      for (const width of [320, 640] as const) {
        const res = await user.fetch(`${ctx.server.url}${variant(shown, width)}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/webp');
        expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
        expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
        const body = await bytes(res);
        expect(await size(body)).toEqual(['webp', width, (width * 500) / 800]);
        expect(readFileSync(cacheFile(proxyStorageKey(url), width)).equals(body)).toBe(true);
        expect(res.headers.get('etag')).not.toBe(full.headers.get('etag'));
      }
      const widest = await user.fetch(`${ctx.server.url}${variant(shown, 960)}`);
      expect((await bytes(widest)).equals(fullBody)).toBe(true);
      expect(widest.headers.get('etag')).toBe(full.headers.get('etag'));
      expect(existsSync(cacheFile(proxyStorageKey(url), 960))).toBe(false);
      // One fetch of the third party for all of them.
      expect(hits('/photo.jpg')).toBe(before + 1);
    });

    it('serves a proxied variant from its cached file, with a 304 for a matching If-None-Match', async () => {
      const url = fresh('/small.png');
      const shown = variant(imageProxyUrl(url) as string, 320);
      const first = await user.fetch(`${ctx.server.url}${shown}`);
      expect(await size(await bytes(first))).toEqual(['webp', 300, 200]);
      // 300 px wide: no enlarging, so no file. A wider source has one:
      expect(existsSync(cacheFile(proxyStorageKey(url), 320))).toBe(false);

      const photoUrl = fresh('/photo.jpg');
      const photoVariant = variant(imageProxyUrl(photoUrl) as string, 320);
      const made = await user.fetch(`${ctx.server.url}${photoVariant}`);
      const etag = made.headers.get('etag') ?? '';
      const file = cacheFile(proxyStorageKey(photoUrl), 320);
      const { mtimeMs } = statSync(file);
      const again = await get(photoVariant, { 'if-none-match': etag });
      expect([again.status, again.headers.get('etag')]).toEqual([304, etag]);
      expect(statSync(file).mtimeMs).toBe(mtimeMs);
      const swapped = await marker();
      writeFileSync(file, swapped);
      expect((await bytes(await get(photoVariant))).equals(swapped)).toBe(true);
    });

    it('keeps the proxy rules: a visitor gets no fetch through a width, and refused images stay refused', async () => {
      const url = fresh('/photo.jpg');
      const before = hits('/photo.jpg');
      const res = await get(variant(imageProxyUrl(url) as string, 640));
      expect([res.status, res.headers.get('cache-control')]).toEqual([404, 'no-store']);
      expect(hits('/photo.jpg')).toBe(before);
      expect(existsSync(cacheFile(proxyStorageKey(url), 640))).toBe(false);

      // Once a link shows it, the visitor's variant comes (one fetch, then a resize).
      await user.api.createLink({ title: 'Pictured', description: 'x', thumbnailUrl: url });
      const shown = await get(variant(imageProxyUrl(url) as string, 640));
      expect(shown.status).toBe(200);
      expect(await size(await bytes(shown))).toEqual(['webp', 640, 400]);
      expect(hits('/photo.jpg')).toBe(before + 1);

      const svg = await user.fetch(`${ctx.server.url}${variant(imageProxyUrl(fresh('/logo.svg')) as string, 320)}`);
      expect(svg.status).toBe(404);
      expect(await svg.json()).toEqual({ error: 'Image not available', code: 'IMAGE_UNAVAILABLE' });
    });
  },
  { PREVIEW_ALLOW_PRIVATE: 'true' },
);
