import { readFileSync } from 'node:fs';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { READABLE_COPY_MAX_BYTES, copyOfArticle, extractReadable } from '../../server/readable/extract';
import { sanitiseArticle } from '../../server/readable/sanitise';

/**
 * The readable copy's sanitiser (issue 23) against known XSS payloads (tests/fixtures/xss-payloads.txt):
 * what survives is only the allowed elements and attributes, every URL http(s) (images through our
 * proxy), and no text that a browser would run.
 */

const PAYLOADS = readFileSync(new URL('../fixtures/xss-payloads.txt', import.meta.url), 'utf8').split('\n').filter(Boolean);
const BASE = new URL('https://news.example/2026/article');
const ALLOWED: Record<string, string[]> = {
  a: ['href', 'rel', 'title'],
  img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan', 'scope'],
  ol: ['start', 'reversed'],
  abbr: ['title'],
  time: ['datetime'],
};
const TAGS = new Set(
  'p br hr h1 h2 h3 h4 h5 h6 ul ol li dl dt dd blockquote q cite pre code kbd samp em strong b i u s del ins mark small sub sup abbr time table caption thead tbody tfoot tr th td figure figcaption a img'.split(' '),
);

function expectSafe(html: string): void {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  for (const el of document.body.querySelectorAll('*')) {
    const tag = el.tagName.toLowerCase();
    expect(TAGS.has(tag), `<${tag}> in ${html}`).toBe(true);
    for (const { name, value } of el.attributes) {
      expect([...(ALLOWED[tag] ?? []), 'lang', 'dir'], `${tag}[${name}] in ${html}`).toContain(name);
      if (name === 'href') expect(value).toMatch(/^https?:\/\//);
      if (name === 'src') expect(value).toMatch(/^\/api\/images\/proxy\?url=https?%3A%2F%2F/);
    }
  }
  expect(html).not.toMatch(/<script|javascript:|vbscript:|data:text|on[a-z]+=/i);
}

describe('readable copy sanitiser', () => {
  it.each(PAYLOADS)('neutralises %s', (payload) => {
    expectSafe(sanitiseArticle(`<p>Before</p>${payload}<p>After</p>`, BASE));
  });

  it('keeps text, structure, http(s) links made absolute and images through our proxy', () => {
    const html = sanitiseArticle(
      '<h2 class="x">Title</h2><p>One <a href="/two">two</a> <img src="pic.png" width="640" height="bogus" alt="A pic"></p><table><tr><td colspan="2">cell</td></tr></table><pre><code>let x = 1;</code></pre>',
      BASE,
    );
    expect(html).toBe(
      '<h2>Title</h2><p>One <a href="https://news.example/two" rel="noopener noreferrer nofollow">two</a> <img src="/api/images/proxy?url=https%3A%2F%2Fnews.example%2F2026%2Fpic.png" alt="A pic" loading="lazy" width="640" /></p><table><tr><td colspan="2">cell</td></tr></table><pre><code>let x = 1;</code></pre>',
    );
  });

  it('reads the text a line per block, counts its words and cuts a copy over 2 MB at a tag, closing what was open', () => {
    const copy = copyOfArticle('<h2>Deep life</h2><p>Green sulfur bacteria</p><ul><li>one</li><li>two-fold</li></ul>', BASE, 'en_gb');
    expect(copy).toEqual({
      html: '<h2>Deep life</h2><p>Green sulfur bacteria</p><ul><li>one</li><li>two-fold</li></ul>',
      text: 'Deep life\nGreen sulfur bacteria\none\ntwo-fold',
      wordCount: 7,
      lang: 'en-GB',
    });
    const big = copyOfArticle(`<div>${'<p>words words words</p>'.repeat(120_000)}</div>`, BASE, null);
    expect(Buffer.byteLength(big?.html ?? '')).toBeLessThanOrEqual(READABLE_COPY_MAX_BYTES);
    expect(big?.html.endsWith('</p>')).toBe(true);
    expect(copyOfArticle('<script>only()</script><p>  </p>', BASE, null)).toBeNull();
  });

  it("extracts a page's article and leaves its navigation and footer", () => {
    const page = `<html lang="de"><body><nav>Menu Home</nav><main><article><h1>Titel</h1>${'<p>Ein langer Absatz über Tiefseebakterien und ihr Licht, der genug Text hat. </p>'.repeat(8)}</article></main><footer>Impressum</footer></body></html>`;
    const copy = extractReadable(page, BASE);
    expect(copy?.lang).toBe('de');
    expect(copy?.text).toContain('Tiefseebakterien');
    expect(copy?.text).not.toMatch(/Menu Home|Impressum/);
    expect(extractReadable('<html><body></body></html>', BASE)).toBeNull();
  });
});
