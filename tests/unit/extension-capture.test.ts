// linkedom comes with WXT (it parses HTML entrypoints); it is the DOM these tests read pages with.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { CAPTURE_DESCRIPTION_MAX, capturePage, cutHtml } from '../../extension/lib/capture';
import { READABLE_UPLOAD_MAX_CHARS } from '../../shared/domain';
import { type FormatSignals, guessFormat } from '../../extension/lib/format';

const PAGE = 'https://news.example.com/2026/05/story?utm_source=feed#comments';

function page(head: string, body = '', url = PAGE) {
  const { document } = parseHTML(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`);
  return capturePage(document as unknown as Document, { url });
}

const LONG_TEXT = `${'Curation is the act of choosing well among too many things. '.repeat(12)}`;

describe('capturePage: what a page says about itself', () => {
  it('reads og:* first, then resolves the canonical link and the image against the page', () => {
    const capture = page(`
      <title>Story | Example News</title>
      <meta name="description" content="The meta description">
      <meta property="og:title" content="  The   Story ">
      <meta property="og:description" content="The og description">
      <meta property="og:image" content="/images/story.jpg">
      <meta property="og:site_name" content="Example News">
      <meta property="og:type" content="article">
      <link rel="canonical" href="/2026/05/story">`);
    expect(capture).toEqual({
      url: PAGE,
      canonicalUrl: 'https://news.example.com/2026/05/story',
      title: 'The Story',
      description: 'The og description',
      image: 'https://news.example.com/images/story.jpg',
      siteName: 'Example News',
      format: 'article',
      contentType: 'text/html',
      empty: false,
      readable: null,
    });
  });

  it('falls back to twitter:*, then <title> without the site name and the meta description', () => {
    expect(
      page(`<meta name="twitter:title" content="Tweet title"><meta name="twitter:description" content="Tweet text">
            <meta name="twitter:image" content="https://cdn.example.com/t.png">`),
    ).toMatchObject({ title: 'Tweet title', description: 'Tweet text', image: 'https://cdn.example.com/t.png' });
    expect(
      page(`<title>Plain title — Example</title><meta name="application-name" content="Example">
            <meta name="description" content="Meta text">`),
    ).toMatchObject({ title: 'Plain title', description: 'Meta text', siteName: 'Example', canonicalUrl: null });
  });

  it('reads JSON-LD (@graph, arrays, ImageObject) when the tags are missing, and guesses the format from @type', () => {
    const capture = page(`
      <script type="application/ld+json">{ not json</script>
      <script type="application/ld+json">
        {"@context":"https://schema.org","@graph":[
          {"@type":"WebSite","name":"Example"},
          {"@type":"Organization","name":"Example Inc"},
          {"@type":["VideoObject"],"name":"A talk on curation","description":"Forty minutes on taste",
           "thumbnailUrl":"x","image":[{"@type":"ImageObject","url":"https://img.example.com/talk.jpg"}]}
        ]}
      </script>`);
    expect(capture).toMatchObject({
      title: 'A talk on curation',
      description: 'Forty minutes on taste',
      image: 'https://img.example.com/talk.jpg',
      format: 'video',
    });
    expect(
      page(`<script type="application/ld+json">{"@type":"NewsArticle","headline":"Headline","description":"D",
            "image":"https://img.example.com/h.jpg"}</script>`),
    ).toMatchObject({ title: 'Headline', image: 'https://img.example.com/h.jpg', format: 'article' });
  });

  it('makes an excerpt with Readability when there is no description', () => {
    const capture = page('<title>An essay</title>', `<nav>Home About</nav><article><h1>An essay</h1><p>${LONG_TEXT}</p></article>`);
    expect(capture.description.startsWith('Curation is the act of choosing well')).toBe(true);
    expect(capture.description.length).toBeLessThanOrEqual(CAPTURE_DESCRIPTION_MAX);
    // Without it (the option), the description stays empty.
    const { document } = parseHTML(`<html><head><title>T</title></head><body><p>${LONG_TEXT}</p></body></html>`);
    expect(capturePage(document as unknown as Document, { url: PAGE, excerpt: false }).description).toBe('');
  });

  it('cuts long descriptions at a word with an ellipsis', () => {
    const capture = page(`<meta property="og:description" content="${'word '.repeat(400)}">`);
    expect(capture.description.length).toBeLessThanOrEqual(CAPTURE_DESCRIPTION_MAX);
    expect(capture.description.endsWith('word…')).toBe(true);
  });

  it('picks the largest sensible image: at least 200 px, not a logo, icon, sprite, banner strip or page chrome', () => {
    const capture = page(
      '<title>Gallery</title>',
      `<header><img src="/masthead.jpg" width="1200" height="800"></header>
       <img src="/logo.png" width="600" height="600">
       <img src="/sprite-sheet.png" width="900" height="900">
       <img src="/icon.png" class="x" width="512" height="512">
       <img src="/strip.jpg" width="1600" height="200">
       <img src="/small.jpg" width="150" height="150">
       <img src="data:image/gif;base64,R0lGOD" data-src="/lazy.jpg" width="640" height="480">
       <img src="/photo.jpg" width="500" height="400">`,
    );
    expect(capture.image).toBe('https://news.example.com/lazy.jpg');
    expect(page('<title>x</title>', '<img src="/a.jpg" width="199" height="900">').image).toBeNull();
  });

  it('ignores og:image values that are not http(s) and resolves against <base href>', () => {
    expect(
      page(`<base href="https://static.example.org/assets/"><meta property="og:image" content="javascript:alert(1)">
            <meta name="twitter:image" content="cover.png">`).image,
    ).toBe('https://static.example.org/assets/cover.png');
  });

  it('reads a single-page app after it navigated: stale tags of the first route give way to the live title and text', () => {
    const capture = page(
      `<title>Second route</title>
       <meta property="og:title" content="Home of the app">
       <meta property="og:description" content="The app's home page">
       <meta property="og:url" content="https://app.example.com/">
       <meta property="og:image" content="https://app.example.com/home.png">`,
      `<main><h1>Second route</h1><p>${LONG_TEXT}</p></main>`,
      'https://app.example.com/items/42',
    );
    expect(capture).toMatchObject({ title: 'Second route', canonicalUrl: null, image: null });
    expect(capture.description.startsWith('Curation is the act')).toBe(true);
  });

  it('keeps a canonical URL that differs only by tracking parameters or that the title agrees with', () => {
    expect(
      page(`<title>The Story - Example</title><meta property="og:title" content="The Story">
            <link rel="canonical" href="https://news.example.com/amp/story">`).canonicalUrl,
    ).toBe('https://news.example.com/amp/story');
  });

  it('says a page without title or description is empty (the server preview is asked instead)', () => {
    expect(page('', '').empty).toBe(true);
    expect(page('<title>Only a title</title>', '').empty).toBe(false);
  });

  it('treats non-HTML documents (a PDF, an image) as empty', () => {
    const { document } = parseHTML('<html><body><embed type="application/pdf"></body></html>');
    Object.defineProperty(document, 'contentType', { value: 'application/pdf' });
    expect(capturePage(document as unknown as Document, { url: 'https://example.com/paper.pdf' })).toMatchObject({
      contentType: 'application/pdf',
      empty: true,
      title: '',
    });
  });
});

describe('capturePage: the article for the readable copy (issue 23)', () => {
  const ARTICLE = `<nav><a href="/">Home</a> <a href="/about">About</a></nav>
    <article><h1>An essay</h1><p>${LONG_TEXT}</p><p>A second paragraph with <a href="/notes">notes</a>. ${LONG_TEXT}</p></article>
    <footer>Footer text</footer>`;

  it("keeps Readability's article HTML and the page's language, whatever the page says of itself", () => {
    const { document } = parseHTML(
      `<!doctype html><html lang="en-GB"><head><title>An essay</title><meta property="og:description" content="Its own summary"></head><body>${ARTICLE}</body></html>`,
    );
    const capture = capturePage(document as unknown as Document, { url: PAGE });
    expect(capture.description).toBe('Its own summary');
    expect(capture.readable?.lang).toBe('en-GB');
    const html = capture.readable?.html ?? '';
    expect(html).toContain('Curation is the act of choosing well');
    expect(html).toContain('A second paragraph with');
    expect(html).not.toContain('Footer text');
    expect(html).not.toContain('About</a>');
  });

  it('has no article for a page without text, nor a language when the page names none', () => {
    expect(page('<title>Nothing</title>', '').readable).toBeNull();
    expect(page('<title>An essay</title>', ARTICLE).readable).toMatchObject({ lang: null });
  });

  it('cuts a long article before the last tag that starts within the limit', () => {
    const paragraph = `<p>${'word '.repeat(200)}</p>`;
    const long = paragraph.repeat(Math.ceil(READABLE_UPLOAD_MAX_CHARS / paragraph.length) + 5);
    const cut = cutHtml(long);
    expect(cut.length).toBeLessThanOrEqual(READABLE_UPLOAD_MAX_CHARS);
    expect(cut.length).toBeGreaterThan(READABLE_UPLOAD_MAX_CHARS - paragraph.length);
    expect(long.startsWith(cut)).toBe(true);
    // Cut where a tag starts: never inside one.
    expect(long[cut.length]).toBe('<');
    expect(cutHtml('<p>short</p>')).toBe('<p>short</p>');
    expect(cutHtml('<p>abcdef</p><p>ghi</p>', 12)).toBe('<p>abcdef');
  });

  it('sends at most the limit from a huge page, cut at a tag', () => {
    const huge = `<p>${'A long line of an enormous article. '.repeat(40)}</p>`.repeat(
      Math.ceil((READABLE_UPLOAD_MAX_CHARS * 1.2) / 1500),
    );
    const capture = page('<title>Huge</title>', `<article><h1>Huge</h1>${huge}</article>`);
    const html = capture.readable?.html ?? '';
    expect(html.length).toBeLessThanOrEqual(READABLE_UPLOAD_MAX_CHARS);
    expect(html.length).toBeGreaterThan(READABLE_UPLOAD_MAX_CHARS * 0.9);
    expect(html.endsWith('>')).toBe(true);
  });
});

describe('guessFormat', () => {
  const signals = (s: Partial<FormatSignals>): FormatSignals => ({
    url: 'https://example.com/page',
    ogType: null,
    jsonLdTypes: [],
    hasVideo: false,
    hasAudio: false,
    generator: null,
    title: 'A page',
    image: null,
    ...s,
  });

  it.each<[string, Partial<FormatSignals>, string | null]>([
    ['og:type video.*', { ogType: 'video.other' }, 'video'],
    ['JSON-LD VideoObject', { jsonLdTypes: ['VideoObject'] }, 'video'],
    ['a YouTube watch page', { url: 'https://www.youtube.com/watch?v=abc' }, 'video'],
    ['a youtu.be short link', { url: 'https://youtu.be/abc' }, 'video'],
    ['Vimeo', { url: 'https://vimeo.com/12345' }, 'video'],
    ['a TED talk', { url: 'https://www.ted.com/talks/someone_on_something' }, 'video'],
    ['but not TED\'s other pages', { url: 'https://www.ted.com/about' }, null],
    ['og:video on a non-article', { hasVideo: true, ogType: 'website' }, 'video'],
    ['JSON-LD PodcastEpisode', { jsonLdTypes: ['PodcastEpisode'] }, 'podcast'],
    ['Apple Podcasts', { url: 'https://podcasts.apple.com/us/podcast/x/id1' }, 'podcast'],
    ['a Spotify episode', { url: 'https://open.spotify.com/episode/xyz' }, 'podcast'],
    ['but not a Spotify track', { url: 'https://open.spotify.com/track/xyz' }, null],
    ['og:audio', { hasAudio: true }, 'podcast'],
    ['a Substack post', { url: 'https://someone.substack.com/p/a-post', ogType: 'article' }, 'newsletter'],
    ['a Substack custom domain (generator)', { generator: 'Substack', ogType: 'article' }, 'newsletter'],
    ['a Substack custom domain (images)', { image: 'https://substackcdn.com/image/fetch/x.png', ogType: 'article' }, 'newsletter'],
    ['beehiiv', { url: 'https://news.beehiiv.com/p/x' }, 'newsletter'],
    ['JSON-LD SoftwareApplication', { jsonLdTypes: ['SoftwareApplication'] }, 'tool'],
    ['a Product Hunt launch', { url: 'https://www.producthunt.com/posts/thing' }, 'tool'],
    ['a Chrome Web Store item', { url: 'https://chromewebstore.google.com/detail/x/abc' }, 'tool'],
    ['JSON-LD HowTo', { jsonLdTypes: ['HowTo'] }, 'tutorial'],
    ['a "how to" title', { title: 'How to bake bread', ogType: 'article' }, 'tutorial'],
    ['a tutorial in the path', { url: 'https://blog.example.com/react-tutorial-part-1' }, 'tutorial'],
    ['GitHub', { url: 'https://github.com/owner/repo' }, 'dev'],
    ['Stack Overflow', { url: 'https://stackoverflow.com/questions/1/x' }, 'dev'],
    ['JSON-LD TechArticle', { jsonLdTypes: ['TechArticle'] }, 'dev'],
    ['Dribbble', { url: 'https://dribbble.com/shots/1' }, 'design'],
    ['Hugging Face', { url: 'https://huggingface.co/org/model' }, 'ai'],
    ['og:type article', { ogType: 'article' }, 'article'],
    ['JSON-LD BlogPosting', { jsonLdTypes: ['BlogPosting'] }, 'article'],
    ['an article with an embedded og:video', { ogType: 'article', hasVideo: true }, 'article'],
    ['a plain website', { ogType: 'website' }, null],
    ['nothing at all', {}, null],
  ])('%s', (_name, s, expected) => {
    expect(guessFormat(signals(s))).toBe(expected);
  });
});
