import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { MSG } from '../../shared/domain';
import type { Db } from '../db';
import { accountExportName, exportAccount, exportReadableCopies } from '../services/account-export';
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
    const document = JSON.stringify(data, null, 2);
    // The readable copies go last, streamed: the document's closing brace waits for them.
    async function* body() {
      yield `${document.slice(0, document.lastIndexOf('}')).trimEnd()},\n  "readableCopies": [`;
      let separator = '\n    ';
      for await (const copy of exportReadableCopies(db, viewer.id)) {
        yield `${separator}${JSON.stringify(copy)}`;
        separator = ',\n    ';
      }
      yield '\n  ]\n}\n';
    }
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${accountExportName()}"`)
      .header('cache-control', 'private, no-store')
      .send(Readable.from(body()));
  });
}
