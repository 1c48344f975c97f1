import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * What a visitor's page or read may be kept for (docs/decisions.md, "Caching for visitors"):
 * browsers revalidate every time (a 304 when unchanged), a shared cache (CDN, reverse proxy)
 * serves it for 60 s. So when an owner makes a collection private or deletes it, our server
 * answers 404 at once, the visitor's browser shows it on the next request, and no shared cache
 * shows the collection more than 60 s later. No stale-while-revalidate: browsers apply it too,
 * and would show the collection once more after it turned private.
 */
export const PUBLIC_READ_CACHE_CONTROL = 'public, max-age=0, s-maxage=60';
/** Anything for a signed-in user, and anything not declared public: no cache keeps it. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/**
 * The routes (Fastify route patterns) whose answers to a visitor without a session are the same
 * for every visitor: the public pages, the API reads and feeds they are made of. A 200 of these
 * gets PUBLIC_READ_CACHE_CONTROL and an ETag; what they refuse (a private collection: 404) is
 * never stored.
 */
const PUBLIC_READS = new Set([
  '/',
  '/directory',
  '/supercurations/public/:slug',
  '/links/:id',
  '/profile/:id',
  '/api/directory',
  '/api/supercurations/public/:slug',
  '/api/supercurations/:id/resources',
  '/api/links/:id',
  '/api/users/:id',
  '/api/users/:id/supercurations',
  '/supercurations/public/:slug/feed.xml',
  '/users/:id/feed.xml',
]);

/** True when an If-None-Match header names this ETag (weak comparison, RFC 9110 §13.1.2). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === opaque;
  });
}

/** A weak validator of a body: the same bytes before compression (hence weak) give the same tag. */
export const etagOf = (body: string | Buffer) => `W/"${createHash('sha1').update(body).digest('base64url')}"`;

function addVary(reply: FastifyReply, header: string) {
  const current = reply.getHeader('vary');
  reply.header('vary', current ? `${String(current)}, ${header}` : header);
}

/**
 * Sets Cache-Control on every GET and HEAD answer that has none: public reads for visitors get
 * PUBLIC_READ_CACHE_CONTROL, an ETag and a 304 to a matching If-None-Match (and Vary: cookie, so
 * a shared cache never hands a visitor's copy to someone signed in, and Vary: authorization for
 * API tokens); everything else, and every answer to a request with a session cookie or an
 * Authorization header (a personal access token), is `private, no-store`. Routes that set their own
 * (hashed assets, images, avatars) keep it: they hold nothing private.
 *
 * Register before compression: the ETag is of the uncompressed body.
 */
export function registerCaching(app: FastifyInstance, hasCredentials: (req: FastifyRequest) => boolean): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || reply.hasHeader('cache-control')) {
      done(null, payload);
      return;
    }
    const publicRead = PUBLIC_READS.has(req.routeOptions.url ?? '') && !hasCredentials(req);
    const storable = typeof payload === 'string' || Buffer.isBuffer(payload);
    if (!publicRead || reply.statusCode !== 200 || !storable) {
      reply.header('cache-control', PRIVATE_CACHE_CONTROL);
      done(null, payload);
      return;
    }
    // The body's bytes, made once: hashed here and sent as they are (a string would be encoded to
    // UTF-8 again for its length and for the socket).
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    // A route that knows its body's validator (a server-rendered page kept from an earlier request) sets it.
    const etag = (reply.getHeader('etag') as string | undefined) ?? etagOf(body);
    reply.header('cache-control', PUBLIC_READ_CACHE_CONTROL).header('etag', etag);
    addVary(reply, 'cookie, authorization');
    if (matchesEtag(req.headers['if-none-match'], etag)) {
      reply.code(304).removeHeader('content-type').removeHeader('content-length').removeHeader('content-encoding');
      done(null, '');
      return;
    }
    done(null, body);
  });
}
