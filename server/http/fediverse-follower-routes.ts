import type { FastifyInstance } from 'fastify';
import { apiRoutes } from '../../shared/api/routes';
import type { Db } from '../db';
import { ownerFediverseFollowers, removeFediverseFollower, removeMyFediverseFollower } from '../services/fediverse';
import { declared, zodRoutes } from './api-route';
import type { SessionReader } from './session';

/**
 * A curator's followers on other servers, theirs and their collections' (issue 21): listed on the
 * dashboard, removed one by one (the follower's server is sent a Reject). Registered with or without FEDERATION: followers
 * kept from a time it was on stay the owner's to see and remove.
 */
export function registerFediverseFollowerRoutes(app: FastifyInstance, { db, session }: { db: Db; session: SessionReader }): void {
  const api = zodRoutes(app);
  api.route({
    ...declared(apiRoutes.myFediverseFollowers, session),
    handler: async (req, reply) => {
      const viewer = await session.requireViewer(req);
      reply.header('cache-control', 'private, no-store');
      return ownerFediverseFollowers(db, viewer.id);
    },
  });
  api.route({
    ...declared(apiRoutes.removeFediverseFollower, session),
    handler: async (req, reply) => {
      await removeFediverseFollower(db, await session.requireViewer(req), req.params.id, req.query.actor);
      return reply.status(204).send();
    },
  });
  api.route({
    ...declared(apiRoutes.removeMyFediverseFollower, session),
    handler: async (req, reply) => {
      await removeMyFediverseFollower(db, await session.requireViewer(req), req.query.actor);
      return reply.status(204).send();
    },
  });
}
