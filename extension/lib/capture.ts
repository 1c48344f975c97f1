import { Readability } from '@mozilla/readability';
import { type FormatId, READABLE_UPLOAD_MAX_CHARS } from '../../shared/domain/constants';
import type { ReadableUpload } from '../../shared/domain/readable';
import { guessFormat } from './format';

/** What the extension reads from a page's live DOM to fill Preview & Share. */
export interface PageCapture {
  /** The page's address as the browser shows it. */
  url: string;
  /** <link rel=canonical> (or og:url), absolute http(s); null when absent or stale. */
  canonicalUrl: string | null;
  title: string;
  /** '' when the page has none and no excerpt could be made. */
  description: string;
  image: string | null;
  siteName: string | null;
  format: FormatId | null;
  /** The document's content type: 'text/html', 'application/pdf', 'image/png', ... */
  contentType: string;
  /** The page says nothing of its own (no title, no description, or not HTML): ask the server instead. */
  empty: boolean;
  /** Readability's article as the user saw it, for the link's readable copy (issue 23); null when there is none. */
  readable: ReadableUpload | null;
}

export interface CaptureOptions {
  /** The page's URL; the document's own by default (tests with a parsed document pass it). */
  url?: string;
  /** Make an excerpt with Readability when the page has no description (default true). */
  excerpt?: boolean;
}

/** The preview's limits (server/preview): titles 300 characters, descriptions 1000. */
export const CAPTURE_TITLE_MAX = 300;
export const CAPTURE_DESCRIPTION_MAX = 1000;
/** Images smaller than this on either side are icons, avatars or buttons, not a page's picture. */
export const MIN_IMAGE_SIDE = 200;
const MAX_IMAGES_SCANNED = 300;
const NOT_A_PICTURE = /sprite|logo|icon|avatar|badge|emoji|pixel|spacer|blank|placeholder|1x1|tracking|gravatar/i;
const CHROME = 'header, nav, footer, aside, [role="banner"], [role="navigation"], [role="contentinfo"]';
/** The longest language tag the server takes. */
const LANG_MAX = 35;

type Json = Record<string, unknown>;

/**
 * Reads a page's own description of itself from its DOM: og:*, twitter:*, <title>, meta
 * description, canonical link, JSON-LD, the largest sensible image, and Readability's article (on
 * a copy; the page is never changed): its HTML for the readable copy and, when there is no
 * description, an excerpt of it.
 *
 * Single-page apps often leave the tags of their first route in place after navigating: when the
 * canonical/og:url points elsewhere than the address bar and og:title no longer matches the
 * document's title, those tags are stale and only the live title, address and text are used.
 */
export function capturePage(doc: Document, options: CaptureOptions = {}): PageCapture {
  const url = options.url ?? doc.URL;
  const contentType = (doc.contentType || 'text/html').toLowerCase();
  if (!contentType.includes('html')) {
    return {
      url,
      canonicalUrl: null,
      title: '',
      description: '',
      image: null,
      siteName: null,
      format: null,
      contentType,
      empty: true,
      readable: null,
    };
  }
  const base = baseOf(doc, url);
  const meta = readMeta(doc);
  const ld = readJsonLd(doc);
  const docTitle = clean(doc.title);
  const ogTitle = meta('og:title');

  const declaredUrl = absolute(linkHref(doc, 'canonical'), base) ?? absolute(meta('og:url'), base);
  const stale =
    declaredUrl !== null &&
    pathOf(declaredUrl) !== pathOf(url) &&
    ogTitle !== '' &&
    docTitle !== '' &&
    !docTitle.includes(ogTitle) &&
    !ogTitle.includes(docTitle);

  const siteName = meta('og:site_name') || meta('application-name') || null;
  const main = stale ? null : ld.main;
  const title = truncate(
    (stale ? '' : ogTitle || meta('twitter:title') || str(main?.headline) || str(main?.name)) ||
      withoutSiteName(docTitle, siteName) ||
      clean(doc.querySelector('h1')?.textContent),
    CAPTURE_TITLE_MAX,
  );

  let description = stale
    ? ''
    : meta('og:description') || meta('twitter:description') || meta('description') || str(main?.description);
  const article = readArticle(doc);
  if (!description && options.excerpt !== false) description = excerptOf(doc, article);
  description = truncate(description, CAPTURE_DESCRIPTION_MAX);

  const image = stale
    ? largestImage(doc, base)
    : firstHttp(
        [
          meta('og:image:secure_url'),
          meta('og:image'),
          meta('og:image:url'),
          meta('twitter:image'),
          meta('twitter:image:src'),
          ...imagesOf(main?.image),
          linkHref(doc, 'image_src'),
        ],
        base,
      ) ?? largestImage(doc, base);

  const canonicalUrl = stale ? null : declaredUrl;
  const format = guessFormat({
    url: canonicalUrl ?? url,
    ogType: stale ? null : meta('og:type') || null,
    jsonLdTypes: stale ? [] : ld.types,
    hasVideo: !stale && Boolean(meta('og:video') || meta('og:video:url') || meta('og:video:secure_url') || meta('twitter:player')),
    hasAudio: !stale && Boolean(meta('og:audio') || meta('og:audio:url')),
    generator: meta('generator') || null,
    title,
    image,
  });

  const saysNothing = !(ogTitle || docTitle || str(main?.headline)) && !description;
  return { url, canonicalUrl, title, description, image, siteName, format, contentType, empty: saysNothing, readable: readableOf(article) };
}

