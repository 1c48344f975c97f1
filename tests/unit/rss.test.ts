import { describe, expect, it } from 'vitest';
import { linkFeedItem } from '../../server/feeds/links';
import { escapeXml, httpUrlOrNull, renderRss, rfc822 } from '../../server/feeds/rss';
import { childText, childrenNamed, parseXml } from '../support/xml';

const channel = {
  title: 'Tom & Jerry <on> "Supercurate"',
  link: 'https://sc.example/profile/u1',
  selfUrl: 'https://sc.example/users/u1/feed.xml',
  description: "Links shared by Tom & Jerry's",
};

describe('RSS 2.0', () => {
  it('renders a well-formed document with escaped text and an atom:link to itself', () => {
    const xml = renderRss({
      ...channel,
      items: [
        {
          title: '<script>alert("x")</script> & more \u0000\u0007bell',
          link: 'https://example.com/a?x=1&y=2',
          guid: 'https://sc.example/links/1',
          description: 'Fish & chips < 5 ]]> done',
          pubDate: '2025-03-05T14:07:00.000Z',
          categories: ['Article'],
        },
      ],
    });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const rss = parseXml(xml);
    expect(rss.name).toBe('rss');
    expect(rss.attributes).toMatchObject({ version: '2.0', 'xmlns:atom': 'http://www.w3.org/2005/Atom' });
    const ch = childrenNamed(rss, 'channel')[0];
    if (!ch) throw new Error('no channel');
    expect(childText(ch, 'title')).toBe(channel.title);
    expect(childText(ch, 'description')).toBe(channel.description);
    expect(childrenNamed(ch, 'atom:link')[0]?.attributes).toEqual({
      href: channel.selfUrl,
      rel: 'self',
      type: 'application/rss+xml',
    });
    const [item] = childrenNamed(ch, 'item');
    if (!item) throw new Error('no item');
    // Characters XML forbids are dropped, the rest survives escaping intact.
    expect(childText(item, 'title')).toBe('<script>alert("x")</script> & more bell');
    expect(childText(item, 'link')).toBe('https://example.com/a?x=1&y=2');
    expect(childText(item, 'description')).toBe('Fish & chips < 5 ]]> done');
    expect(childText(item, 'pubDate')).toBe('Wed, 05 Mar 2025 14:07:00 GMT');
    expect(childText(item, 'category')).toBe('Article');
    expect(childrenNamed(item, 'guid')[0]?.attributes).toEqual({ isPermaLink: 'true' });
    expect(xml).not.toContain('<script>');
  });

  it('leaves out items whose link is not http(s)', () => {
    const xml = renderRss({
      ...channel,
      items: [
        { title: 'js', link: 'javascript:alert(1)', guid: 'https://sc.example/links/1', pubDate: new Date() },
        { title: 'data', link: 'data:text/html,hi', guid: 'https://sc.example/links/2', pubDate: new Date() },
        { title: 'ok', link: 'http://example.com/', guid: 'https://sc.example/links/3', pubDate: new Date() },
      ],
    });
    const items = childrenNamed(childrenNamed(parseXml(xml), 'channel')[0] ?? parseXml('<x/>'), 'item');
    expect(items.map((i) => childText(i, 'title'))).toEqual(['ok']);
  });

  it('is well-formed with no items', () => {
    const ch = childrenNamed(parseXml(renderRss({ ...channel, items: [] })), 'channel')[0];
    expect(ch && childrenNamed(ch, 'item')).toEqual([]);
    expect(ch && childText(ch, 'lastBuildDate')).toMatch(/GMT$/);
  });

  it('points a link item at its URL, or at our link page when it has none; the guid is our page', () => {
    const base = { id: 'abc', title: 't', description: 'd', format: 'video', created_at: '2025-01-01T00:00:00.000Z' };
    expect(linkFeedItem('https://sc.example', { ...base, url: 'https://example.com/v' })).toMatchObject({
      link: 'https://example.com/v',
      guid: 'https://sc.example/links/abc',
      categories: ['Video'],
    });
    expect(linkFeedItem('https://sc.example', { ...base, url: null, format: null })).toMatchObject({
      link: 'https://sc.example/links/abc',
      categories: [],
    });
  });

  it.each([
    ['https://a.example/x?y=1', 'https://a.example/x?y=1'],
    ['http://a.example', 'http://a.example/'],
    ['javascript:alert(1)', null],
    ['/relative', null],
    ['ftp://a.example', null],
    ['', null],
  ])('httpUrlOrNull(%j) is %j', (url, expected) => {
    expect(httpUrlOrNull(url)).toBe(expected);
  });

  it('escapes the five XML specials and drops forbidden characters', () => {
    expect(escapeXml(`<a href="x">'&'</a>\u0001\uFFFE`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
    expect(rfc822('2024-02-29T00:00:00Z')).toBe('Thu, 29 Feb 2024 00:00:00 GMT');
  });
});

describe('the test XML checker refuses what is not well-formed', () => {
  it.each([
    ['<a><b></a></b>'],
    ['<a>&nbsp;</a>'],
    ['<a>fish & chips</a>'],
    ['<a x=1/>'],
    ['<a x="1" x="2"/>'],
    ['<a>1 < 2</a>'],
    ['<a/><b/>'],
    ['<a>\u0001</a>'],
    ['<a>'],
  ])('%j', (xml) => {
    expect(() => parseXml(xml)).toThrow();
  });
});
