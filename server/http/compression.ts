import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * What we compress on the fly: HTML, JSON, RSS/Atom and other XML, SVG, CSS and JavaScript.
 * Images (WebP thumbnails, uploads) and the gzipped OCR data are compressed already.
 */
const COMPRESSIBLE_TYPE = /^(?:text\/(?!event-stream)|application\/(?:[\w.-]+\+)?(?:json|xml|javascript)\b|image\/svg\+xml\b)/i;

/** Below this, compression saves less than it costs (the compressed answer would barely shrink). */
export const COMPRESS_MIN_BYTES = 1024;

function isCompressible(contentType: unknown): boolean {
  return typeof contentType === 'string' && COMPRESSIBLE_TYPE.test(contentType);
}

/**
 * Brotli (quality 4, @fastify/compress's default: cheap enough per request) or gzip for text
 * responses of at least 1 KiB. Files with a precompressed sibling are sent as is by
 * @fastify/static (`preCompressed`), which sets Content-Encoding, so they are not compressed twice.
 *
 * Every compressible response says `Vary: accept-encoding`, compressed or not: a shared cache
 * that stored the plain answer to a client without brotli must not hand it on as the only one.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_MIN_BYTES,
    customTypes: isCompressible,
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (isCompressible(reply.getHeader('content-type'))) {
      const vary = reply.getHeader('vary');
      const current = Array.isArray(vary) ? vary.join(', ') : String(vary ?? '');
      if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(current)) {
        reply.header('vary', current ? `${current}, accept-encoding` : 'accept-encoding');
      }
    }
    done(null, payload);
  });
}
