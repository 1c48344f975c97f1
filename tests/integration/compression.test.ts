import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { paths } from '../../shared/domain';
import { precompressDir } from '../../scripts/precompress';
import { signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { type RawResponse, decodedBody, rawGet } from '../support/raw-http';
import { createCollection } from '../support/supercurations';

/** A stand-in for the built web app, precompressed by the build's own step. */
const webDir = mkdtempSync(path.join(tmpdir(), 'supercurate-web-'));
const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`))};\n`;
mkdirSync(path.join(webDir, 'assets'));
writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), script);
writeFileSync(path.join(webDir, 'assets', 'tiny-abc123.js'), 'export {};\n');
writeFileSync(
  path.join(webDir, 'index.html'),
  `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>Supercurate — Internet. Curated.</title></head>
  <body><div id="root"></div><script type="module" src="/assets/app-abc123.js"></script>
  <noscript>${'Supercurate needs JavaScript for this page. '.repeat(40)}</noscript></body>
</html>
`,
);
await precompressDir(webDir);

const ENCODINGS = ['br', 'gzip'] as const;

const varyList = (res: RawResponse) =>
  String(res.headers.vary ?? '')
    .toLowerCase()
    .split(',')
    .map((v) => v.trim());

describeEachDatabase(
  'compression',
  (ctx) => {
    let slug = '';
    let collectionId = '';
    let userId = '';
    let thumbnail = '';

    beforeAll(async () => {
      const user = await signedInUser(ctx.server.url, 'Compression Curator');
      userId = user.me.id;
      const collection = await createCollection(user, { isPublic: true, title: 'Compressed collection' });
      slug = collection.slug ?? '';
      collectionId = collection.id;
      for (let i = 0; i < 12; i += 1) {
        await user.api.addResource(collection.id, {
          link: { url: `https://example.com/article-${i}`, title: `Article number ${i}`, description: `All about topic ${i}.` },
        });
      }
      const image = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3366cc' } }).png().toBuffer();
      ({ url: thumbnail } = await user.api.uploadImage(new Blob([image], { type: 'image/png' })));
    });

    /** Every text response of a public page, each with at least 1 KiB of content. */
    const textPaths = () => [
      '/assets/app-abc123.js',
      '/directory',
      `/supercurations/public/${slug}`,
      `/api/supercurations/${collectionId}/resources`,
      paths.collectionFeed(slug),
      `/api/users/${userId}/avatar`,
    ];

    it('answers brotli and gzip that decode to exactly the uncompressed bytes, with Vary: accept-encoding', async () => {
      for (const pathname of textPaths()) {
        const plain = await rawGet(`${ctx.server.url}${pathname}`);
        expect([pathname, plain.status, plain.headers['content-encoding']]).toEqual([pathname, 200, undefined]);
        expect(plain.body.length).toBeGreaterThanOrEqual(1024);
        expect([pathname, varyList(plain)]).toEqual([pathname, expect.arrayContaining(['accept-encoding'])]);
        for (const encoding of ENCODINGS) {
          const res = await rawGet(`${ctx.server.url}${pathname}`, { 'accept-encoding': encoding });
          expect([pathname, res.status, res.headers['content-encoding']]).toEqual([pathname, 200, encoding]);
          expect(res.body.length).toBeLessThan(plain.body.length);
          expect(decodedBody(res).equals(plain.body)).toBe(true);
          expect([pathname, varyList(res)]).toEqual([pathname, expect.arrayContaining(['accept-encoding'])]);
        }
      }
    });

    it('prefers brotli when the client takes both', async () => {
      const res = await rawGet(`${ctx.server.url}/api/supercurations/${collectionId}/resources`, {
        'accept-encoding': 'gzip, deflate, br',
      });
      expect(res.headers['content-encoding']).toBe('br');
    });

    it('sends the build\u2019s precompressed files as they are', async () => {
      for (const [encoding, extension] of [['br', 'br'], ['gzip', 'gz']] as const) {
        const res = await rawGet(`${ctx.server.url}/assets/app-abc123.js`, { 'accept-encoding': encoding });
        expect(res.body.equals(readFileSync(path.join(webDir, 'assets', `app-abc123.js.${extension}`)))).toBe(true);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      }
    });

    it('leaves responses under 1 KiB and images uncompressed', async () => {
      const tiny = await rawGet(`${ctx.server.url}/api/health`, { 'accept-encoding': 'br, gzip' });
      expect(tiny.headers['content-encoding']).toBeUndefined();
      const image = await rawGet(`${ctx.server.url}${thumbnail}`, { 'accept-encoding': 'br, gzip' });
      expect(image.status).toBe(200);
      expect(image.headers['content-type']).toBe('image/webp');
      expect(image.headers['content-encoding']).toBeUndefined();
      expect((await sharp(image.body).metadata()).format).toBe('webp');
    });
  },
  { WEB_DIR: webDir },
);
