import { describe, expect, test } from 'vitest';
import { fullDateTime, longDate, monthAndYear, relativeTime, shortDate, utcLongDate } from '../../web/lib/dates';

// The web app writes its dates itself (no Intl formatter on the main thread): the texts must be
// exactly the ones Intl gives in en-US, which is what the pages showed before.
const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];
function intlRelative(iso: string, now: number): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const [unit, size] = UNITS.find(([u, s]) => Math.abs(seconds) >= s || u === 'second')!;
  return relative.format(Math.round(seconds / size), unit);
}

const NOW = Date.parse('2026-11-25T14:00:00Z');
const OFFSETS_S = [
  0, 0.4, -0.4, 1, -1, 29, -59, 60, -60, 89, -90, 3599, -3600, -5400, 7200, -86_399, -86_400, 86_400, -129_600,
  -6 * 86_400, -7 * 86_400, 7 * 86_400, -13 * 86_400, -29 * 86_400, -30 * 86_400, 30 * 86_400, -45 * 86_400,
  -364 * 86_400, -365 * 86_400, 365 * 86_400, -800 * 86_400, -20 * 365 * 86_400, -1500 * 365 * 86_400,
];

describe('dates as the pages show them', () => {
  test.each(OFFSETS_S)('relative time %s s from now reads as Intl says it', (offset) => {
    const iso = new Date(NOW + offset * 1000).toISOString();
    expect(relativeTime(iso, NOW)).toBe(intlRelative(iso, NOW));
  });

  const short = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
  const monthYear = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' });
  const long = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });
  const full = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' });
  const utcLong = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
  const days = Array.from({ length: 60 }, (_, i) => new Date(Date.UTC(2024, 0, 1) + i * 6.3 * 86_400_000 + i * 3_700_000));
  test.each([...days, new Date(2025, 0, 1, 0, 0), new Date(2025, 5, 9, 12, 0), new Date(2025, 11, 31, 23, 59), new Date(2025, 2, 5, 14, 7)])(
    'dates and date-times of %s read as Intl says them',
    (date) => {
      const iso = date.toISOString();
      expect(shortDate(iso)).toBe(short.format(date));
      expect(monthAndYear(iso)).toBe(monthYear.format(date));
      expect(longDate(iso)).toBe(long.format(date));
      expect(fullDateTime(iso)).toBe(full.format(date));
      expect(utcLongDate(iso)).toBe(utcLong.format(date));
    },
  );
});
