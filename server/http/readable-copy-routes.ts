import type { FastifyInstance } from 'fastify';
import { apiRoutes } from '../../shared/api/routes';
import type { Db } from '../db';
import { readableCopyOf, readableCopySettings, setKeepReadableCopies } from '../services/readable-copies';
import { declared, zodRoutes } from './api-route';
import type { SessionReader } from './session';

interface Deps {
  db: Db;
  session: SessionReader;
}

/** A link's readable copy (reader view) and the account's setting (issue 23). */
export function registerReadableCopyRoutes(app: FastifyInstance, { db, session }: Deps): void {
  const api = zodRoutes(app);

  api.route({
    ...declared(apiRoutes.readableCopy, session),
    handler: async (req, reply) => {
      const copy = await readableCopyOf(db.kysely, await session.viewerOf(req), req.params.id);
      // The copy is the author's: no shared cache may keep it.
      return reply.header('cache-control', 'private, no-store').send(copy);
    },
  });

  api.route({
    ...declared(apiRoutes.readableCopySettings, session),
    handler: async (req) => readableCopySettings(db.kysely, await session.requireViewer(req)),
  });

  api.route({
    ...declared(apiRoutes.setReadableCopySettings, session),
    handler: async (req) => {
      const viewer = await session.requireViewer(req);
      await db.kysely.transaction().execute((trx) => setKeepReadableCopies(trx, viewer, req.body.keep, new Date().toISOString()));
      return readableCopySettings(db.kysely, viewer);
    },
  });
}
