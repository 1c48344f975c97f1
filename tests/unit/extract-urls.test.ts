import { describe, expect, it } from 'vitest';
import { extractUrls, trimUrlEnd } from '../../shared/domain';

interface Case {
  name: string;
  text: string;
  urls: string[];
}

const NEWSLETTER = `Hi friends,

This week in product: three reads and a tool.

1. How Linear builds software (https://linear.app/blog/how-we-build?utm_source=newsletter&utm_medium=email)
2. "The Mom Test" summary: www.momtestbook.com
3. A long thread on pricing -> https://x.com/patio11/status/1234567890123456789.
   Read it slowly!

Tool of the week: excalidraw.com/ (free, open source).

Unsubscribe: <https://news.example.org/unsubscribe?u=ab12&id=99>
Forward to a friend: mailto:friend@example.com
Our address: 1 Infinite Loop, Cupertino. Reply to hello@example.com.
-- 
Sent with v2.4.1 of report.pdf generator; see docs/README.md for details.`;

const CHAT_EXPORT = `[12/03/2024, 09:15:22] Ada: look at this https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s
[12/03/2024, 09:16:01] Grace: lol. also medium.com/@grace/why-cobol-still-matters-3f2a1b
[12/03/2024, 09:16:40] Ada: (same one again: https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s)
[12/03/2024, 09:17:05] Grace: ok!! https://github.com/tesseract-ocr/tesseract/issues/1234,
[12/03/2024, 09:18:00] Ada: <attached: 00000012-PHOTO-2024-03-12.jpg>`;

const TWEETS = `Elon Musk @elonmusk · 3h
Replying to @nytimes @WSJ
The future is here 🚀 https://t.co/AbC123xYz
12.4K 3,201

Ada Lovelace @ada_lovelace · Mar 12
New post on analytical engines! Read it at blog.example.com/engines/analytical and
tell @charles_babbage what you think. pic.twitter.com/Zz9Yy8Xx7
#history #computing`;

const MARKDOWN = `# Reading list

- [The Pragmatic Programmer](https://pragprog.com/titles/tpp20/the-pragmatic-programmer-20th-anniversary-edition/)
- [Python (language)](https://en.wikipedia.org/wiki/Python_(programming_language)).
- **https://go.dev/blog/**
- See [docs](<https://docs.example.com/a b>) and \`https://code.example.com/not-a-link\` (code spans count too).
- ![diagram](https://images.example.com/diagram.png "A diagram")`;

const HTML = `<p>Read <a href="https://example.com/articles/1?a=1&amp;b=2">this article</a> and
<a href='https://example.com/articles/2'>that one</a>.</p>
<a href="javascript:alert(1)">evil</a>
<a href="data:text/html;base64,PHNjcmlwdD4=">data</a>
<a href="ftp://ftp.example.com/pub/file.tar.gz">ftp</a>
<img src="https://cdn.example.com/pixel.gif">`;

const OCR = `Weekly links
https: //www.theverge.com/2024/3/12/ai-news
Read: example. com/post/1 and www. wired.com
https://stratechery.com/2024/the-ai-
unbundling/
https://longreads.example.org/articles
/2024/03/why-we-read
http://www.bbc.co.uk/news
Thanks for reading!`;

