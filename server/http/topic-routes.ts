import type { FastifyInstance } from 'fastify';
import { topicInputSchema, topicUpdateSchema } from '../../shared/domain';
import type { Db } from '../db';
import { createTopic, deleteTopic, listTopics, updateTopic } from '../services/topics';
import type { SessionReader } from './session';

interface Deps {
  db: Db;
  session: SessionReader;
}

type IdParams = { Params: { id: string } };

/** The signed-in user's own topics (Manage Topics): list, add, rename/recolour, delete. */
export function registerTopicRoutes(app: FastifyInstance, { db, session }: Deps): void {
  app.get('/api/topics', async (req) => {
    const viewer = await session.requireViewer(req);
    return listTopics(db, viewer.id);
  });

  app.post('/api/topics', async (req, reply) => {
    const viewer = await session.requireViewer(req);
    return reply.status(201).send(await createTopic(db, viewer.id, topicInputSchema.parse(req.body ?? {})));
  });

  app.patch<IdParams>('/api/topics/:id', async (req) => {
    const viewer = await session.requireViewer(req);
    return updateTopic(db, viewer.id, req.params.id, topicUpdateSchema.parse(req.body ?? {}));
  });

  app.delete<IdParams>('/api/topics/:id', async (req, reply) => {
    const viewer = await session.requireViewer(req);
    await deleteTopic(db, viewer.id, req.params.id);
    return reply.status(204).send();
  });
}
