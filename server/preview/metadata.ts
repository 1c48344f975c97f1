import { Parser } from 'htmlparser2';
import {
  type FormatId,
  LINK_MESSAGES,
  type LinkFacts,
  type LinkPreview,
  NO_LINK_FACTS,
  TITLE_MAX_LENGTH,
  URL_MAX_LENGTH,
  cap,
  stripUnsafeText,
} from '../../shared/domain';
import { jsonLdFacts } from './json-ld';
import type { OEmbedFacts } from './oembed';

/** HTML bytes to the preview of SPEC §3: og:*, then twitter:*, then what else the page says (see extractMetadata). */

export const PREVIEW_TITLE_MAX = TITLE_MAX_LENGTH;
export const PREVIEW_DESCRIPTION_MAX = 1000;

/** Media types parsed as HTML. */
export function isHtml(mediaType: string): boolean {
  return mediaType === 'text/html' || mediaType === 'application/xhtml+xml' || mediaType === '';
}

export interface PageMetadata {
  title: string | null;
  description: string | null;
  image: string | null;
  facts: LinkFacts;
  /** The page's oEmbed endpoint (`<link rel=alternate type=application/json+oembed>`), absolute http(s). */
  oembedUrl: string | null;
  /** og:type, lowercased ('article', 'video.other'…). */
  ogType: string | null;
}

/** Site names and authors longer than this are not names. */
export const FACT_MAX = 100;

const TITLE_KEYS = ['og:title', 'twitter:title'];
const DESCRIPTION_KEYS = ['og:description', 'twitter:description', 'description'];
const IMAGE_KEYS = ['og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src'];
const SITE_NAME_KEYS = ['og:site_name', 'application-name'];
const AUTHOR_KEYS = ['author', 'article:author', 'parsely-author', 'sailthru.author', 'dc.creator'];
const DATE_KEYS = [
  'article:published_time',
  'og:published_time',
  'datepublished',
  'date',
  'pubdate',
  'publishdate',
  'dc.date',
  'dc.date.issued',
  'dcterms.created',
  'parsely-pub-date',
  'sailthru.date',
];
const LANG_KEYS = ['content-language', 'og:locale', 'dc.language'];
const WANTED = new Set([
  ...TITLE_KEYS,
  ...DESCRIPTION_KEYS,
  ...IMAGE_KEYS,
  ...SITE_NAME_KEYS,
  ...AUTHOR_KEYS,
  ...DATE_KEYS,
  ...LANG_KEYS,
  'og:type',
]);

/** The charset label usable by TextDecoder, or null. */
function supported(label: string | undefined): string | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return null;
  }
}

/**
 * The document's encoding: a byte-order mark, else the Content-Type charset, else an XML
 * declaration's encoding or a <meta charset> / http-equiv in the first 8 KB, else UTF-8.
 * Unsupported labels are skipped.
 */
