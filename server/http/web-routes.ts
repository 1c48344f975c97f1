import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built web app. Any GET outside /api that names no file gets index.html, and the
 * client router renders the page (or its 'Page not found').
 */
export async function registerWebRoutes(app: FastifyInstance, webDir: string): Promise<void> {
  const built = existsSync(path.join(webDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      setHeaders(res, file) {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const isPage = (req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith('/api/');
    if (!isPage) {
      return reply.status(404).send({ error: `No route ${req.method} ${req.url.split('?')[0]}`, code: 'NOT_FOUND' });
    }
    if (!built) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
