import type { FastifyInstance } from 'fastify';
import { apiRoutes } from '../../shared/api/routes';
import { LINK_MESSAGES, URL_MAX_LENGTH, absoluteImageUrl, normalizeUrl, paths } from '../../shared/domain';
import type { Db } from '../db';
import { listLinks } from '../services/feed';
import { toggleLike } from '../services/likes';
import { countBrokenLinks, markLinkFine } from '../services/link-checks';
import { repostLink } from '../services/reposts';
import {
  createLink,
  deleteLink,
  findOwnLinkByUrl,
  getLinkPageMeta,
  updateLink,
} from '../services/links';
import { badRequest, notFound } from '../errors';
import { declared, zodRoutes } from './api-route';
import type { Extractor } from '../readable/extractor';
import type { SessionReader } from './session';
import type { VisitorReads } from './visitor-reads';
import type { MetaPage } from './web-routes';

/** Bytes a share's JSON body may have with its readable copy (the other routes take 1 MB). */
const SHARE_BODY_LIMIT = 8 * 1024 * 1024;

interface Deps {
  db: Db;
  session: SessionReader;
  reads: VisitorReads;
  extractor: Pick<Extractor, 'article'>;
}

/** Links, likes and reposts. Input is declared in the shared route table; rules live in the services. */
export function registerLinkRoutes(app: FastifyInstance, { db, session, reads, extractor }: Deps): void {
  const api = zodRoutes(app);
  const { listLinks: list, lookupLink, getLink: get, createLink: create, updateLink: update, deleteLink: remove, toggleLike: like, repost } = apiRoutes;

  api.route({
    ...declared(list, session),
    handler: async (req) => listLinks(db, await session.requireViewer(req), req.query),
  });

  // The viewer's own link with this URL (normalised as when sharing), for the extension's badge and edit mode.
  api.route({
    ...declared(lookupLink, session),
    handler: async (req) => {
      const viewer = await session.requireViewer(req);
      const raw = req.query.url;
      const url = typeof raw === 'string' && raw.length <= URL_MAX_LENGTH ? normalizeUrl(raw) : null;
      if (!url) throw badRequest(LINK_MESSAGES.onlyHttpUrls);
      const link = await findOwnLinkByUrl(db, viewer, url);
      if (!link) throw notFound(LINK_MESSAGES.linkNotFound);
      return link;
    },
  });

  api.route({
    ...declared(get, session),
    handler: async (req) => reads.getLink(await session.viewerOf(req), req),
  });

  api.route({
    ...declared(create, session),
    // A share may carry the extension's readable copy: READABLE_UPLOAD_MAX_CHARS of HTML, up to 3 bytes each, escaped.
    bodyLimit: SHARE_BODY_LIMIT,
    handler: async (req, reply) => {
      const viewer = await session.requireViewer(req);
      const { readable, ...input } = req.body;
      // A copy that cannot be read (the extractor failed) leaves the page to the server's own fetch.
      const copy = readable && input.url ? await extractor.article(readable.html, new URL(input.url), readable.lang ?? null).catch(() => null) : null;
      return reply.status(201).send(await createLink(db, viewer, input, copy));
    },
  });

  api.route({
    ...declared(update, session),
    handler: async (req) => updateLink(db, await session.requireViewer(req), req.params.id, req.body),
  });

  api.route({
    ...declared(remove, session),
    handler: async (req, reply) => {
      await deleteLink(db, await session.requireViewer(req), req.params.id);
      return reply.status(204).send();
    },
  });

  api.route({
    ...declared(like, session),
    handler: async (req) => toggleLike(db, await session.requireViewer(req), req.params.id),
  });

  api.route({
    ...declared(repost, session),
    handler: async (req, reply) => reply.status(201).send(await repostLink(db, await session.requireViewer(req), req.params.id)),
  });

  /** "Mark as fine" on a broken link; "Broken links (n)" of My Feed. */
  api.route({
    ...declared(apiRoutes.markLinkFine, session),
    handler: async (req, reply) => {
      await markLinkFine(db, await session.requireViewer(req), req.params.id);
      return reply.status(204).send();
    },
  });

  api.route({
    ...declared(apiRoutes.brokenLinkCount, session),
    handler: async (req) => ({ count: await countBrokenLinks(db.kysely, await session.requireViewer(req)) }),
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
