import type { LinkPreview } from '../../shared/domain';
import type { Db } from '../db';
import { type HopPolicy, anyAddress, publicOnly } from './address-policy';
import { deleteExpiredPreviews, readCachedPreview, writeCachedPreview } from './cache';
import { OEMBED_MAX_BYTES, type OEmbedFacts, readOEmbed } from './oembed';
import { decodeDocument, extractMetadata, fallbackPreview, absoluteUrl, isHtml, previewOf } from './metadata';
import { type FetchedPage, FetchFailedError, FetchRefusedError, type Resolver, safeFetch } from './safe-fetch';

export { FetchRefusedError as PreviewRefusedError } from './safe-fetch';

export const PREVIEW_MAX_BYTES = 2 * 1024 * 1024;
export const PREVIEW_MAX_REDIRECTS = 5;
/** A real preview is kept a day; a fallback (page down, nothing to read) only 10 minutes. */
export const PREVIEW_TTL_MS = 24 * 60 * 60 * 1000;
export const FALLBACK_TTL_MS = 10 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

interface Logger {
  warn(obj: object, msg: string): void;
}

export interface PreviewServiceOptions {
  db: Db;
  /** PREVIEW_ALLOW_PRIVATE: lift the address and port rules (tests only). */
  allowPrivate: boolean;
  timeoutMs: number;
  /** Shown to the sites we fetch, with a URL that explains the bot. */
  publicUrl: string;
  log?: Logger;
  now?: () => Date;
  /** For tests: the hop policy and DNS resolver (default: public-only and the system's). */
  policy?: HopPolicy;
  resolve?: Resolver;
  /** For tests: replaces the network fetch entirely (pages and oEmbed answers). */
  fetchPage?: (url: string, kind: 'page' | 'oembed') => Promise<FetchedPage>;
}

export interface PreviewService {
  /** The preview of a normalised http(s) URL. Throws PreviewRefusedError for a refused address. */
  get(url: string): Promise<LinkPreview>;
}

export function userAgent(publicUrl: string): string {
  return `Mozilla/5.0 (compatible; SupercurateBot/1.0; +${publicUrl})`;
}

export function createPreviewService(opts: PreviewServiceOptions): PreviewService {
  const now = opts.now ?? (() => new Date());
  const network = (url: string, kind: 'page' | 'oembed') =>
    safeFetch(url, {
      policy: opts.policy ?? (opts.allowPrivate ? anyAddress : publicOnly),
      resolve: opts.resolve,
      timeoutMs: opts.timeoutMs,
      maxBytes: kind === 'page' ? PREVIEW_MAX_BYTES : OEMBED_MAX_BYTES,
      maxRedirects: PREVIEW_MAX_REDIRECTS,
      headers: {
        'user-agent': userAgent(opts.publicUrl),
        accept: kind === 'page' ? 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' : 'application/json',
        'accept-language': 'en-US,en;q=0.8',
      },
      wantBody: (status, mediaType) =>
        status >= 200 && status < 300 && (kind === 'page' ? isHtml(mediaType) : /json/.test(mediaType)),
    });
  const fetchPage = opts.fetchPage ?? network;

  /** The page's oEmbed answer, or null: it only ever adds to a preview, so any failure is silence. */
  async function oembedOf(endpoint: string | null): Promise<OEmbedFacts | null> {
    if (endpoint === null) return null;
    try {
      const answer = await fetchPage(endpoint, 'oembed');
      if (answer.status < 200 || answer.status >= 300 || answer.truncated) return null;
      return readOEmbed(JSON.parse(Buffer.from(answer.body).toString('utf8')));
    } catch {
      return null;
    }
  }

  // Requests for one URL while it is being fetched share that fetch (per process).
  const inFlight = new Map<string, Promise<LinkPreview>>();
  let lastSweep = 0;

  async function fetchPreview(url: string): Promise<{ preview: LinkPreview; complete: boolean }> {
    let page: FetchedPage;
    try {
      page = await fetchPage(url, 'page');
    } catch (err) {
      if (err instanceof FetchRefusedError) throw err;
      if (!(err instanceof FetchFailedError)) opts.log?.warn({ err, url }, 'link preview: fetch failed');
      return { preview: fallbackPreview(url), complete: false };
    }
    if (page.status < 200 || page.status >= 300) return { preview: fallbackPreview(url), complete: false };
    if (page.mediaType.startsWith('image/')) {
      const image = absoluteUrl(page.url.href, page.url);
      return { preview: fallbackPreview(url, image), complete: image !== null };
    }
    if (!isHtml(page.mediaType)) return { preview: fallbackPreview(url), complete: false };
    const meta = extractMetadata(decodeDocument(page.body, page.contentType), page.url);
    const preview = previewOf(url, meta, await oembedOf(meta.oembedUrl));
    return preview ? { preview, complete: true } : { preview: fallbackPreview(url), complete: false };
  }

  async function store(preview: LinkPreview, complete: boolean): Promise<void> {
    const at = now();
    try {
      await writeCachedPreview(opts.db, preview, at, complete ? PREVIEW_TTL_MS : FALLBACK_TTL_MS);
      if (at.getTime() - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = at.getTime();
        await deleteExpiredPreviews(opts.db, at);
      }
    } catch (err) {
      // The preview is still good; only the cache missed out.
      opts.log?.warn({ err, url: preview.url }, 'link preview: cache write failed');
    }
  }

  async function load(url: string): Promise<LinkPreview> {
    const cached = await readCachedPreview(opts.db, url, now());
    if (cached) return cached;
    const { preview, complete } = await fetchPreview(url);
    await store(preview, complete);
    return preview;
  }

  return {
    async get(url) {
      // The fragment never reaches the site: one cache entry and one fetch for every #anchor.
      const key = url.split('#')[0] as string;
      let pending = inFlight.get(key);
      if (!pending) {
        pending = load(key).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return { ...(await pending), url };
    },
  };
}
