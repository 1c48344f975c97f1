import type { FastifyInstance } from 'fastify';
import { MSG } from '../../shared/domain';
import type { Db } from '../db';
import { accountExportName, exportAccount } from '../services/account-export';
import { notFound } from '../errors';
import type { SessionReader } from './session';

interface Deps {
  db: Db;
  session: SessionReader;
}

/**
 * The account routes of our own: the rest of the account's lifecycle (password,
 * verification, sessions, deletion) is Better Auth's, mounted in auth-routes.ts.
 */
export function registerAccountRoutes(app: FastifyInstance, { db, session }: Deps): void {
  /** "Export my data": one JSON file (an attachment) of everything the account holds. */
  app.get('/api/me/export', async (req, reply) => {
    const viewer = await session.requireViewer(req);
    const data = await exportAccount(db, viewer.id);
    if (!data) throw notFound(MSG.userNotFound);
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${accountExportName()}"`)
      .header('cache-control', 'private, no-store')
      .send(JSON.stringify(data, null, 2));
  });
}
