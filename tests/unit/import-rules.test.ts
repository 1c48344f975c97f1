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
import { OCR_MAX_PIXELS, ocrScale } from '../../web/features/import/ocr';

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
    [800, 600, 2],
    [999, 2000, 2],
    [1280, 800, 2],
    [1600, 1000, 1],
    [2500, 1600, 1],
    [5000, 3000, 0.5],
  ])('%i x %i → %f', (width, height, scale) => {
    expect(ocrScale(width, height)).toBeCloseTo(scale);
  });

  it('keeps very long screenshots under the pixel budget', () => {
    const scale = ocrScale(1200, 40_000);
    expect(1200 * scale * 40_000 * scale).toBeLessThanOrEqual(OCR_MAX_PIXELS + 1);
  });
});