const cases: Case[] = [
  {
    name: 'a newsletter: query strings kept, trailing punctuation, angle brackets, no e-mails, file names or versions',
    text: NEWSLETTER,
    urls: [
      'https://linear.app/blog/how-we-build?utm_source=newsletter&utm_medium=email',
      'https://www.momtestbook.com/',
      'https://x.com/patio11/status/1234567890123456789',
      'https://excalidraw.com/',
      'https://news.example.org/unsubscribe?u=ab12&id=99',
    ],
  },
  {
    name: 'a chat export: duplicates once, @ in paths kept, timestamps and attachments ignored',
    text: CHAT_EXPORT,
    urls: [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
      'https://medium.com/@grace/why-cobol-still-matters-3f2a1b',
      'https://github.com/tesseract-ocr/tesseract/issues/1234',
    ],
  },
  {
    name: 'tweets: t.co links and bare domains with a path, never @handles or hashtags',
    text: TWEETS,
    urls: [
      'https://t.co/AbC123xYz',
      'https://blog.example.com/engines/analytical',
      'https://pic.twitter.com/Zz9Yy8Xx7',
    ],
  },
  {
    name: 'markdown: link targets, balanced parentheses (Wikipedia), bold, angle-bracketed targets, code spans',
    text: MARKDOWN,
    urls: [
      'https://pragprog.com/titles/tpp20/the-pragmatic-programmer-20th-anniversary-edition/',
      'https://en.wikipedia.org/wiki/Python_(programming_language)',
      'https://go.dev/blog/',
      'https://docs.example.com/a',
      'https://code.example.com/not-a-link',
      'https://images.example.com/diagram.png',
    ],
  },
  {
    name: 'HTML: href values with entities decoded; javascript:, data: and ftp: refused',
    text: HTML,
    urls: [
      'https://example.com/articles/1?a=1&b=2',
      'https://example.com/articles/2',
      'https://cdn.example.com/pixel.gif',
    ],
  },
  {
    name: 'OCR output: spaces after scheme and dots, URLs broken across lines',
    text: OCR,
    urls: [
      'https://www.theverge.com/2024/3/12/ai-news',
      'https://example.com/post/1',
      'https://www.wired.com/',
      'https://stratechery.com/2024/the-ai-unbundling/',
      'https://longreads.example.org/articles/2024/03/why-we-read',
      'http://www.bbc.co.uk/news',
    ],
  },
  {
    name: 'OCR output: a misread scheme or a lost slash',
    text: 'Top: hitps://news.ycombinator.com/item?id=1 and https:/www.smashingmagazine.com/2024/grids and htps://a.example.org/x, HTTP:/example.com/y',
    urls: [
      'https://news.ycombinator.com/item?id=1',
      'https://www.smashingmagazine.com/2024/grids',
      'https://a.example.org/x',
      'http://example.com/y',
    ],
  },
  {
    name: 'other schemes are never URLs',
    text: 'javascript:alert(document.cookie) mailto:ada@example.com ftp://files.example.com/a/b data:text/plain,hi file:///etc/passwd chrome://settings/',
    urls: [],
  },
  {
    name: 'e-mail addresses, file names, version numbers and bare hosts without a path are not URLs',
    text: 'Mail ada@example.com about report.pdf, v1.2, 3.14/2, node.js/react, index.html and example.com.',
    urls: [],
  },
  {
    name: 'uppercase schemes and hosts are normalised, fragments kept, default trailing slash added',
    text: 'HTTPS://EXAMPLE.COM and HTTP://Example.com/Path#Section',
    urls: ['https://example.com/', 'http://example.com/Path#Section'],
  },
  {
    name: 'the same page twice in different spellings is one URL',
    text: 'https://example.com/a, example.com/a and https://EXAMPLE.com/a.',
    urls: ['https://example.com/a'],
  },
  {
    name: 'loopback URLs with ports (test sites) and bare hosts with a port and path',
    text: 'http://127.0.0.1:4321/articles/1 and localhost:3000/x? no; example.com:8080/status',
    urls: ['http://127.0.0.1:4321/articles/1', 'https://example.com:8080/status'],
  },
  {
    name: 'unbalanced closing brackets and quotes are trimmed, balanced ones kept',
    text: `("https://example.com/a") [https://example.com/b] {https://example.com/c} 'https://example.com/d(x)'`,
    urls: [
      'https://example.com/a',
      'https://example.com/b',
      'https://example.com/c',
      'https://example.com/d(x)',
    ],
  },
  {
    name: 'JSON exports with escaped slashes (Slack) and a label after a pipe',
    text: '{"text":"<https:\\/\\/example.com\\/slack-link|example.com/slack-link> nice"}',
    urls: ['https://example.com/slack-link'],
  },
  {
    name: 'a line after a URL ending in a slash is prose, not a path, unless it looks like one',
    text: 'Read https://example.com/blog/\nThanks for reading\nhttps://example.com/docs/\nguide-2024 is out',
    urls: ['https://example.com/blog/', 'https://example.com/docs/guide-2024'],
  },
  {
    name: 'a URL at the end of a line is not glued to a URL or a word on the next one',
    text: 'https://example.com/one-\nhttps://example.com/two\nhttps://example.com/three\nfour',
    urls: ['https://example.com/one-', 'https://example.com/two', 'https://example.com/three'],
  },
  {
    name: 'a sentence break is not an OCR slip',
    text: 'I went home. Com/pare that. We were at it. no/yes',
    urls: [],
  },
  {
    name: 'internationalised paths and hosts',
    text: 'https://fr.wikipedia.org/wiki/Élysée and münchen.de/stadt',
    urls: ['https://fr.wikipedia.org/wiki/%C3%89lys%C3%A9e', 'https://xn--mnchen-3ya.de/stadt'],
  },
  {
    name: 'truncated display URLs lose their ellipsis',
    text: 'nytimes.com/2024/03/12/tech/ai-regulat… and https://example.com/long...',
    urls: ['https://nytimes.com/2024/03/12/tech/ai-regulat', 'https://example.com/long'],
  },
  { name: 'no text', text: '', urls: [] },
  { name: 'no URL in the text', text: 'Just some words. Nothing to see here: 42, 3.5%, @someone #tag', urls: [] },
];

