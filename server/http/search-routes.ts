import type { FastifyInstance } from 'fastify';
import { apiRoutes } from '../../shared/api/routes';
import type { Db } from '../db';
import { searchLinks } from '../services/link-search';
import { declared, zodRoutes } from './api-route';
import type { SessionReader } from './session';

interface Deps {
  db: Db;
  session: SessionReader;
}

/** Personal search (issue 23): the signed-in user's links and their collections' resources. */
export function registerSearchRoutes(app: FastifyInstance, { db, session }: Deps): void {
  zodRoutes(app).route({
    ...declared(apiRoutes.search, session),
    handler: async (req, reply) => {
      const page = await searchLinks(db, await session.requireViewer(req), req.query);
      // Private results: no shared cache may keep them.
      return reply.header('cache-control', 'private, no-store').send(page);
    },
  });
}
