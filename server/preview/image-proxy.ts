import { createHash } from 'node:crypto';
import { URL_MAX_LENGTH } from '../../shared/domain';
import { NotAnImageError, reencodeImage } from '../services/images';
import { limiter } from '../services/limiter';
import type { ObjectStorage } from '../storage/uploads';
import { type HopPolicy, anyAddress, publicOnly } from './address-policy';
import { type FetchedPage, FetchFailedError, FetchRefusedError, type Resolver, safeFetch } from './safe-fetch';
import { PREVIEW_MAX_REDIRECTS, userAgent } from './service';

/**
 * Third-party thumbnails (og:image and the like) served from our origin: fetched once through the
 * SSRF-guarded fetcher, decoded and re-encoded as a WebP at most 800 px wide (EXIF dropped,
 * first frame of an animation), kept in the object storage under a key derived from the URL.
 * Readers' browsers never contact the third party, and never get its bytes as sent.
 */

/** Bodies larger than this are not images we show (a cut image is refused, not decoded). */
export const PROXY_MAX_BYTES = 10 * 1024 * 1024;
export const PROXY_MAX_WIDTH = 800;
/** A URL that failed is not fetched again for this long (per process). */
export const PROXY_FAILURE_TTL_MS = 10 * 60 * 1000;
export const PROXY_FAILURE_ENTRIES = 2000;
/** Fetches and decodes running at once (each may hold 10 MB plus the decoded pixels). */
export const PROXY_CONCURRENCY = 6;

const ACCEPT = 'image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,image/*;q=0.5';

/** The formats we decode: what browsers show as photos. SVG (and anything else) never reaches sharp. */
export type RasterFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'avif';

/**
 * The raster format the bytes start with, or null. Decided on magic bytes before any decoder
 * sees the input, so an SVG (which librsvg would render, resolving references) is never parsed
 * whatever its Content-Type says; a header that also carries `<svg` (a polyglot) is refused too.
 */
export function rasterFormat(bytes: Buffer): RasterFormat | null {
  if (bytes.subarray(0, 1024).toString('latin1').toLowerCase().includes('<svg')) return null;
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1');
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(4, 8) === 'ftyp' && bytes.length >= 12) {
    // ISO-BMFF: the major brand, then the compatible brands up to the end of the ftyp box.
    const end = Math.min(bytes.readUInt32BE(0), bytes.length, 256);
    const brands = [ascii(8, 12)];
    for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(at, at + 4));
    if (brands.includes('avif') || brands.includes('avis')) return 'avif';
  }
  return null;
}

/** The URL of a `url` query parameter as we fetch and key it (absolute http(s)), or null. */
export function proxiedUrl(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > URL_MAX_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}

/** Where the WebP of a URL is kept: proxy/<2 hex>/<sha256 of the URL without its fragment>.webp. */
export function proxyStorageKey(url: string): string {
  const hash = createHash('sha256').update(withoutFragment(url)).digest('hex');
  return `proxy/${hash.slice(0, 2)}/${hash}.webp`;
}

const withoutFragment = (url: string) => url.split('#')[0] as string;

export const imageEtag = (image: Buffer) => `"${createHash('sha256').update(image).digest('base64url').slice(0, 27)}"`;

export type ProxyFailure =
  /** The address may not be fetched (SSRF rules). */
  | 'refused'
  /** Fetch failed, not 2xx, not an image, too large, or undecodable. */
  | 'unavailable'
  /** Not in the cache, and this request may not make us fetch it. */
  | 'not-allowed';

export type ProxyResult = { ok: true; image: Buffer; etag: string } | { ok: false; reason: ProxyFailure };

interface Logger {
  warn(obj: object, msg: string): void;
}

export interface ImageProxyOptions {
  storage: ObjectStorage;
  /** PREVIEW_ALLOW_PRIVATE: lift the address and port rules (tests only). */
  allowPrivate: boolean;
  timeoutMs: number;
  publicUrl: string;
  log?: Logger;
  now?: () => number;
  /** For tests: the hop policy and DNS resolver (default: public-only and the system's). */
  policy?: HopPolicy;
  resolve?: Resolver;
}

