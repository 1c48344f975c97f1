import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets for `options`, computed once. @fastify/helmet rebuilds helmet's
 * middleware (and re-parses the CSP) on every request, which cost ~15% of a feed page's CPU;
 * our headers are the same for every response, so they are worked out at start and copied.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/** Sets helmet's headers for `options` on every response. */
export function registerSecurityHeaders(server: FastifyInstance, options: HelmetOptions): void {
  const headers = helmetHeaders(options);
  server.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}
