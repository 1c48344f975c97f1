import type { FastifyRequest } from 'fastify';
import type { HttpError } from '../errors';
import type { SessionReader } from './session';

/**
 * A route's rate limit per signed-in user (per client address before sign-in is known): `max` a
 * minute under the key `name`, answered with `refusal` (default: the app's 429) beyond it.
 */
export function perViewerRateLimit(session: SessionReader, name: string, max: number, refusal?: () => HttpError) {
  return {
    rateLimit: {
      max,
      timeWindow: '1 minute',
      keyGenerator: async (req: FastifyRequest) => {
        const viewer = await session.viewerOf(req).catch(() => null);
        return viewer ? `${name}:user:${viewer.id}` : `${name}:ip:${req.ip}`;
      },
      ...(refusal ? { errorResponseBuilder: refusal } : {}),
    },
  };
}
