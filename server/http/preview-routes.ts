import type { FastifyInstance } from 'fastify';
import { apiRoutes } from '../../shared/api/routes';
import { LINK_MESSAGES, URL_MAX_LENGTH, normalizeUrl } from '../../shared/domain';
import { PreviewRefusedError, type PreviewService } from '../preview/service';
import { badRequest } from '../errors';
import { declared, zodRoutes } from './api-route';
import { perViewerRateLimit } from './per-viewer-limit';
import type { SessionReader } from './session';

interface Deps {
  session: SessionReader;
  previews: PreviewService;
}

/** Previews each signed-in user (or, before sign-in is known, client address) may ask for per minute. */
export const PREVIEW_RATE_LIMIT = 60;

/**
 * GET /api/preview?url= — the link preview of SPEC §3/§7, fetched by our server (SSRF-guarded,
 * cached). Signed-in users only, so the server is no open fetch proxy; rate limited per user.
 */
export function registerPreviewRoutes(app: FastifyInstance, { session, previews }: Deps): void {
  zodRoutes(app).route({
    ...declared(apiRoutes.preview, session),
    config: perViewerRateLimit(session, 'preview', PREVIEW_RATE_LIMIT),
    handler: async (req) => {
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
  });
}
