import type { FastifyInstance } from 'fastify';
import {
  createLinkSchema,
  LINK_MESSAGES,
  linkListQuerySchema,
  normalizeUrl,
  paths,
  updateLinkSchema,
  URL_MAX_LENGTH,
} from '../../shared/domain';
import type { Db } from '../db';
import { listLinks } from '../services/feed';
import { toggleLike } from '../services/likes';
import { repostLink } from '../services/reposts';
import {
  createLink,
  deleteLink,
  findOwnLinkByUrl,
  getLink,
  getLinkPageMeta,
  updateLink,
} from '../services/links';
import { badRequest, notFound } from '../errors';
import type { SessionReader } from './session';
import { type MetaPage, absoluteImageUrl } from './web-routes';

interface Deps {
  db: Db;
  session: SessionReader;
}

type IdParams = { Params: { id: string } };

/** Links, likes and reposts (issue 3). Input is parsed with the shared schemas; rules live in the services. */
export function registerLinkRoutes(app: FastifyInstance, { db, session }: Deps): void {
  app.get('/api/links', async (req) => {
    const viewer = await session.requireViewer(req);
    return listLinks(db, viewer, linkListQuerySchema.parse(req.query ?? {}));
  });

  // The viewer's own link with this URL (normalised as when sharing), for the extension's badge and edit mode.
  app.get<{ Querystring: { url?: unknown } }>('/api/links/lookup', async (req) => {
    const viewer = await session.requireViewer(req);
    const raw = req.query?.url;
    const url = typeof raw === 'string' && raw.length <= URL_MAX_LENGTH ? normalizeUrl(raw) : null;
    if (!url) throw badRequest(LINK_MESSAGES.onlyHttpUrls);
    const link = await findOwnLinkByUrl(db, viewer, url);
    if (!link) throw notFound(LINK_MESSAGES.linkNotFound);
    return link;
  });

  app.get<IdParams>('/api/links/:id', async (req) => {
    const link = await getLink(db, req.params.id, await session.viewerOf(req));
    if (!link) throw notFound(LINK_MESSAGES.linkNotFound);
    return link;
  });

  app.post('/api/links', async (req, reply) => {
    const viewer = await session.requireViewer(req, LINK_MESSAGES.mustLogInToShare);
    const link = await createLink(db, viewer, createLinkSchema.parse(req.body));
    return reply.status(201).send(link);
  });

  app.patch<IdParams>('/api/links/:id', async (req) => {
    const viewer = await session.requireViewer(req, LINK_MESSAGES.mustLogInToUpdate);
    return updateLink(db, viewer, req.params.id, updateLinkSchema.parse(req.body));
  });

  app.delete<IdParams>('/api/links/:id', async (req, reply) => {
    const viewer = await session.requireViewer(req, LINK_MESSAGES.mustLogInToDelete);
    await deleteLink(db, viewer, req.params.id);
    return reply.status(204).send();
  });

  app.post<IdParams>('/api/links/:id/like', async (req) => {
    const viewer = await session.requireViewer(req, LINK_MESSAGES.mustLogInToLike);
    return toggleLike(db, viewer, req.params.id);
  });

  app.post<IdParams>('/api/links/:id/repost', async (req, reply) => {
    const viewer = await session.requireViewer(req, LINK_MESSAGES.mustLogInToRepost);
    return reply.status(201).send(await repostLink(db, viewer, req.params.id));
  });
}

/** The link detail page (/links/{id}) as unfurlers see it: the link's title, description and thumbnail. */
export function linkPage(db: Db, publicUrl: string): MetaPage {
  return {
    path: '/links/:id',
    async meta({ id = '' }) {
      const link = await getLinkPageMeta(db, id);
      if (!link) return null;
      return {
        title: link.title,
        description: link.description,
        image: absoluteImageUrl(publicUrl, link.thumbnail_url),
        url: `${publicUrl}${paths.link(id)}`,
      };
    },
  };
}
