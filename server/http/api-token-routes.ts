import type { FastifyInstance } from 'fastify';
import { apiRoutes } from '../../shared/api/routes';
import { API_TOKEN_MESSAGES } from '../../shared/domain';
import type { Db } from '../db';
import { notFound } from '../errors';
import { createApiToken, listApiTokens, revokeApiToken } from '../services/api-tokens';
import { declared, zodRoutes } from './api-route';
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
  const api = zodRoutes(app);

  api.route({
    ...declared(apiRoutes.listApiTokens, session),
    handler: async (req) => listApiTokens(db, (await session.requireViewer(req)).id),
  });

  api.route({
    ...declared(apiRoutes.createApiToken, session),
    handler: async (req, reply) => {
      const viewer = await session.requireViewer(req);
      return reply.status(201).send(await createApiToken(db, viewer.id, req.body));
    },
  });

  api.route({
    ...declared(apiRoutes.revokeApiToken, session),
    handler: async (req, reply) => {
      const viewer = await session.requireViewer(req);
      if (!(await revokeApiToken(db, viewer.id, req.params.id))) throw notFound(API_TOKEN_MESSAGES.tokenNotFound);
      return reply.status(204).send();
    },
  });
}
