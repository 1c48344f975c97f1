import { describe, expect, it } from 'vitest';
import {
  BATCH_SHARE_MAX,
  IMPORT_MESSAGES,
  LINK_MESSAGES,
  batchItemLink,
  batchRuleSatisfied,
  batchShareSchema,
  recognisingText,
  selectedCount,
  shareSelectedLabel,
  sharingLinks,
} from '../../shared/domain';
import {
  OCR_MAX_PIXELS,
  histogram,
  isDarkBackground,
  medianLineHeight,
  ocrScale,
  stretchContrast,
  textLevels,
} from '../../web/features/import/ocr-image';

describe('the batch rule (SPEC §5)', () => {
  it.each([
    [{}, true],
    [{ inMainFeed: true }, true],
    [{ inMainFeed: false }, false],
    [{ inMainFeed: false, supercurationIds: [] }, false],
    [{ inMainFeed: false, format: null }, false],
    [{ inMainFeed: false, supercurationIds: ['c1'] }, true],
    [{ inMainFeed: false, format: 'video' as const }, true],
  ])('%j → %s', (settings, ok) => {
    expect(batchRuleSatisfied(settings)).toBe(ok);
  });
});

describe('batch items', () => {
  const settings = { supercurationIds: ['c1'], format: 'article' as const, inMainFeed: false };

  it('become single-link inputs with the batch settings, validated like a single link', () => {
    const parsed = batchItemLink({ url: ' example.com/a ', title: ' A ', description: 'B', thumbnailUrl: '' }, settings);
    expect(parsed.success && parsed.data).toMatchObject({
      url: 'https://example.com/a',
      title: 'A',
      description: 'B',
      thumbnailUrl: null,
      format: 'article',
      inMainFeed: false,
      supercurationIds: ['c1'],
      linkText: 'Visit Link',
      topicIds: [],
    });
  });

  it.each([
    [{ url: 'javascript:alert(1)', title: 'a', description: 'b' }, LINK_MESSAGES.onlyHttpUrls],
    [{ url: '', title: 'a', description: 'b' }, LINK_MESSAGES.onlyHttpUrls],
    [{ title: 'a', description: 'b' }, LINK_MESSAGES.onlyHttpUrls],
    [{ url: 'https://a.com', title: '', description: 'b' }, LINK_MESSAGES.invalidLinkData],
    [{ url: 'https://a.com', title: 'a', description: 'b'.repeat(6000) }, LINK_MESSAGES.invalidLinkData],
    ['not an object', LINK_MESSAGES.invalidLinkData],
  ])('refuses %j', (item, message) => {
    const parsed = batchItemLink(item, settings);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });

  it('come 1 to 100 at a time', () => {
    const item = { url: 'https://a.com', title: 'a', description: 'b' };
    expect(batchShareSchema.safeParse({ items: Array(BATCH_SHARE_MAX).fill(item) }).success).toBe(true);
    expect(batchShareSchema.safeParse({ items: Array(BATCH_SHARE_MAX + 1).fill(item) }).error?.issues[0]?.message).toBe(
      IMPORT_MESSAGES.tooMany,
    );
    expect(batchShareSchema.safeParse({ items: [] }).error?.issues[0]?.message).toBe(IMPORT_MESSAGES.noneSelected);
  });
});

describe('texts', () => {
  it('are the spec’s', () => {
    expect([selectedCount(3, 12), shareSelectedLabel(3), sharingLinks(3), sharingLinks(1), recognisingText(41.6)]).toEqual([
      '3 of 12 selected',
      'Share Selected (3)',
      'Sharing 3 links...',
      'Sharing 1 link...',
      'Recognising text... 42%',
    ]);
  });
});

describe('ocrScale', () => {
  it.each([
    // No measured text line: 2x, up to 4000 px wide.
    [1280, 800, null, 2],
    [800, 600, null, 2],
    [2500, 1600, null, 1.6],
    [5000, 3000, null, 1],
    // Lines brought towards 56 px, at most 2x: desktop text at 2x, phone screenshots (3x density) near 1.2x, huge text down.
    [1280, 800, 15, 2],
    [1100, 520, 28, 2],
    [1280, 800, 40, 1.4],
    [1170, 2532, 48, 56 / 48],
    [1170, 2532, 160, 0.5],
  ])('%i x %i, lines of %s px → %f', (width, height, line, scale) => {
    expect(ocrScale(width, height, line)).toBeCloseTo(scale);
  });

  it('keeps very long screenshots under the pixel budget', () => {
    const scale = ocrScale(1200, 40_000);
    expect(1200 * scale * 40_000 * scale).toBeLessThanOrEqual(OCR_MAX_PIXELS + 1);
  });
});

describe('OCR image preparation', () => {
  const rgba = (...pixels: [number, number, number, number][]) => new Uint8ClampedArray(pixels.flat());

  it('keeps coloured text dark on light, and inverts dark mode by its brightest channel', () => {
    // White page, a blue link (#1a73e8), grey text.
    expect([...textLevels(rgba([255, 255, 255, 255], [26, 115, 232, 255], [101, 119, 134, 255]), false)]).toEqual([255, 26, 101]);
    // Dark page (#15202b), a light blue link (#1d9bf0), near-white text: the link is as dark as the text.
    expect([...textLevels(rgba([21, 32, 43, 255], [29, 155, 240, 255], [231, 233, 234, 255]), true)]).toEqual([212, 15, 21]);
    // Transparent pixels are background.
    expect([...textLevels(rgba([0, 0, 0, 0]), false)]).toEqual([255]);
  });

  it('tells a dark background by the median, not by the split between page and bubbles', () => {
    const levels = (counts: [number, number][]) => new Uint8Array(counts.flatMap(([g, n]) => Array<number>(n).fill(g)));
    expect(isDarkBackground(histogram(levels([[21, 80], [230, 20]])))).toBe(true);
    // A light page with light grey bubbles and a little dark text is light.
    expect(isDarkBackground(histogram(levels([[255, 55], [245, 40], [20, 5]])))).toBe(false);
  });

  it('stretches the grey range to 0..255', () => {
    const out = stretchContrast(new Uint8Array([60, 60, 100, 140, 140]));
    expect([...out]).toEqual([0, 0, 128, 255, 255]);
  });

  it('measures text lines by rows crossing glyph edges, ignoring filled bubbles', () => {
    const width = 40;
    const rows: number[][] = [];
    const blank = () => Array<number>(width).fill(255);
    const bubble = () => [255, ...Array<number>(width - 2).fill(200), 255];
    const text = () => Array.from({ length: width }, (_, x) => (x % 4 < 2 ? 0 : 255));
    for (let i = 0; i < 3; i++) rows.push(blank());
    for (let i = 0; i < 4; i++) rows.push(bubble());
    for (let i = 0; i < 12; i++) rows.push(text());
    for (let i = 0; i < 4; i++) rows.push(bubble());
    for (let i = 0; i < 14; i++) rows.push(text());
    for (let i = 0; i < 3; i++) rows.push(blank());
    for (let i = 0; i < 16; i++) rows.push(text());
    expect(medianLineHeight(new Uint8Array(rows.flat()), width, rows.length)).toBe(14);
    expect(medianLineHeight(new Uint8Array(width * 10).fill(255), width, 10)).toBeNull();
  });
});
