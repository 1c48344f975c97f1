import { describe, expect, it } from 'vitest';
import { readableProgressText, readingTimeText } from '../../shared/domain';

describe('readable copies: the texts the reader view and the settings card show', () => {
  it('counts copies with en-US grouping, and those waiting only when there are some', () => {
    expect(readableProgressText({ kept: 1234, total: 5000, waiting: 0 })).toBe('Readable copies: 1,234 of 5,000');
    expect(readableProgressText({ kept: 0, total: 1, waiting: 1 })).toBe('Readable copies: 0 of 1, 1 waiting');
    expect(readableProgressText({ kept: 998_000, total: 1_000_000, waiting: 2000 })).toBe('Readable copies: 998,000 of 1,000,000, 2,000 waiting');
  });

  it('says the reading time in minutes', () => {
    expect(readingTimeText(4)).toBe('4 min read');
  });
});
