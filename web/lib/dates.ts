/**
 * Dates as the app shows them, in en-US, written out here rather than through Intl: a browser
 * builds each Intl formatter from its locale data the first time, ~10 ms of main thread apiece
 * (~40 ms on a mid-range phone), inside the hydration of every page that shows a date. The texts
 * are Intl's own (tests/unit/dates.test.ts compares them), in the reader's time zone.
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const UNITS = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
] as const;
type Unit = (typeof UNITS)[number][0];

/** What Intl.RelativeTimeFormat('en-US', { numeric: 'auto' }) says instead of "in 0/1 unit(s)". */
const WORDS: Partial<Record<Unit, Record<string, string>>> = {
  year: { '-1': 'last year', '0': 'this year', '1': 'next year' },
  month: { '-1': 'last month', '0': 'this month', '1': 'next month' },
  week: { '-1': 'last week', '0': 'this week', '1': 'next week' },
  day: { '-1': 'yesterday', '0': 'today', '1': 'tomorrow' },
  hour: { '0': 'this hour' },
  minute: { '0': 'this minute' },
  second: { '0': 'now' },
};

function relativeText(value: number, unit: Unit): string {
  const word = WORDS[unit]?.[String(value === 0 ? 0 : value)];
  if (word) return word;
  const size = Math.abs(value);
  const amount = `${String(size).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} ${unit}${size === 1 ? '' : 's'}`;
  return value < 0 ? `${amount} ago` : `in ${amount}`;
}

/** '3 minutes ago', 'yesterday', 'now' (en-US). */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return relativeText(Math.round(seconds / size), unit);
  }
  return '';
}

/** 'Mar 5, 2025' (en-US, SPEC §9). */
export function shortDate(iso: string): string {
  const date = new Date(iso);
  return `${MONTHS[date.getMonth()]!.slice(0, 3)} ${date.getDate()}, ${date.getFullYear()}`;
}

/** 'March 2025' (en-US). */
export function monthAndYear(iso: string): string {
  const date = new Date(iso);
  return `${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

/** 'March 5, 2025' (en-US). */
export function longDate(iso: string): string {
  const date = new Date(iso);
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}

/**
 * 'March 5, 2025' (en-US) on the UTC calendar: the day a page says it was published. The same text
 * on the server and in every reader's time zone (no hydration mismatch), and a page dated by day
 * alone ('2025-03-05', stored as midnight UTC) keeps its day west of Greenwich.
 */
export function utcLongDate(iso: string): string {
  const date = new Date(iso);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** 'March 5, 2025 at 2:07 PM' (en-US), for the title of a relative time. */
export function fullDateTime(iso: string): string {
  const date = new Date(iso);
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  return `${longDate(iso)} at ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}
