const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];
const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

/** '3 minutes ago', 'yesterday', 'now' (en-US). */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return relative.format(Math.round(seconds / size), unit);
  }
  return '';
}

// One formatter each: toLocaleString builds a new one per call, the costliest part of a server render.
const fullDateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' });
const longDateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

/** 'March 5, 2025 at 2:07 PM' (en-US), for the title of a relative time. */
export function fullDateTime(iso: string): string {
  return fullDateTimeFormat.format(new Date(iso));
}

/** 'March 5, 2025' (en-US). */
export function longDate(iso: string): string {
  return longDateFormat.format(new Date(iso));
}
