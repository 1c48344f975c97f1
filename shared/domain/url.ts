import { UPLOADED_IMAGE_PATH } from './constants';

/** True when `value` parses as an absolute http: or https: URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The host of an http(s) URL without a leading "www.", or null. */
export function displayHost(value: string): string | null {
  if (!isHttpUrl(value)) return null;
  return new URL(value).hostname.replace(/^www\./, '');
}

/** Where our server serves third-party images re-encoded (GET /api/images/proxy?url=). */
export const IMAGE_PROXY_PATH = '/api/images/proxy';
/** An image uploaded to our server (the same rule as a link's uploaded thumbnail_url). */
const OWN_UPLOAD = /^\/api\/uploads\/[a-z0-9/_-]+\.webp$/i;

/**
 * The address the web app shows an image at: our own uploads (and already-proxied paths) as
 * they are, any other http(s) URL through our image proxy, so the page only ever loads images
 * from its own origin (CSP `img-src 'self'`). Null for no image or anything else (data:, relative
 * paths, javascript:...).
 */
export function imageProxyUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  const value = url.trim();
  if (OWN_UPLOAD.test(value)) return value;
  if (value.startsWith(`${IMAGE_PROXY_PATH}?url=`)) return value;
  if (!isHttpUrl(value)) return null;
  return `${IMAGE_PROXY_PATH}?url=${encodeURIComponent(value)}`;
}

/**
 * The widths our server resizes thumbnails to (`?w=`, WebP, never enlarged): enough for a phone's
 * card, a tablet's and a 2x screen's, and few enough that each image has at most three copies.
 */
export const IMAGE_WIDTHS = [320, 640, 960] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** The addresses that have variants: our uploaded thumbnails, and proxied images (their url encoded, so no `&`). */
const RESIZABLE = /^(\/api\/uploads\/images\/[a-f0-9]{32}\.webp|\/api\/images\/proxy\?url=[^&#]+)$/;

/**
 * The `width` px variant of an image address that imageProxyUrl gave, or null when our server
 * does not resize it (anything but an upload or a proxied image).
 */
export function imageVariantUrl(shown: string, width: ImageWidth): string | null {
  if (!RESIZABLE.test(shown)) return null;
  return `${shown}${shown.includes('?') ? '&' : '?'}w=${width}`;
}

/** A `srcset` of every variant of an image address (see imageVariantUrl), or null; `baseUrl` as in Thumbnail. */
export function imageSrcSet(shown: string, baseUrl = ''): string | null {
  if (!RESIZABLE.test(shown)) return null;
  return IMAGE_WIDTHS.map((width) => `${baseUrl}${imageVariantUrl(shown, width)} ${width}w`).join(', ');
}

/**
 * SPEC §5 URL normalisation: trim, drop leading @ and slashes, prefix https:// when there is no
 * scheme. Returns null unless the result is an http(s) URL (javascript:, data:, ftp: ... refused).
 */
export function normalizeUrl(raw: string): string | null {
  const trimmed = raw.trim().replace(/^[@/]+/, '');
  if (!trimmed) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/^[^:/]+:\d+(\/|$)/.test(trimmed)
    ? trimmed
    : `https://${trimmed}`;
  if (!isHttpUrl(withScheme)) return null;
  const url = new URL(withScheme);
  if (!url.hostname.includes('.') && url.hostname !== 'localhost') return null;
  return url.toString();
}

/** An image URL as unfurlers and other servers need it: http(s) as is, one of our uploads made absolute, anything else dropped. */
export function absoluteImageUrl(publicUrl: string, url: string | null): string | null {
  if (!url) return null;
  if (UPLOADED_IMAGE_PATH.test(url)) return `${publicUrl}${url}`;
  return /^https?:\/\//i.test(url) ? url : null;
}