// ---------------------------------------------------------------------------------------------

function clean(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

function str(value: unknown): string {
  return typeof value === 'string' ? clean(value) : '';
}

/** Cut at a word boundary with an ellipsis. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** 'Title | Site', 'Title - Site', 'Title — Site' → 'Title' when Site is the page's site name. */
function withoutSiteName(title: string, siteName: string | null): string {
  if (!siteName) return title;
  for (const sep of [' | ', ' - ', ' — ', ' – ', ' · ']) {
    const suffix = `${sep}${siteName}`;
    if (title.endsWith(suffix) && title.length > suffix.length) return title.slice(0, -suffix.length);
  }
  return title;
}

function baseOf(doc: Document, url: string): string {
  const href = doc.querySelector('base[href]')?.getAttribute('href');
  return (href && absolute(href, url)) || url;
}

/** An absolute http(s) URL, or null (relative URLs resolve against base; data:, javascript: ... are refused). */
function absolute(raw: string | null | undefined, base: string): string | null {
  const value = raw?.trim();
  if (!value) return null;
  try {
    const resolved = new URL(value, base);
    return resolved.protocol === 'http:' || resolved.protocol === 'https:' ? resolved.href : null;
  } catch {
    return null;
  }
}

function firstHttp(candidates: Array<string | null | undefined>, base: string): string | null {
  for (const candidate of candidates) {
    const url = absolute(candidate, base);
    if (url) return url;
  }
  return null;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname.replace(/\/+$/, '') || '/';
  } catch {
    return url;
  }
}

function linkHref(doc: Document, rel: string): string | null {
  for (const link of doc.querySelectorAll('link[rel][href]')) {
    const rels = (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    if (rels.includes(rel)) return link.getAttribute('href');
  }
  return null;
}

/** Meta tags by property, name or itemprop (lower-cased); the first non-empty content wins. */
function readMeta(doc: Document): (key: string) => string {
  const values = new Map<string, string>();
  for (const el of doc.querySelectorAll('meta[content]')) {
    const content = clean(el.getAttribute('content'));
    if (!content) continue;
    for (const attr of ['property', 'name', 'itemprop']) {
      const key = el.getAttribute(attr)?.trim().toLowerCase();
      if (key && !values.has(key)) values.set(key, content);
    }
  }
  return (key) => values.get(key) ?? '';
}

const CONTENT_TYPES = new Set([
  'Article',
  'NewsArticle',
  'BlogPosting',
  'Report',
  'ScholarlyArticle',
  'TechArticle',
  'OpinionNewsArticle',
  'AnalysisNewsArticle',
  'LiveBlogPosting',
  'VideoObject',
  'Movie',
  'Clip',
  'TVEpisode',
  'PodcastEpisode',
  'PodcastSeries',
  'AudioObject',
  'HowTo',
  'Course',
  'SoftwareApplication',
  'WebApplication',
  'MobileApplication',
  'SoftwareSourceCode',
  'Product',
  'Recipe',
  'Event',
  'Book',
]);
const NOT_CONTENT = new Set(['WebSite', 'Organization', 'BreadcrumbList', 'Person', 'ImageObject', 'SearchAction', 'ListItem', 'SiteNavigationElement']);

/** The JSON-LD nodes of the page: every @type, and the node that describes the page itself. */
function readJsonLd(doc: Document): { types: string[]; main: Json | null } {
  const nodes: Json[] = [];
  const visit = (value: unknown, depth: number) => {
    if (depth > 4 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value.slice(0, 50)) visit(item, depth + 1);
      return;
    }
    const node = value as Json;
    if (node['@type'] !== undefined) nodes.push(node);
    if (node['@graph'] !== undefined) visit(node['@graph'], depth + 1);
    if (node.mainEntity !== undefined) visit(node.mainEntity, depth + 1);
  };
  for (const script of doc.querySelectorAll('script[type="application/ld+json" i]')) {
    try {
      visit(JSON.parse(script.textContent ?? ''), 0);
    } catch {
      // Broken JSON-LD is common; the page's other tags still count.
    }
  }
  const typesOf = (node: Json) =>
    (Array.isArray(node['@type']) ? node['@type'] : [node['@type']])
      .filter((t): t is string => typeof t === 'string')
      .map((t) => t.replace(/^(https?:\/\/schema\.org\/|schema:)/, ''));
  const types = [...new Set(nodes.flatMap(typesOf))];
  const main =
    nodes.find((n) => typesOf(n).some((t) => CONTENT_TYPES.has(t))) ??
    nodes.find((n) => typesOf(n).includes('WebPage')) ??
    nodes.find((n) => !typesOf(n).some((t) => NOT_CONTENT.has(t))) ??
    null;
  return { types, main };
}

