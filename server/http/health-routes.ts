import type { FastifyInstance } from 'fastify';
import { apiRoutes } from '../../shared/api/routes';
import type { Db } from '../db';
import { schemaVersion } from '../db/migrate';
import { APP_VERSION } from '../version';

export function registerHealthRoutes(app: FastifyInstance, db: Db): void {
  // Liveness for load balancers: answers without touching the database.
  app.get('/api/health/live', async () => ({ status: 'ok' }));

  app.route({
    ...apiRoutes.health,
    handler: async (req, reply) => {
      try {
        // Which release answers, and which migration its database is at (for upgrades and support):
        // reading it is the database check, one round trip.
        return { status: 'ok', database: db.dialect, version: APP_VERSION, schema: await schemaVersion(db) };
      } catch (err) {
        req.log.error({ err }, 'health check: database unreachable');
        return reply
          .status(503)
          .send({ status: 'error', database: db.dialect, version: APP_VERSION, error: 'Database unreachable' });
      }
    },
  });
}
