import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiRoutes } from '../../shared/api/routes';
import type { Db } from '../db';
import { createTopic, deleteTopic, listTopics, updateTopic } from '../services/topics';
import { declared, zodRoutes } from './api-route';
import type { SessionReader } from './session';

interface Deps {
  db: Db;
  session: SessionReader;
}

/** The signed-in user's own topics (Manage Topics): list, add, rename/recolour, delete. */
export function registerTopicRoutes(app: FastifyInstance, { db, session }: Deps): void {
  const api = zodRoutes(app);
  const viewerId = async (req: FastifyRequest) => (await session.requireViewer(req)).id;

  api.route({
    ...declared(apiRoutes.listTopics, session),
    handler: async (req) => listTopics(db, await viewerId(req)),
  });

  api.route({
    ...declared(apiRoutes.createTopic, session),
    handler: async (req, reply) => reply.status(201).send(await createTopic(db, await viewerId(req), req.body)),
  });

  api.route({
    ...declared(apiRoutes.updateTopic, session),
    handler: async (req) => updateTopic(db, await viewerId(req), req.params.id, req.body),
  });

  api.route({
    ...declared(apiRoutes.deleteTopic, session),
    handler: async (req, reply) => {
      await deleteTopic(db, await viewerId(req), req.params.id);
      return reply.status(204).send();
    },
  });
}
