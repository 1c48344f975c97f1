import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import {
  VARIANT_SWEEP_TO,
  VARIANT_TOUCH_AFTER_MS,
  createImageVariants,
  imageVariantFile,
  parseImageWidth,
} from '../../server/services/image-variants';

const HOUR = 60 * 60 * 1000;
const dirs: string[] = [];
const cacheDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'supercurate-variants-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A WebP with detail, so its variants weigh a few KB each. */
async function source(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919 + (i >> 7) * 31) % 251;
  return sharp(pixels, { raw: { width, height, channels: 3 } }).webp().toBuffer();
}

const cachedBytes = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(path.join(e.parentPath, e.name)).size, 0);

describe('parseImageWidth', () => {
  it('takes only 320, 640 and 960, written plainly', () => {
    expect([parseImageWidth('320'), parseImageWidth('640'), parseImageWidth('960'), parseImageWidth(undefined)]).toEqual([
      320,
      640,
      960,
      undefined,
    ]);
    for (const raw of ['', '0', '480', '640 ', '0640', '640.0', '6.4e2', 'w', ['320'], 320]) {
      expect([raw, parseImageWidth(raw)]).toEqual([raw, 'invalid']);
    }
  });
});

describe('image variant cache', () => {
  it('resizes to the width, keeps the result in its file, and reads it back from there', async () => {
    const dir = cacheDir();
    const variants = createImageVariants({ dir, maxBytes: 10 * 1024 * 1024 });
    const image = await variants.resized('images/a.webp', 320, await source(1000, 500));
    const meta = await sharp(image).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 320, 160]);
    const file = imageVariantFile(dir, 'images/a.webp', 320);
    expect(path.relative(dir, file)).toMatch(/^([a-f0-9]{2})\/\1[a-f0-9]{62}-320\.webp$/);
    expect(await variants.cached('images/a.webp', 320)).toEqual(image);
    expect(await variants.cached('images/a.webp', 640)).toBeNull();
    expect(await variants.cached('images/b.webp', 320)).toBeNull();
  });

  it('never enlarges: a source no wider than asked comes back as it is, uncached', async () => {
    const dir = cacheDir();
    const variants = createImageVariants({ dir, maxBytes: 10 * 1024 * 1024 });
    const small = await source(640, 100);
    expect(await variants.resized('images/s.webp', 640, small)).toBe(small);
    expect(await variants.resized('images/s.webp', 960, small)).toBe(small);
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });

  it('shares one resize between concurrent requests for a variant', async () => {
    const variants = createImageVariants({ dir: cacheDir(), maxBytes: 10 * 1024 * 1024 });
    const input = await source(1000, 500);
    const [a, b] = await Promise.all([variants.resized('images/c.webp', 640, input), variants.resized('images/c.webp', 640, input)]);
    expect(a).toBe(b);
  });

  it('past the size limit removes the least recently used files down to 80% of it', async () => {
    const dir = cacheDir();
    const input = await source(1000, 600);
    // How much one variant weighs: the limit is set to hold three of them, not four.
    const probe = createImageVariants({ dir: cacheDir(), maxBytes: 10 * 1024 * 1024 });
    const one = (await probe.resized('images/probe.webp', 640, input)).length;
    const maxBytes = Math.floor(one * 3.5);
    let clock = Date.now();
    const variants = createImageVariants({ dir, maxBytes, now: () => clock });

    const keys = ['images/1.webp', 'images/2.webp', 'images/3.webp'];
    for (const [i, key] of keys.entries()) {
      await variants.resized(key, 640, input);
      await variants.settled();
      // Made one, two, three hours before the clock.
      const time = new Date(clock - (3 - i) * HOUR);
      utimesSync(imageVariantFile(dir, key, 640), time, time);
    }
    expect(cachedBytes(dir)).toBe(3 * one);

    // Read again now: the oldest becomes the most recently used.
    clock += VARIANT_TOUCH_AFTER_MS;
    expect(await variants.cached('images/1.webp', 640)).not.toBeNull();
    await expect.poll(() => Math.round(statSync(imageVariantFile(dir, 'images/1.webp', 640)).mtimeMs)).toBe(clock);

    await variants.resized('images/4.webp', 640, input);
    await variants.settled();
    const left = keys.concat('images/4.webp').filter((key) => existsSync(imageVariantFile(dir, key, 640)));
    expect(cachedBytes(dir)).toBeLessThanOrEqual(maxBytes * VARIANT_SWEEP_TO);
    // 2 and 3 were the least recently used; the read kept 1, and 4 is the newest.
    expect(left).toEqual(['images/1.webp', 'images/4.webp']);
  });

  it('counts what an earlier process left in the cache', async () => {
    const dir = cacheDir();
    const input = await source(1000, 600);
    const first = createImageVariants({ dir, maxBytes: 10 * 1024 * 1024 });
    const one = (await first.resized('images/old.webp', 640, input)).length;
    const old = new Date(Date.now() - HOUR);
    utimesSync(imageVariantFile(dir, 'images/old.webp', 640), old, old);

    const second = createImageVariants({ dir, maxBytes: Math.floor(one * 1.5) });
    await second.resized('images/new.webp', 640, input);
    await second.settled();
    expect(existsSync(imageVariantFile(dir, 'images/old.webp', 640))).toBe(false);
    expect(existsSync(imageVariantFile(dir, 'images/new.webp', 640))).toBe(true);
  });
});
