import { describe, expect, it } from 'vitest';
import {
  PREVIEW_DESCRIPTION_MAX,
  PREVIEW_TITLE_MAX,
  type PageMetadata,
  absoluteUrl,
  charsetOf,
  decodeDocument,
  extractMetadata,
  fallbackPreview,
  isHtml,
  previewOf,
} from '../../server/preview/metadata';
import { readOEmbed } from '../../server/preview/oembed';
import { LINK_MESSAGES, NO_LINK_FACTS, cap } from '../../shared/domain';

const page = new URL('https://news.example/articles/one?x=1');
const extract = (head: string, body = '') => extractMetadata(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`, page);

describe('preview metadata', () => {
  it('prefers og:* over twitter:* over <title> and meta description', () => {
    const all = `
      <title>Plain title</title>
      <meta name="description" content="Plain description">
      <meta name="twitter:title" content="Twitter title">
      <meta name="twitter:description" content="Twitter description">
      <meta name="twitter:image" content="https://cdn.example/tw.png">
      <meta property="og:title" content="OG title">
      <meta property="og:description" content="OG description">
      <meta property="og:image" content="https://cdn.example/og.png">`;
    expect(extract(all)).toMatchObject({
      title: 'OG title',
      description: 'OG description',
      image: 'https://cdn.example/og.png',
    });
    const noOg = all.replace(/<meta property="og:[^>]+>/g, '');
    expect(extract(noOg)).toMatchObject({
      title: 'Twitter title',
      description: 'Twitter description',
      image: 'https://cdn.example/tw.png',
    });
    const plain = noOg.replace(/<meta name="twitter:[^>]+>/g, '');
    expect(extract(plain)).toMatchObject({ title: 'Plain title', description: 'Plain description', image: null });
    expect(extract('')).toMatchObject({ title: null, description: null, image: null });
  });

  it('skips empty values and falls through to the next source', () => {
    const meta = extract(`
      <meta property="og:title" content="   ">
      <meta name="twitter:title" content="">
      <title>  Real
        title </title>
      <meta property="og:image" content="javascript:alert(1)">
      <meta property="og:image" content="data:image/png;base64,AAAA">
      <meta name="twitter:image:src" content="//cdn.example/ok.jpg">`);
    expect(meta).toMatchObject({ title: 'Real title', description: null, image: 'https://cdn.example/ok.jpg' });
  });

  it('accepts name= and property= alike, any case, and the first of repeated tags', () => {
    const meta = extract(`
      <META NAME="og:title" CONTENT="Named og">
      <meta property="og:title" content="Second">
      <meta property="OG:Description" content="Upper case">`);
    expect(meta).toMatchObject({ title: 'Named og', description: 'Upper case' });
  });

  it('resolves relative image URLs against the page URL and keeps only http(s)', () => {
    expect(extract('<meta property="og:image" content="/img/a.png">').image).toBe('https://news.example/img/a.png');
    expect(extract('<meta property="og:image" content="b.png">').image).toBe('https://news.example/articles/b.png');
    expect(extract('<meta property="og:image" content="../c.png?s=1&amp;t=2">').image).toBe(
      'https://news.example/c.png?s=1&t=2',
    );
    expect(absoluteUrl('ftp://files.example/a.png', page)).toBeNull();
    expect(absoluteUrl('file:///etc/passwd', page)).toBeNull();
    expect(absoluteUrl('http://[bad', page)).toBeNull();
    expect(absoluteUrl(`https://cdn.example/${'a'.repeat(3000)}.png`, page)).toBeNull();
  });

  it('reads the image from JSON-LD, image_src, itemprop, then the first large picture, in that order', () => {
    const ld = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
    const sources = [
      ld({ '@context': 'https://schema.org', '@graph': [{ '@type': 'WebSite' }, { image: { url: '/ld.png' } }] }),
      '<link rel="image_src" href="/image-src.png">',
      '<meta itemprop="image" content="/itemprop.png">',
    ];
    const picture = '<article><img src="/big.png" width="800"></article>';
    expect(extract(sources.join(''), picture).image).toBe('https://news.example/ld.png');
    expect(extract(sources.slice(1).join(''), picture).image).toBe('https://news.example/image-src.png');
    expect(extract(sources.slice(2).join(''), picture).image).toBe('https://news.example/itemprop.png');
    expect(extract('', picture).image).toBe('https://news.example/big.png');
    expect(extract(`<meta name="twitter:image:src" content="/tw.png">${sources.join('')}`).image).toBe(
      'https://news.example/tw.png',
    );
    expect(extract(ld([{ thumbnailUrl: ['/thumb.png'] }])).image).toBe('https://news.example/thumb.png');
    expect(extract(ld({ image: ['https://cdn.example/a.png', 'https://cdn.example/b.png'] })).image).toBe(
      'https://cdn.example/a.png',
    );
    expect(extract('', '<img itemprop="image" src="/item.png" width="10">').image).toBe('https://news.example/item.png');
  });

  it('skips broken JSON-LD, icons, SVG and data: pictures, and prefers pictures in <article> or <main>', () => {
    expect(extract('<script type="application/ld+json">{ not json</script>').image).toBeNull();
    const body = `<header><img src="/logo.png" width="120" height="40"><img src="/mark.svg"></header>
      <img src="data:image/gif;base64,R0lGOD"><aside><img src="/side.jpg"></aside>
      <main><img src="/icon.png" height="32"><video poster="/poster.jpg"></video></main>`;
    expect(extract('', body).image).toBe('https://news.example/poster.jpg');
    expect(extract('', body.replace(/<main>[\s\S]*<\/main>/, '')).image).toBe('https://news.example/side.jpg');
  });

  it('falls back to the JSON-LD headline and description, then <h1> and the first paragraph of the article', () => {
    const ld = '<script type="application/ld+json">{"headline": "LD headline", "description": "LD description"}</script>';
    const body = '<h1>Heading</h1><p>Outside</p><article><p>First <a href="#">paragraph</a>.</p><p>Second</p></article>';
    expect(extract(ld, body)).toMatchObject({ title: 'LD headline', description: 'LD description' });
    expect(extract('<title></title>', body)).toMatchObject({ title: 'Heading', description: 'First paragraph.' });
    expect(extract('', '<p>Not in an article</p>').description).toBeNull();
  });

  it('decodes HTML entities in attributes and in <title>', () => {
    expect(
      extract(`<meta property="og:title" content="Tom &amp; Jerry&#39;s &quot;Big&quot; Day &eacute;&#x1F600;">`).title,
    ).toBe('Tom & Jerry\'s "Big" Day é😀');
    expect(extract('<title>Caf&eacute; &lt;3 &amp;&nbsp;more</title>').title).toBe('Café <3 & more');
  });

  it('ignores <title> inside inline SVG and reads a title cut off by the size limit', () => {
    expect(extractMetadata('<body><svg><title>Icon</title></svg><title>Doc</title>', page).title).toBe('Doc');
    expect(extractMetadata('<html><head><title>Half a tit', page).title).toBe('Half a tit');
  });

  it('collapses whitespace and control characters and caps lengths', () => {
    const meta = extract(
      `<meta property="og:title" content="${'T'.repeat(400)}"><meta property="og:description" content="a\tb\n\u0001c ${'d'.repeat(2000)}">`,
    );
    expect(meta.title).toHaveLength(PREVIEW_TITLE_MAX);
    expect(meta.title?.endsWith('…')).toBe(true);
    expect(meta.description).toHaveLength(PREVIEW_DESCRIPTION_MAX);
    expect(meta.description?.startsWith('a b c d')).toBe(true);
    expect(PREVIEW_TITLE_MAX).toBe(300);
    expect(PREVIEW_DESCRIPTION_MAX).toBe(1000);
  });

  it('never splits a surrogate pair when capping', () => {
    const text = `${'a'.repeat(8)}😀😀`;
    expect(cap(text, 10)).toBe(`${'a'.repeat(8)}…`);
    expect(cap(text, 12)).toBe(text);
  });

  it('finds the charset in the BOM, the Content-Type, then <meta>, else UTF-8', () => {
    const ascii = Buffer.from('<html>');
    expect(charsetOf('text/html; charset=ISO-8859-1', ascii)).toBe('windows-1252');
    expect(charsetOf('text/html; charset="shift_jis"', ascii)).toBe('shift_jis');
    expect(charsetOf('text/html; charset=no-such-charset', ascii)).toBe('utf-8');
    expect(charsetOf('text/html', Buffer.from('<meta charset="windows-1251">'))).toBe('windows-1251');
    expect(charsetOf('text/html', Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">'))).toBe(
      'koi8-r',
    );
    expect(charsetOf('text/html', Buffer.from('<meta charset="utf-16">'))).toBe('utf-8');
    expect(charsetOf('text/html; charset=latin1', Buffer.from([0xef, 0xbb, 0xbf, 0x3c]))).toBe('utf-8');
    expect(charsetOf('text/html', Buffer.from([0xff, 0xfe, 0x3c, 0x00]))).toBe('utf-16le');
    expect(charsetOf('', ascii)).toBe('utf-8');
  });

  it('decodes legacy encodings', () => {
    expect(decodeDocument(Buffer.from('<title>Caf\xe9</title>', 'latin1'), 'text/html; charset=windows-1252')).toBe(
      '<title>Café</title>',
    );
    expect(decodeDocument(Buffer.from([0x93, 0x80, 0x20, 0x97, 0x92, 0x8d, 0x94]), 'text/html; charset=iso-8859-1')).toBe(
      '“€ —’\u008d”',
    );
    const sjis = Buffer.from([0x3c, 0x62, 0x3e, 0x93, 0xfa, 0x96, 0x7b, 0x3c, 0x2f, 0x62, 0x3e]); // <b>日本</b>
    expect(decodeDocument(sjis, 'text/html; charset=Shift_JIS')).toBe('<b>日本</b>');
    expect(decodeDocument(Buffer.from('<b>ü</b>'), 'text/html')).toBe('<b>ü</b>');
  });

  it('parses only HTML media types', () => {
    expect(['text/html', 'application/xhtml+xml', ''].every(isHtml)).toBe(true);
    expect(['application/pdf', 'image/png', 'text/plain', 'application/json'].some(isHtml)).toBe(false);
  });

  it('builds previews: fallback when the page says nothing, hostname and the SPEC text for gaps', () => {
    const url = 'https://news.example/a';
    const none = { ...NO_LINK_FACTS, format: null };
    expect(fallbackPreview(url)).toEqual({
      url,
      title: 'news.example',
      description: LINK_MESSAGES.noPreview,
      thumbnailUrl: null,
      ...none,
    });
    const metaOf = (fields: Pick<PageMetadata, 'title' | 'description' | 'image'>): PageMetadata => ({
      ...fields,
      facts: NO_LINK_FACTS,
      oembedUrl: null,
      ogType: null,
    });
    expect(previewOf(url, metaOf({ title: null, description: null, image: null }))).toBeNull();
    expect(previewOf(url, metaOf({ title: 'T', description: null, image: null }))).toEqual({
      url,
      title: 'T',
      description: 'No preview available',
      thumbnailUrl: null,
      ...none,
    });
    expect(previewOf(url, metaOf({ title: null, description: 'D', image: 'https://i.example/x.png' }))).toEqual({
      url,
      title: 'news.example',
      description: 'D',
      thumbnailUrl: 'https://i.example/x.png',
      ...none,
    });
  });

  describe('facts beyond the preview', () => {
    const facts = (head: string, body = '', lang = '') =>
      extractMetadata(`<!doctype html><html${lang}><head>${head}</head><body>${body}</body></html>`, page).facts;

    it('reads the site name from og:site_name, application-name, then the JSON-LD publisher or WebSite', () => {
      expect(facts('<meta name="application-name" content="App"><meta property="og:site_name" content="Site">').siteName).toBe('Site');
      expect(facts('<meta name="application-name" content="App">').siteName).toBe('App');
      const ld = (value: object) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
      expect(facts(ld({ '@type': 'NewsArticle', publisher: { '@type': 'Organization', name: 'The Paper', logo: { url: '/logo.png' } } })))
        .toMatchObject({ siteName: 'The Paper', faviconUrl: 'https://news.example/logo.png' });
      // @graph members refer to each other by @id.
      const graph = { '@graph': [{ '@type': 'Article', publisher: { '@id': '#org' } }, { '@id': '#org', '@type': 'Organization', name: 'Graph Org' }] };
      expect(facts(ld(graph)).siteName).toBe('Graph Org');
      expect(facts(ld({ '@type': 'WebSite', name: 'Just a site' })).siteName).toBe('Just a site');
    });

    it('takes a raster icon: the touch icon, else the largest declared one; never .ico, SVG or data:', () => {
      const icons = `<link rel="shortcut icon" href="/favicon.ico"><link rel="icon" type="image/svg+xml" href="/icon.svg">
        <link rel="icon" sizes="16x16" href="/16.png"><link rel="icon" sizes="96x96" href="/96.png"><link rel="icon" href="data:image/png;base64,AA==">`;
      expect(facts(icons).faviconUrl).toBe('https://news.example/96.png');
      expect(facts(`${icons}<link rel="apple-touch-icon" href="//cdn.example/touch.png">`).faviconUrl).toBe('https://cdn.example/touch.png');
      expect(facts('<link rel="icon" href="/favicon.ico">').faviconUrl).toBeNull();
    });

    it('reads the author from meta tags or JSON-LD, never a URL, without a leading "By"', () => {
      expect(facts('<meta name="author" content="By Jane Doe">').author).toBe('Jane Doe');
      expect(facts('<meta property="article:author" content="https://facebook.com/jane">').author).toBeNull();
      const ld = '<script type="application/ld+json">{"@type":"Article","author":[{"@type":"Person","name":"First"},{"name":"Second"}]}</script>';
      expect(facts(ld).author).toBe('First');
    });

    it('reads the publication date as an ISO instant from meta tags, JSON-LD, then itemprop; refuses nonsense and the future', () => {
      expect(facts('<meta property="article:published_time" content="2023-01-02T03:04:05-05:00">').publishedAt).toBe('2023-01-02T08:04:05.000Z');
      expect(facts('<script type="application/ld+json">{"datePublished":"2021-06-01"}</script>').publishedAt).toBe('2021-06-01T00:00:00.000Z');
      expect(facts('', '<time itemprop="datePublished" datetime="2020-02-29T12:00:00Z">Feb 29</time>').publishedAt).toBe('2020-02-29T12:00:00.000Z');
      expect(facts('<meta name="date" content="soon">').publishedAt).toBeNull();
      expect(facts('<meta name="date" content="1700000000">').publishedAt).toBeNull();
      expect(facts('<meta name="date" content="1970-01-01">').publishedAt).toBeNull();
      expect(facts('<meta name="date" content="2999-01-01">').publishedAt).toBeNull();
    });

    it('reads the language from <html lang>, content-language, og:locale or JSON-LD, in canonical form', () => {
      expect(facts('', '', ' lang="EN-gb"').lang).toBe('en-GB');
      expect(facts('<meta property="og:locale" content="pt_BR">').lang).toBe('pt-BR');
      expect(facts('<meta http-equiv="content-language" content="de, en">').lang).toBe('de');
      expect(facts('<script type="application/ld+json">{"inLanguage":"ja"}</script>').lang).toBe('ja');
      expect(facts('', '', ' lang="not a tag!"').lang).toBeNull();
      expect(facts('', '', ' lang="und"').lang).toBeNull();
    });

    it('finds the oEmbed endpoint and og:type', () => {
      const meta = extractMetadata(
        '<html><head><meta property="og:type" content="Video.Other"><link rel="alternate" type="application/json+oembed" href="/oembed?u=1"></head></html>',
        page,
      );
      expect([meta.oembedUrl, meta.ogType]).toEqual(['https://news.example/oembed?u=1', 'video.other']);
      expect(previewOf(page.href, { ...meta, title: 'T' })?.format).toBe('video');
    });
  });

  it('completes a preview from oEmbed where the page is silent, and takes its format', () => {
    const url = 'https://video.example/watch?v=1';
    const silent = extractMetadata('<html><head><title>Page</title></head></html>', new URL(url));
    const oembed = readOEmbed({ type: 'video', title: 'Player', thumbnail_url: 'https://i.example/t.jpg', provider_name: 'Tube', author_name: 'Chan' });
    expect(previewOf(url, silent, oembed)).toMatchObject({ title: 'Page', thumbnailUrl: 'https://i.example/t.jpg', siteName: 'Tube', author: 'Chan', format: 'video' });
    expect(readOEmbed({ type: 'rich', provider_name: 'Buzzsprout', html: '<iframe>' })?.format).toBe('podcast');
    expect(readOEmbed({ type: 'rich', provider_name: 'A blog', html: '<blockquote>' })?.format).toBeNull();
    expect(readOEmbed({ type: 'rich', provider_name: 'Self-hosted', html: '<audio src="x.mp3"></audio>' })?.format).toBe('podcast');
    expect(readOEmbed(['not', 'an', 'object'])).toBeNull();
    expect(readOEmbed({ title: 'no type' })).toBeNull();
  });
});