describe('extractUrls', () => {
  it.each(cases)('$name', ({ text, urls }) => {
    expect(extractUrls(text)).toEqual(urls);
  });

  it('handles a large paste (catastrophic backtracking would time the test out)', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `item ${i}: https://example.com/post/${i}, see example.org/p/${i}.`).join('\n');
    expect(extractUrls(text)).toHaveLength(10_000);
  });

  it('ignores candidates longer than a URL may be', () => {
    expect(extractUrls(`https://example.com/${'a'.repeat(3000)}`)).toEqual([]);
  });
});

/** OCR slips that extractUrls repairs, each with look-alikes it must leave alone. */
const OCR_REPAIRS: Case[] = [
  {
    name: "'.htmi' (a misread 'l') at the end of a path is '.html'",
    text: 'paulgraham.com/greatwork.htmi and https://a.example.com/x/index.htmI?page=2 or b.example.com/c.htm1.',
    urls: ['https://paulgraham.com/greatwork.html', 'https://a.example.com/x/index.html?page=2', 'https://b.example.com/c.html'],
  },
  {
    name: "'.htm' in brackets, '.htmix' and '.htmi' inside a path are left alone",
    text: '[https://a.example.com/page.htm] https://a.example.com/page.htmix https://a.example.com/x.htmi/y',
    urls: ['https://a.example.com/page.htm', 'https://a.example.com/page.htmix', 'https://a.example.com/x.htmi/y'],
  },
  {
    name: "'https:/iwww.' ('//' misread as '/i', '/l' or '/|') is 'https://www.'",
    text: 'https:/iwww.youtube.com/watch?v=abc http:/lwww.example.org/a hitps:/|www.example.net/b',
    urls: ['https://www.youtube.com/watch?v=abc', 'http://www.example.org/a', 'https://www.example.net/b'],
  },
  {
    name: "'https:/iww.' is not taken for www (iww.org is a host)",
    text: 'https:/iww.org/join',
    urls: ['https://iww.org/join'],
  },
  {
    name: 'a URL ending in a hyphen goes on across one blank line (a wrapped URL set apart by OCR)',
    text: 'look at this https://www.theverge.com/2024/3/12/24098765/ai-browser-arc-\n\nsearch\nGrace - 10:17',
    urls: ['https://www.theverge.com/2024/3/12/24098765/ai-browser-arc-search'],
  },
  {
    name: 'without a hyphen, or across two blank lines, or before a URL, a blank line ends the URL',
    text: 'https://example.com/one\n\nsearch https://example.com/two-\n\n\nfar https://example.com/three-\n\nhttps://example.com/four',
    urls: ['https://example.com/one', 'https://example.com/two-', 'https://example.com/three-', 'https://example.com/four'],
  },
];

describe('extractUrls repairs OCR slips', () => {
  it.each(OCR_REPAIRS)('$name', ({ text, urls }) => {
    expect(extractUrls(text)).toEqual(urls);
  });
});

describe('trimUrlEnd', () => {
  it.each([
    ['https://a.com/x.', 'https://a.com/x'],
    ['https://a.com/x).', 'https://a.com/x'],
    ['https://a.com/x_(y)', 'https://a.com/x_(y)'],
    ['https://a.com/x_(y))', 'https://a.com/x_(y)'],
    ['https://a.com/?q=[1]]', 'https://a.com/?q=[1]'],
    ['https://a.com/x!?"\'', 'https://a.com/x'],
    ['https://a.com/x**', 'https://a.com/x'],
  ])('%s → %s', (input, output) => {
    expect(trimUrlEnd(input)).toBe(output);
  });
});
