import type { FastifyInstance } from 'fastify';
import { API_TOKEN_MESSAGES, createApiTokenSchema } from '../../shared/domain';
import type { Db } from '../db';
import { createApiToken, listApiTokens, revokeApiToken } from '../services/api-tokens';
import { notFound } from '../errors';
import type { SessionReader } from './session';

interface Deps {
  db: Db;
  session: SessionReader;
}

/**
 * My personal access tokens (Settings → API tokens). Each user sees and revokes only their own:
 * another user's token id is 404. Creating and revoking need the session of a signed-in person,
 * not a token (403): a leaked token can't mint more tokens or outlive its revocation.
 */
export function registerApiTokenRoutes(app: FastifyInstance, { db, session }: Deps): void {
  app.get('/api/me/tokens', async (req) => {
    const viewer = await session.requireViewer(req);
    return listApiTokens(db, viewer.id);
  });

  app.post('/api/me/tokens', async (req, reply) => {
    const viewer = await session.requireSessionViewer(req, API_TOKEN_MESSAGES.tokensNeedSession);
    const input = createApiTokenSchema.parse(req.body ?? {});
    return reply.status(201).send(await createApiToken(db, viewer.id, input));
  });

  app.delete<{ Params: { id: string } }>('/api/me/tokens/:id', async (req, reply) => {
    const viewer = await session.requireSessionViewer(req, API_TOKEN_MESSAGES.tokensNeedSession);
    if (!(await revokeApiToken(db, viewer.id, req.params.id))) throw notFound(API_TOKEN_MESSAGES.tokenNotFound);
    return reply.status(204).send();
  });
}