export function charsetOf(contentType: string, body: Uint8Array): string {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  const fromHeader = supported(/charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType)?.[1]);
  if (fromHeader) return fromHeader;
  const head = Buffer.from(body.subarray(0, 8192)).toString('latin1');
  const fromMeta = supported(
    (/^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([^"']+)["']/i.exec(head) ?? /<meta[^>]*?charset\s*=\s*["']?\s*([^"'\s/>;]+)/i.exec(head))?.[1],
  );
  // A document whose <meta> we could read as ASCII is not UTF-16 whatever it claims (HTML spec).
  if (fromMeta && !fromMeta.startsWith('utf-16')) return fromMeta;
  return 'utf-8';
}

/**
 * windows-1252's bytes 0x80–0x9F (curly quotes, dashes, €…). Node's TextDecoder (seen on 20.20)
 * decodes that label as ISO-8859-1, giving C1 control characters there; the five bytes the
 * encoding leaves undefined stay those controls, so a correct decoder's output is left unchanged.
 */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/** A fetched page or feed as text, in its encoding (charsetOf). */
export function decodeDocument(body: Uint8Array, contentType: string): string {
  const encoding = charsetOf(contentType, body);
  const text = new TextDecoder(encoding).decode(body);
  if (encoding !== 'windows-1252') return text;
  return text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80] as string);
}

/**
 * One line a link may store (stripUnsafeText: no control character or bidi override, NFC), runs of
 * whitespace as one space; '' stays ''.
 */
function clean(text: string): string {
  return stripUnsafeText(text).replace(/\s+/g, ' ');
}

/** An absolute http(s) URL (an image, an icon, an oEmbed endpoint) resolved against the page, or null. */
export function absoluteUrl(raw: string, pageUrl: URL): string | null {
  const value = raw.trim();
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value, pageUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const href = url.toString();
  return href.length <= URL_MAX_LENGTH ? href : null;
}

/** A person's or site's name as a page writes it ('By Jane Doe' is Jane Doe); a URL is not a name. */
function nameFact(raw: string | null): string | null {
  const name = clean(raw ?? '').replace(/^by\s+/i, '').trim();
  if (!name || /^(https?:)?\/\//i.test(name)) return null;
  return cap(name, FACT_MAX);
}

/** The earliest publication date taken for real (older is a placeholder such as 1970-01-01). */
const EARLIEST_DATE = Date.UTC(1990, 0, 1);

/** A publication date as an ISO instant; null when it does not parse or lies in the future. */
function dateFact(raw: string | null, now: number): string | null {
  const value = raw?.trim() ?? '';
  // Bare numbers (epoch seconds or milliseconds, a year alone) say too little to be sure of.
  if (!value || /^\d+$/.test(value)) return null;
  const time = Date.parse(value);
  if (Number.isNaN(time) || time < EARLIEST_DATE || time > now + 24 * 60 * 60 * 1000) return null;
  return new Date(time).toISOString();
}

/** A language tag in its canonical form ('en_us' is en-US); null for one that is not BCP 47. */
export function langFact(raw: string | null): string | null {
  // content-language may list several: the first is the main one.
  const tag = (raw ?? '').split(',')[0]?.trim().replace(/_/g, '-') ?? '';
  if (!tag || /\s/.test(tag) || /^(und|x-|i-)/i.test(tag) || tag.length > 35) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

interface DeclaredIcon {
  href: string;
  rel: string;
  type: string;
  sizes: string;
}

/** The largest side an icon declares (sizes="32x32 64x64"), 0 when unknown, 1,000 for 'any'. */
function iconSide(sizes: string): number {
  if (/\bany\b/i.test(sizes)) return 1000;
  return Math.max(0, ...[...sizes.matchAll(/(\d+)x\d+/gi)].map((m) => Number(m[1])));
}

/** Icons we can show: raster images (our image proxy decodes no .ico and no SVG). */
const rasterIcon = (icon: DeclaredIcon) =>
  !/icon|svg/i.test(icon.type) && !/\.(ico|svg)([?#]|$)/i.test(icon.href) && !/^\s*data:/i.test(icon.href);

/** The site's icon: Apple's touch icon (a 180 px PNG as a rule), else the largest raster icon. */
function pickIcon(icons: DeclaredIcon[]): string | null {
  const usable = icons.filter(rasterIcon);
  const touch = usable.find((i) => /apple-touch-icon/i.test(i.rel));
  if (touch) return touch.href;
  return usable.sort((a, b) => iconSide(b.sizes) - iconSide(a.sizes))[0]?.href ?? null;
}

const OEMBED_TYPES = new Set(['application/json+oembed', 'text/json+oembed']);

/** The document is parsed in pieces of this many characters, so that it can stop after the head. */
const PARSE_CHUNK = 16 * 1024;

/** An in-page picture smaller than this (by its width or height attribute) is an icon, not a thumbnail. */
const LARGE_IMAGE_MIN_PX = 200;

/** The src of an <img> or poster of a <video> that may stand for the page, or null. */
function largeImage(src: string | undefined, attrs: Record<string, string>): string | null {
  if (!src || /^\s*data:|\.svg(\?|#|$)/i.test(src)) return null;
  const small = [attrs.width, attrs.height].some((v) => v !== undefined && Number.parseInt(v, 10) < LARGE_IMAGE_MIN_PX);
  return small ? null : src;
}

/**
 * Reads the preview fields of an HTML document in one pass; entities are decoded by the parser.
 * Title: og, twitter, <title>, JSON-LD headline, first <h1>. Description: og, twitter, meta
 * description, JSON-LD, the first paragraph of <article>/<main>. Image: og, twitter, JSON-LD
 * image/thumbnailUrl, <link rel=image_src>, itemprop=image, then the first large picture, in
 * <article>/<main> if there is one there.
 */
export function extractMetadata(html: string, pageUrl: URL): PageMetadata {
  const meta = new Map<string, string[]>();
  const jsonLd: string[] = [];
  const imageSrc: string[] = [];
  const itemprop: string[] = [];
  const found = {
    title: null as string | null,
    h1: null as string | null,
    paragraph: null as string | null,
    /** The text of a rel=author link or an itemprop=author element. */
    byline: null as string | null,
  };
  type Capture = { field: keyof typeof found; tag: string; text: string };
  let capture: Capture | null = null;
  let ldText: string | null = null;
  let foreignDepth = 0;
  let contentDepth = 0;
  let contentImage: string | null = null;
  let pageImage: string | null = null;
  let htmlLang: string | null = null;
  const icons: DeclaredIcon[] = [];
  const itempropDates: string[] = [];
  const itempropAuthors: string[] = [];
  let oembed: string | null = null;

  const firstText = (keys: string[], max: number, extra: (string | null)[] = []) => {
    for (const value of [...keys.flatMap((k) => meta.get(k) ?? []), ...extra]) {
      const text = value === null ? '' : clean(value);
      if (text) return cap(text, max);
    }
    return null;
  };
  const firstImage = (raws: (string | null)[]) =>
    raws.map((raw) => (raw === null ? null : absoluteUrl(raw, pageUrl))).find((u): u is string => u !== null) ?? null;
  const metaImages = () => IMAGE_KEYS.flatMap((k) => meta.get(k) ?? []);
  // og/twitter tags in the head outrank everything in the body: with all three, the body is not read.
  let headSuffices = false;

  const startCapture = (field: keyof typeof found, tag: string = field === 'paragraph' ? 'p' : field) => {
    if (capture === null && found[field] === null && foreignDepth === 0) capture = { field, tag, text: '' };
  };
  const addMeta = (key: string, content: string) => meta.set(key, [...(meta.get(key) ?? []), content]);
  const seeImage = (src: string | null) => {
    if (src === null) return;
    if (contentDepth > 0) contentImage ??= src;
    pageImage ??= src;
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (attrs.property !== undefined && attrs.content !== undefined && name !== 'meta') {
          // RDFa on any element: <span property="dc:date dc:created" content="2016-04-29T19:31:03-04:00">.
          for (const key of attrs.property.toLowerCase().split(/\s+/)) if (WANTED.has(key)) addMeta(key, attrs.content);
        }
        if (name !== 'meta' && (attrs.itemprop?.trim().toLowerCase() === 'author' || (name === 'a' && /(^|\s)author(\s|$)/i.test(attrs.rel ?? '')))) {
          startCapture('byline', name);
        }
        if (name === 'html') htmlLang = attrs.lang ?? attrs['xml:lang'] ?? null;
        else if (name === 'body') {
          headSuffices = [
            firstText(TITLE_KEYS, PREVIEW_TITLE_MAX),
            firstText(DESCRIPTION_KEYS, PREVIEW_DESCRIPTION_MAX),
            firstImage(metaImages()),
          ].every((v) => v !== null);
        } else if (name === 'svg' || name === 'math') foreignDepth += 1;
        else if (name === 'article' || name === 'main') contentDepth += 1;
        else if (name === 'title') startCapture('title');
        else if (name === 'h1') startCapture('h1');
        else if (name === 'p' && contentDepth > 0) startCapture('paragraph');
        else if (name === 'script' && /ld\+json/i.test(attrs.type ?? '')) ldText = '';
        else if (name === 'meta') {
          const content = attrs.content;
          if (content === undefined) return;
          for (const attr of [attrs.property, attrs.name, attrs['http-equiv']]) {
            const key = attr?.trim().toLowerCase() ?? '';
            if (WANTED.has(key)) addMeta(key, content);
          }
          const prop = attrs.itemprop?.trim().toLowerCase();
          if (prop === 'image') itemprop.push(content);
          else if (prop === 'datepublished') itempropDates.push(content);
          else if (prop === 'author') itempropAuthors.push(content);
        } else if (name === 'link' && attrs.href !== undefined) {
          const rel = attrs.rel ?? '';
          if (/(^|\s)image_src(\s|$)/i.test(rel)) imageSrc.push(attrs.href);
          if (attrs.itemprop?.trim().toLowerCase() === 'image') itemprop.push(attrs.href);
          if (/(^|\s)(icon|apple-touch-icon(-precomposed)?)(\s|$)/i.test(rel)) {
            icons.push({ href: attrs.href, rel, type: attrs.type ?? '', sizes: attrs.sizes ?? '' });
          } else if (/(^|\s)alternate(\s|$)/i.test(rel) && OEMBED_TYPES.has((attrs.type ?? '').trim().toLowerCase())) {
            oembed ??= attrs.href;
          }
        } else if (name === 'time' && attrs.datetime) {
          // <time itemprop="datePublished"> or the older <time pubdate>.
          if (attrs.itemprop?.trim().toLowerCase() === 'datepublished' || attrs.pubdate !== undefined) itempropDates.push(attrs.datetime);
        } else if (name === 'img') {
          if (attrs.itemprop?.trim().toLowerCase() === 'image' && attrs.src) itemprop.push(attrs.src);
          seeImage(largeImage(attrs.src, attrs));
        } else if (name === 'video') seeImage(largeImage(attrs.poster, attrs));
      },
      ontext(text) {
        if (ldText !== null) ldText += text;
        else if (capture !== null) capture.text += text;
      },
      onclosetag(name) {
        if (name === 'svg' || name === 'math') foreignDepth = Math.max(0, foreignDepth - 1);
        else if (name === 'article' || name === 'main') contentDepth = Math.max(0, contentDepth - 1);
        else if (name === 'script' && ldText !== null) {
          jsonLd.push(ldText);
          ldText = null;
        } else if (capture !== null && name === capture.tag) {
          found[capture.field] = capture.text;
          capture = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  for (let at = 0; at < html.length && !headSuffices; at += PARSE_CHUNK) parser.write(html.slice(at, at + PARSE_CHUNK));
  parser.end();
  // A cut document may end inside <title> (or the <h1> or paragraph being read).
  const open = capture as Capture | null;
  if (open !== null) found[open.field] = open.text;

  const ld = jsonLdFacts(jsonLd);
  const image = firstImage([...metaImages(), ld.image, ...imageSrc, ...itemprop, contentImage ?? pageImage]);

  const metaValues = (keys: string[]) => keys.flatMap((k) => meta.get(k) ?? []);
  const firstOf = <T>(raws: (string | null)[], read: (raw: string | null) => T | null) =>
    raws.map(read).find((v): v is T => v !== null) ?? null;
  const now = Date.now();

  return {
    title: firstText(TITLE_KEYS, PREVIEW_TITLE_MAX, [found.title, ld.headline, found.h1]),
    description: firstText(DESCRIPTION_KEYS, PREVIEW_DESCRIPTION_MAX, [ld.description, found.paragraph]),
    image,
    facts: {
      siteName: firstOf([...metaValues(SITE_NAME_KEYS), ld.publisher], nameFact),
      faviconUrl: firstImage([pickIcon(icons), ld.logo]),
      author: firstOf([...metaValues(AUTHOR_KEYS), ld.author, ...itempropAuthors, found.byline], nameFact),
      publishedAt: firstOf([...metaValues(DATE_KEYS), ld.datePublished, ...itempropDates], (raw) => dateFact(raw, now)),
      lang: firstOf([htmlLang, ...metaValues(LANG_KEYS), ld.inLanguage], langFact),
    },
    oembedUrl: oembed === null ? null : absoluteUrl(oembed, pageUrl),
    ogType: meta.get('og:type')?.[0]?.trim().toLowerCase() ?? null,
  };
}

/** SPEC §7: hostname as title and 'No preview available' as description. */
export function fallbackPreview(url: string, thumbnailUrl: string | null = null): LinkPreview {
  return { url, title: new URL(url).hostname, description: LINK_MESSAGES.noPreview, thumbnailUrl, ...NO_LINK_FACTS, format: null };
}

/** The format a page suggests by itself: og:type video.* is a video. */
function pageFormat(meta: PageMetadata): FormatId | null {
  return meta.ogType?.startsWith('video') ? 'video' : null;
}

/**
 * The preview of a page, completed by its oEmbed answer where the page is silent; null when
 * neither says anything usable.
 */
export function previewOf(url: string, meta: PageMetadata, oembed: OEmbedFacts | null = null): LinkPreview | null {
  const title = meta.title ?? (oembed?.title ? cap(clean(oembed.title), PREVIEW_TITLE_MAX) || null : null);
  const image = meta.image ?? (oembed?.thumbnailUrl ? absoluteUrl(oembed.thumbnailUrl, new URL(url)) : null);
  if (!title && !meta.description && !image) return null;
  return {
    url,
    title: title ?? new URL(url).hostname,
    description: meta.description ?? LINK_MESSAGES.noPreview,
    thumbnailUrl: image,
    ...meta.facts,
    siteName: meta.facts.siteName ?? nameFact(oembed?.providerName ?? null),
    author: meta.facts.author ?? nameFact(oembed?.author ?? null),
    format: oembed?.format ?? pageFormat(meta),
  };
}
