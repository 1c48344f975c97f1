import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyRequest } from 'fastify';
import { MSG } from '../../shared/domain';
import type { Auth } from '../auth';
import type { Viewer } from '../policies/viewer';
import { unauthorized } from './errors';

/** Resolves the signed-in user of a request from its session cookie. */
export function sessionReader(auth: Auth) {
  async function viewerOf(req: FastifyRequest): Promise<Viewer | null> {
    const session = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) });
    return session ? { id: session.user.id, email: session.user.email, name: session.user.name } : null;
  }
  async function requireViewer(req: FastifyRequest, message: string = MSG.notAuthenticated): Promise<Viewer> {
    const viewer = await viewerOf(req);
    if (!viewer) throw unauthorized(message);
    return viewer;
  }
  return { viewerOf, requireViewer };
}

export type SessionReader = ReturnType<typeof sessionReader>;