export interface ImageProxy {
  /**
   * The WebP of an http(s) URL (see proxiedUrl): from the storage, else fetched and re-encoded
   * if `mayFetch()` agrees. Failures are remembered for PROXY_FAILURE_TTL_MS; requests for a URL
   * being fetched share that fetch.
   */
  get(url: string, mayFetch: () => Promise<boolean>): Promise<ProxyResult>;
}

class Unavailable extends Error {}

export function createImageProxy(opts: ImageProxyOptions): ImageProxy {
  const now = opts.now ?? Date.now;
  const limit = limiter(PROXY_CONCURRENCY);
  const inFlight = new Map<string, Promise<ProxyResult>>();
  const failures = new Map<string, { until: number; reason: ProxyFailure }>();

  const fetchImage = (url: string): Promise<FetchedPage> =>
    safeFetch(url, {
      policy: opts.policy ?? (opts.allowPrivate ? anyAddress : publicOnly),
      resolve: opts.resolve,
      timeoutMs: opts.timeoutMs,
      // One byte over the limit tells a too-large body from one of exactly the limit.
      maxBytes: PROXY_MAX_BYTES + 1,
      maxRedirects: PREVIEW_MAX_REDIRECTS,
      headers: { 'user-agent': userAgent(opts.publicUrl), accept: ACCEPT },
      wantBody: (status, mediaType) => status >= 200 && status < 300 && mediaType.startsWith('image/'),
    });

  function remember(key: string, reason: ProxyFailure) {
    failures.delete(key);
    if (failures.size >= PROXY_FAILURE_ENTRIES) failures.delete(failures.keys().next().value as string);
    failures.set(key, { until: now() + PROXY_FAILURE_TTL_MS, reason });
  }

  function recalled(key: string): ProxyFailure | null {
    const failure = failures.get(key);
    if (!failure) return null;
    if (failure.until > now()) return failure.reason;
    failures.delete(key);
    return null;
  }

  async function load(url: string, key: string): Promise<ProxyResult> {
    let image: Buffer;
    try {
      const page = await fetchImage(url);
      const ok = page.status >= 200 && page.status < 300 && page.mediaType.startsWith('image/');
      if (!ok || page.truncated || !rasterFormat(page.body)) throw new Unavailable();
      image = await reencodeImage(page.body, { width: PROXY_MAX_WIDTH, withoutEnlargement: true });
    } catch (err) {
      const reason = err instanceof FetchRefusedError ? 'refused' : 'unavailable';
      const expected = err instanceof FetchRefusedError || err instanceof FetchFailedError;
      if (!expected && !(err instanceof Unavailable || err instanceof NotAnImageError)) {
        opts.log?.warn({ err, url }, 'image proxy: fetch failed');
      }
      remember(key, reason);
      return { ok: false, reason };
    }
    try {
      await opts.storage.put(proxyStorageKey(url), image);
    } catch (err) {
      // The image is still good; only the cache missed out.
      opts.log?.warn({ err, url }, 'image proxy: cache write failed');
    }
    return { ok: true, image, etag: imageEtag(image) };
  }

  return {
    async get(url, mayFetch) {
      const key = withoutFragment(url);
      const pending = inFlight.get(key);
      if (pending) return pending;
      const stored = await opts.storage.get(proxyStorageKey(url));
      if (stored) return { ok: true, image: stored, etag: imageEtag(stored) };
      const failed = recalled(key);
      if (failed) return { ok: false, reason: failed };
      if (!(await mayFetch())) return { ok: false, reason: 'not-allowed' };
      let started = inFlight.get(key);
      if (!started) {
        started = limit(() => load(url, key)).finally(() => inFlight.delete(key));
        inFlight.set(key, started);
      }
      return started;
    },
  };
}
