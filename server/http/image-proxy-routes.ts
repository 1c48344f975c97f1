import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiErrorBody, ImageWidth } from '../../shared/domain';
import type { Config } from '../config';
import type { Db } from '../db';
import { type ProxyFailure, type ProxyResult, createImageProxy, imageEtag, proxiedUrl, proxyStorageKey } from '../preview/image-proxy';
import { type ImageVariants, INVALID_IMAGE_WIDTH, parseImageWidth } from '../services/image-variants';
import { isKnownThumbnail } from '../services/images';
import type { ObjectStorage } from '../storage/uploads';
import { matchesEtag } from './caching';
import { countedInBlocks } from './rate-limit-stores';
import type { SessionReader } from './session';

interface Deps {
  db: Db;
  storage: ObjectStorage;
  session: SessionReader;
  config: Config;
  variants: ImageVariants;
}

/** Proxied images each client address may ask for per minute (a feed page shows dozens). */
export const IMAGE_PROXY_RATE_LIMIT = 300;
/** Hits of that limit counted per database write (see countedInBlocks). */
export const IMAGE_PROXY_BLOCK = 10;

/** Never shown to readers (the answer goes to an <img>), but kept as readable as our other errors. */
export const IMAGE_PROXY_MESSAGES = {
  invalidUrl: 'Only http(s) image URLs can be proxied',
  refused: 'This address cannot be fetched',
  unavailable: 'Image not available',
} as const;

const FAILURES: Record<ProxyFailure, { status: number; error: string; code: string; cacheControl: string }> = {
  refused: { status: 400, error: IMAGE_PROXY_MESSAGES.refused, code: 'IMAGE_REFUSED', cacheControl: 'public, max-age=600' },
  unavailable: {
    status: 404,
    error: IMAGE_PROXY_MESSAGES.unavailable,
    code: 'IMAGE_UNAVAILABLE',
    cacheControl: 'public, max-age=600',
  },
  // The URL may become a link's thumbnail any moment: not cached.
  'not-allowed': { status: 404, error: IMAGE_PROXY_MESSAGES.unavailable, code: 'IMAGE_UNAVAILABLE', cacheControl: 'no-store' },
};

function sendFailure(reply: FastifyReply, status: number, error: string, code: string, cacheControl: string) {
  return reply
    .status(status)
    .header('cache-control', cacheControl)
    .send({ error, code } satisfies ApiErrorBody);
}

/**
 * GET /api/images/proxy?url=[&w=] — a third-party thumbnail served from our origin as a re-encoded
 * WebP (see server/preview/image-proxy.ts), so the CSP keeps `img-src 'self'` and readers'
 * browsers never contact the third party. Public, rate limited per address. It is no open
 * fetch proxy: a visitor only gets images already cached or shown as a stored thumbnail;
 * signed-in users (who preview and type thumbnail URLs) may have any http(s) image fetched.
 * With `w` (320, 640 or 960) the WebP is resized to that width, never enlarged
 * (server/services/image-variants.ts); the same rules decide whether there is an image at all.
 */
export function registerImageProxyRoutes(app: FastifyInstance, { db, storage, session, config, variants }: Deps): void {
  const proxy = createImageProxy({
    storage,
    allowPrivate: config.previewAllowPrivate,
    timeoutMs: config.previewTimeoutMs,
    publicUrl: config.publicUrl,
    log: app.log,
  });

  /** The proxied image (fetched if it may be), resized to `width` when given. */
  async function fromSource(req: FastifyRequest, url: string, width: ImageWidth | undefined): Promise<ProxyResult> {
    const mayFetch = async () => (await session.viewerOf(req)) !== null || (await isKnownThumbnail(db, url));
    const result = await proxy.get(url, mayFetch);
    if (!result.ok || !width) return result;
    const image = await variants.resized(proxyStorageKey(url), width, result.image);
    return image === result.image ? result : { ok: true, image, etag: imageEtag(image) };
  }

  app.get<{ Querystring: { url?: unknown; w?: unknown } }>(
    '/api/images/proxy',
    {
      config: {
        rateLimit: countedInBlocks(
          { max: IMAGE_PROXY_RATE_LIMIT, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => `image-proxy:ip:${req.ip}` },
          IMAGE_PROXY_BLOCK,
        ),
      },
    },
    async (req, reply) => {
      const url = proxiedUrl(req.query.url);
      if (!url) return sendFailure(reply, 400, IMAGE_PROXY_MESSAGES.invalidUrl, 'INVALID_URL', 'public, max-age=86400');
      const width = parseImageWidth(req.query.w);
      if (width === 'invalid') {
        return sendFailure(reply, 400, INVALID_IMAGE_WIDTH.error, INVALID_IMAGE_WIDTH.code, 'public, max-age=86400');
      }
      // A variant is only ever made from its source: whoever may see one may see the other.
      const variant = width ? await variants.cached(proxyStorageKey(url), width) : null;
      const result = variant ? ({ ok: true, image: variant, etag: imageEtag(variant) } as const) : await fromSource(req, url, width);
      if (!result.ok) {
        const f = FAILURES[result.reason];
        return sendFailure(reply, f.status, f.error, f.code, f.cacheControl);
      }
      reply
        .header('cache-control', 'public, max-age=86400')
        .header('etag', result.etag)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox");
      if (matchesEtag(req.headers['if-none-match'], result.etag)) return reply.status(304).send();
      return reply.type('image/webp').send(result.image);
    },
  );
}
