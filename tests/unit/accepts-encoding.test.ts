import { describe, expect, test } from 'vitest';
import { acceptsEncoding } from '../../server/http/server-render';

describe('which compression a client takes (Accept-Encoding)', () => {
  test.each([
    ['gzip, deflate, br, zstd', 'br', true],
    ['gzip, deflate, br, zstd', 'gzip', true],
    ['gzip;q=1.0, br;q=0.5', 'br', true],
    ['BR', 'br', true],
    ['gzip, br;q=0', 'br', false],
    ['gzip, br; q=0.0', 'br', false],
    ['identity', 'gzip', false],
    ['brotli', 'br', false],
    ['', 'gzip', false],
    [undefined, 'br', false],
  ])('%j takes %s: %s', (header, coding, expected) => {
    expect(acceptsEncoding(header, coding)).toBe(expected);
  });
});
