import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, test } from 'vitest';
import { STORE_SUMMARY_MAX_LENGTH } from '../../extension/listing';
import { PROMO_TILE_SIZE, SCREENSHOT_SIZE, STORE_FILES, STORE_SCREENSHOTS, writeStoreAssets } from '../../scripts/store-assets';

/** AMO's limit on the summary (the Chrome Web Store's, 132, is lower); both stores cap descriptions at about 16,000. */
const AMO_SUMMARY_MAX_LENGTH = 250;
const DESCRIPTION_MAX_LENGTH = 16_000;

describe('npm run store:assets', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'supercurate-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('writes the listing texts, 1280×800 screenshots of the extension at work and the 440×280 promo tile', { timeout: 180_000 }, async () => {
    const files = (await writeStoreAssets(dir)).map((file) => path.basename(file));
    expect(files.sort()).toEqual(Object.values(STORE_FILES).sort());

    const summary = readFileSync(path.join(dir, STORE_FILES.summary), 'utf8').trim();
    expect(summary.length).toBeGreaterThan(0);
    expect(summary.length).toBeLessThanOrEqual(Math.min(STORE_SUMMARY_MAX_LENGTH, AMO_SUMMARY_MAX_LENGTH));
    const description = readFileSync(path.join(dir, STORE_FILES.description), 'utf8').trim();
    expect(description.length).toBeGreaterThan(summary.length);
    expect(description.length).toBeLessThanOrEqual(DESCRIPTION_MAX_LENGTH);

    const images = [...STORE_SCREENSHOTS.map((file) => [file, SCREENSHOT_SIZE] as const), [STORE_FILES.promoTile, PROMO_TILE_SIZE] as const];
    for (const [file, size] of images) {
      const image = sharp(path.join(dir, file));
      const { format, width, height } = await image.metadata();
      expect({ file, format, width, height }).toEqual({ file, format: 'png', ...size });
      // Not a blank page: the picture varies.
      const { channels } = await image.stats();
      expect(Math.max(...channels.map((c) => c.stdev)), file).toBeGreaterThan(20);
    }
  });
});