/** JSON-LD image: a URL, an ImageObject, or a list of either. */
function imagesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.slice(0, 5).flatMap(imagesOf);
  if (value && typeof value === 'object') {
    const { url, contentUrl } = value as Json;
    return [url, contentUrl].filter((u): u is string => typeof u === 'string');
  }
  return [];
}

function sizeOf(img: HTMLImageElement, side: 'width' | 'height'): number {
  const natural = side === 'width' ? img.naturalWidth : img.naturalHeight;
  if (typeof natural === 'number' && natural > 0) return natural;
  const shown = img[side];
  if (typeof shown === 'number' && shown > 0) return shown;
  return Number.parseInt(img.getAttribute(side) ?? '', 10) || 0;
}

/** The largest picture of the page's content: at least 200 px a side, not too thin, not a logo or an icon. */
function largestImage(doc: Document, base: string): string | null {
  let best: { url: string; area: number } | null = null;
  const images = [...doc.querySelectorAll('img')].slice(0, MAX_IMAGES_SCANNED) as HTMLImageElement[];
  for (const img of images) {
    let raw = img.currentSrc || img.getAttribute('src') || '';
    if (!raw || raw.startsWith('data:')) raw = img.getAttribute('data-src') ?? '';
    const url = absolute(raw, base);
    if (!url) continue;
    const hints = `${url} ${img.getAttribute('class') ?? ''} ${img.id} ${img.getAttribute('alt') ?? ''}`;
    if (NOT_A_PICTURE.test(hints) || img.closest(CHROME)) continue;
    const width = sizeOf(img, 'width');
    const height = sizeOf(img, 'height');
    if (width < MIN_IMAGE_SIDE || height < MIN_IMAGE_SIDE) continue;
    const ratio = width / height;
    if (ratio > 3 || ratio < 1 / 3) continue;
    if (!best || width * height > best.area) best = { url, area: width * height };
  }
  return best?.url ?? null;
}

type Article = ReturnType<Readability['parse']>;

/** The article as Readability reads it, on a copy of the document; null when it gives up. */
function readArticle(doc: Document): Article {
  try {
    const copy = doc.cloneNode(true) as Document;
    // Readability would answer the page's own (here missing or stale) description: the text only.
    for (const el of copy.querySelectorAll('meta, script[type="application/ld+json" i]')) el.remove();
    return new Readability(copy, { charThreshold: 100, disableJSONLD: true }).parse();
  } catch {
    return null;
  }
}

/** Readability's excerpt of the article, else the first real paragraph. */
function excerptOf(doc: Document, article: Article): string {
  const text = clean(article?.excerpt) || clean(article?.textContent);
  if (text) return text;
  for (const p of doc.querySelectorAll('main p, article p, p')) {
    const text = clean(p.textContent);
    if (text.length >= 40) return text;
  }
  return '';
}

/** The article's HTML (the server sanitises it) and language, when it has any text. */
function readableOf(article: Article): ReadableUpload | null {
  if (!article?.content || !clean(article.textContent)) return null;
  const lang = article.lang?.trim();
  return { html: cutHtml(article.content), lang: lang && lang.length <= LANG_MAX ? lang : null };
}

/** HTML cut to `max` characters before the last tag that starts within them, so no tag is cut in half. */
export function cutHtml(html: string, max = READABLE_UPLOAD_MAX_CHARS): string {
  if (html.length <= max) return html;
  const lastTag = html.lastIndexOf('<', max);
  return html.slice(0, lastTag > 0 ? lastTag : max);
}
