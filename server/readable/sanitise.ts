import sanitizeHtml from 'sanitize-html';
import { imageProxyUrl, isHttpUrl } from '../../shared/domain/url';

/**
 * The only markup a readable copy keeps (issue 23): text, headings, lists, quotes, code, tables,
 * http(s) links and images through our image proxy. Everything else goes, its text kept, except
 * elements whose content is not text (script, style, iframe, forms' controls...), which go whole.
 * No attribute survives but those listed (so no event handler, style or class), and a URL that does
 * not resolve to http(s) against the page's address is dropped.
 */
const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'blockquote', 'q', 'cite', 'pre', 'code', 'kbd', 'samp',
  'em', 'strong', 'b', 'i', 'u', 's', 'del', 'ins', 'mark', 'small', 'sub', 'sup', 'abbr', 'time',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  'figure', 'figcaption', 'a', 'img',
];

const DROPPED_WHOLE = [
  'script', 'style', 'noscript', 'template', 'textarea', 'option', 'select', 'button', 'iframe', 'frame', 'frameset',
  'object', 'embed', 'applet', 'svg', 'math', 'canvas', 'audio', 'video', 'head', 'title', 'form', 'input', 'dialog',
];

/** An absolute http(s) URL of `raw` read against the page, or null. */
function httpUrl(raw: string | undefined, base: URL): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw.trim(), base);
    return isHttpUrl(url.href) ? url.href : null;
  } catch {
    return null;
  }
}

/** The copy's HTML, safe to put in our pages as it is. `base`: the page's address, for relative URLs. */
export function sanitiseArticle(html: string, base: URL): string {
  return sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: {
      a: ['href', 'title', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
      td: ['colspan', 'rowspan'],
      th: ['colspan', 'rowspan', 'scope'],
      ol: ['start', 'reversed'],
      abbr: ['title'],
      time: ['datetime'],
      '*': ['lang', 'dir'],
    },
    allowedSchemes: ['http', 'https'],
    allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    nonTextTags: DROPPED_WHOLE,
    transformTags: {
      a: (tagName, attribs) => {
        const href = httpUrl(attribs.href, base);
        const { title } = attribs;
        return { tagName, attribs: href ? { href, rel: 'noopener noreferrer nofollow', ...(title ? { title } : {}) } : {} };
      },
      img: (tagName, attribs) => {
        const src = imageProxyUrl(httpUrl(attribs.src ?? attribs['data-src'], base));
        if (!src) return { tagName: 'span', attribs: {} };
        const { alt, title, width, height } = attribs;
        const sizes = Object.fromEntries(Object.entries({ width, height }).filter(([, v]) => v && /^\d{1,5}$/.test(v)));
        return { tagName, attribs: { src, alt: alt ?? '', loading: 'lazy', ...(title ? { title } : {}), ...sizes } };
      },
    },
    exclusiveFilter: (frame) => frame.tag === 'a' && !frame.attribs.href && !frame.text.trim(),
  });
}
