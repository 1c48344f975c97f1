/**
 * RSS 2.0 documents (https://www.rssboard.org/rss-specification), for a user's shared links and,
 * later, for public collections: build an RssChannel and its items, then renderRss().
 *
 * Every text is XML-escaped and stripped of the characters XML 1.0 forbids, so any title a user
 * typed yields a well-formed document. Links are absolute http(s) URLs or the item is left out.
 */

export const RSS_CONTENT_TYPE = 'application/rss+xml; charset=utf-8';

export interface RssItem {
  title: string;
  /** Where the item points: the shared URL, or our page of it. Must be absolute http(s). */
  link: string;
  /** A stable permalink (our page of the item); readers de-duplicate on it. */
  guid: string;
  /** Plain text. */
  description?: string;
  pubDate: Date | string;
  /** Plain-text category names. */
  categories?: string[];
}

export interface RssChannel {
  title: string;
  /** The HTML page the feed belongs to (absolute http(s)). */
  link: string;
  /** The feed's own URL, for <atom:link rel="self">. */
  selfUrl: string;
  /** Plain text. */
  description: string;
  /** Defaults to the newest item's date, or now when there are none. */
  lastBuildDate?: Date | string;
  /** Minutes a reader may cache the feed. */
  ttl?: number;
  items: RssItem[];
}

// XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. Lone surrogates go too.
const INVALID_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text as XML character data or an attribute value: invalid characters dropped, & < > " ' escaped. */
export function escapeXml(text: string): string {
  return text
    .replace(INVALID_XML_CHARS, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

/** The URL if it is an absolute http(s) URL, else null (javascript:, data:, relative ... are refused). */
export function httpUrlOrNull(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

/** RFC 822 date as RSS wants it, e.g. 'Wed, 05 Mar 2025 14:07:00 GMT'. */
export function rfc822(date: Date | string): string {
  return new Date(date).toUTCString();
}

const element = (name: string, text: string) => `<${name}>${escapeXml(text)}</${name}>`;

export function renderRss(channel: RssChannel): string {
  const items = channel.items.flatMap((item) => {
    const link = httpUrlOrNull(item.link);
    const guid = httpUrlOrNull(item.guid);
    if (!link || !guid) return [];
    return [
      [
        '    <item>',
        `      ${element('title', item.title)}`,
        `      ${element('link', link)}`,
        `      <guid isPermaLink="true">${escapeXml(guid)}</guid>`,
        ...(item.description ? [`      ${element('description', item.description)}`] : []),
        ...(item.categories ?? []).map((c) => `      ${element('category', c)}`),
        `      ${element('pubDate', rfc822(item.pubDate))}`,
        '    </item>',
      ].join('\n'),
    ];
  });
  const newest = channel.items[0]?.pubDate;
  const lastBuild = channel.lastBuildDate ?? newest ?? new Date();
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    ${element('title', channel.title)}`,
    `    ${element('link', httpUrlOrNull(channel.link) ?? '')}`,
    `    <atom:link href="${escapeXml(channel.selfUrl)}" rel="self" type="application/rss+xml" />`,
    `    ${element('description', channel.description)}`,
    `    ${element('lastBuildDate', rfc822(lastBuild))}`,
    '    <generator>Supercurate</generator>',
    ...(channel.ttl ? [`    ${element('ttl', String(channel.ttl))}`] : []),
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}
