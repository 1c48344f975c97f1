import { expect, it, vi } from 'vitest';
import { newId } from '../../server/db/ids';

it('makes ids of 24 hex characters that sort in the order they were made, and differ within a millisecond', () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(Date.parse('2026-11-28T10:00:00.000Z'));
    const sameMs = Array.from({ length: 1000 }, () => newId());
    vi.setSystemTime(Date.parse('2026-11-28T10:00:00.001Z'));
    const next = newId();
    vi.setSystemTime(Date.parse('2031-01-01T00:00:00.000Z'));
    const later = newId();
    for (const id of [...sameMs, next, later]) expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(new Set(sameMs).size).toBe(1000);
    for (const id of sameMs) expect(id < next).toBe(true);
    expect(next < later).toBe(true);
  } finally {
    vi.useRealTimers();
  }
});
