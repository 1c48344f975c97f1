import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LINK_MESSAGES, MSG, URL_MAX_LENGTH, normalizeUrl } from '../../shared/domain';
import type { Config } from '../config';
import type { Db } from '../db';
import type { Viewer } from '../policies/viewer';
import { PreviewRefusedError, createPreviewService } from '../preview/service';
import { badRequest, unauthorized } from '../errors';
import type { SessionReader } from './session';

interface Deps {
  db: Db;
  session: SessionReader;
  config: Config;
}

/** Previews each signed-in user (or, before sign-in is known, client address) may ask for per minute. */
export const PREVIEW_RATE_LIMIT = 60;

/**
 * GET /api/preview?url= — the link preview of SPEC §3/§7, fetched by our server (SSRF-guarded,
 * cached). Signed-in users only, so the server is no open fetch proxy; rate limited per user.
 */
export function registerPreviewRoutes(app: FastifyInstance, { db, session, config }: Deps): void {
  const previews = createPreviewService({
    db,
    allowPrivate: config.previewAllowPrivate,
    timeoutMs: config.previewTimeoutMs,
    publicUrl: config.publicUrl,
    log: app.log,
  });

  // The rate limiter (onRequest) and the handler both need the viewer: look it up once.
  const viewers = new WeakMap<FastifyRequest, Promise<Viewer | null>>();
  const viewerOf = (req: FastifyRequest) => {
    let viewer = viewers.get(req);
    if (!viewer) {
      viewer = session.viewerOf(req);
      viewers.set(req, viewer);
    }
    return viewer;
  };

  app.get<{ Querystring: { url?: unknown } }>(
    '/api/preview',
    {
      config: {
        rateLimit: {
          max: PREVIEW_RATE_LIMIT,
          timeWindow: '1 minute',
          keyGenerator: async (req: FastifyRequest) => {
            const viewer = await viewerOf(req).catch(() => null);
            return viewer ? `preview:user:${viewer.id}` : `preview:ip:${req.ip}`;
          },
        },
      },
    },
    async (req) => {
      const viewer = await viewerOf(req);
      if (!viewer) throw unauthorized(MSG.notAuthenticated);
      const raw = req.query.url;
      const url = typeof raw === 'string' && raw.length <= URL_MAX_LENGTH ? normalizeUrl(raw) : null;
      if (!url) throw badRequest(LINK_MESSAGES.onlyHttpUrls, 'INVALID_URL');
      try {
        return await previews.get(url);
      } catch (err) {
        if (err instanceof PreviewRefusedError) throw badRequest(LINK_MESSAGES.previewRefused, 'PREVIEW_REFUSED');
        throw err;
      }
    },
  );
}
