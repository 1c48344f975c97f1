import type { FastifyInstance } from 'fastify';
import { LINK_MESSAGES } from '../../shared/domain';
import type { Db } from '../db';
import { shareLinks } from '../services/batch-share';
import type { SessionReader } from './session';

interface Deps {
  db: Db;
  session: SessionReader;
}

/** Import (issue 6): sharing many found URLs at once. */
export function registerImportRoutes(app: FastifyInstance, { db, session }: Deps): void {
  /** { items: [{ url, title, description, thumbnailUrl? }] (1..100), supercurationIds?, format?, inMainFeed? } → 201 { links }. */
  app.post('/api/links/batch', async (req, reply) => {
    const viewer = await session.requireViewer(req, LINK_MESSAGES.mustLogInToShare);
    const links = await shareLinks(db, viewer, req.body);
    return reply.status(201).send({ links });
  });
}
