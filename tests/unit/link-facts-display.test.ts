import { parseHTML } from 'linkedom';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { imageProxyUrl } from '../../shared/domain';
import { Publisher, publisherText } from '../../web/entities/links/Publisher';
import { utcLongDate } from '../../web/lib/dates';
import { languageName } from '../../web/lib/languages';

const ICON = 'https://cdn.example/touch icon.png';

/** Publisher as the server renders it, inside the flex line the card gives it. */
function render(facts: Parameters<typeof Publisher>[0]['facts']) {
  const html = renderToStaticMarkup(createElement('p', null, createElement(Publisher, { facts })));
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const img = document.querySelector('img');
  return {
    text: document.querySelector('p')?.textContent ?? '',
    img: img ? Object.fromEntries([...img.attributes].map((a) => [a.name.toLowerCase(), a.value])) : null,
  };
}

describe("a link's publisher", () => {
  it('names the site beside its domain, with its icon through our image proxy (decorative, 16 px, lazy)', () => {
    const { text, img } = render({ url: 'https://www.loopback.example/a', siteName: 'The Daily Loopback', faviconUrl: ICON });
    expect(text).toBe('The Daily Loopback · loopback.example');
    expect(img).toMatchObject({ src: imageProxyUrl(ICON), alt: '', width: '16', height: '16', loading: 'lazy', referrerpolicy: 'no-referrer' });
  });

  it('falls back to the domain, and says a name that is the domain once', () => {
    expect(render({ url: 'https://loopback.example/a', siteName: null, faviconUrl: null })).toEqual({ text: 'loopback.example', img: null });
    expect(render({ url: 'https://www.example.com/', siteName: 'Example.com', faviconUrl: null }).text).toBe('example.com');
    expect(publisherText({ url: 'https://example.com/', siteName: '  ', faviconUrl: null })).toEqual({ name: null, host: 'example.com' });
  });

  it('is nothing without an http(s) URL, and hot-links no icon', () => {
    expect(publisherText({ url: null, siteName: 'Somewhere', faviconUrl: null })).toBeNull();
    expect(render({ url: 'https://a.example/', siteName: null, faviconUrl: 'javascript:alert(1)' }).img).toBeNull();
  });
});

describe("a page's date and language", () => {
  it('shows the day of publication on the UTC calendar, whatever the time zone', () => {
    // A page dated by day alone is stored as midnight UTC.
    expect(utcLongDate('2024-03-05T00:00:00.000Z')).toBe('March 5, 2024');
    expect(utcLongDate('2024-03-05T09:20:30.000Z')).toBe('March 5, 2024');
  });

  it('names languages in en-US, null for what Intl does not know', () => {
    expect(languageName('en')).toBe('English');
    expect(languageName('fr-FR')).toBe('French (France)');
    expect(languageName('pt-BR')).toBe('Brazilian Portuguese');
    expect(languageName('qqq')).toBeNull();
    expect(languageName('not a tag')).toBeNull();
  });
});
