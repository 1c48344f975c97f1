import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiRoutes } from '../../shared/api/routes';
import { SUPERCURATION_MESSAGES, type Supercuration, UNKNOWN_USER_NAME, absoluteImageUrl, paths } from '../../shared/domain';
import { pathOf } from '../../shared/api/endpoints';
import type { Db } from '../db';
import { collectionFeed } from '../feeds/links';
import { RSS_CONTENT_TYPE, renderRss } from '../feeds/rss';
import { notFound } from '../errors';
import { declared, zodRoutes } from './api-route';
import { addCollaborator, removeCollaborator, searchCollaborators } from '../services/collaborators';
import { followSupercuration, unfollowSupercuration } from '../services/supercuration-follows';
import { previewsLeftIn } from '../services/import-previews';
import { countBrokenInCollection } from '../services/link-checks';
import { addResource, removeResource, setResourceTags } from '../services/resources';
import {
  createSupercuration,
  deleteSupercuration,
  getSupercuration,
  listSupercurations,
  supercurationChoices,
  updateSupercuration,
} from '../services/supercurations';
import { addTag, createTagCategory, deleteTagCategory, removeTag, updateTagCategory } from '../services/tag-categories';
import type { SessionReader } from './session';
import type { VisitorReads } from './visitor-reads';
import type { MetaPage } from './web-routes';

interface Deps {
  db: Db;
  session: SessionReader;
  publicUrl: string;
  reads: VisitorReads;
}

/**
 * Supercurations: collections, resources, tag categories, collaborators, e-mail
 * subscribers, the directory. Input is declared in the shared route table; rules live in
 * server/policies and are applied by the services. Writes by visitors get 401 with SPEC §8's texts.
 */
export function registerSupercurationRoutes(app: FastifyInstance, { db, session, publicUrl, reads }: Deps): void {
  const api = zodRoutes(app);
  const r = apiRoutes;
  const viewer = (req: FastifyRequest) => session.requireViewer(req);

  // Collections
  api.route({
    ...declared(r.listSupercurations, session),
    handler: async (req) => listSupercurations(db, await viewer(req), req.query),
  });

  api.route({
    ...declared(r.supercurationChoices, session),
    handler: async (req) => supercurationChoices(db, await viewer(req)),
  });

  api.route({
    ...declared(r.directory, session),
    handler: async (req) => reads.directory(await session.viewerOf(req), req),
  });

  /** A user's public collections (their profile), open to anyone. */
  api.route({
    ...declared(r.userSupercurations, session),
    handler: async (req) => reads.userSupercurations(await session.viewerOf(req), req),
  });

  api.route({
    ...declared(r.publicSupercuration, session),
    handler: async (req) => reads.publicSupercuration(await session.viewerOf(req), req),
  });

  api.route({
    ...declared(r.getSupercuration, session),
    handler: async (req) => getSupercuration(db, await session.viewerOf(req), req.params.id),
  });

  /** "Fetching previews: n left" on a collection its editors filled by an import. */
  api.route({
    ...declared(r.supercurationPreviewsLeft, session),
    handler: async (req) => ({ left: await previewsLeftIn(db.kysely, await viewer(req), req.params.id) }),
  });

  /** "Broken links (n)" on a collection, for its editors. */
  api.route({
    ...declared(r.supercurationBrokenCount, session),
    handler: async (req) => ({ count: await countBrokenInCollection(db.kysely, await viewer(req), req.params.id) }),
  });

  api.route({
    ...declared(r.createSupercuration, session),
    handler: async (req, reply) => reply.status(201).send(await createSupercuration(db, await viewer(req), req.body)),
  });

  api.route({
    ...declared(r.updateSupercuration, session),
    handler: async (req) => updateSupercuration(db, await viewer(req), req.params.id, req.body),
  });

  api.route({
    ...declared(r.deleteSupercuration, session),
    handler: async (req, reply) => {
      await deleteSupercuration(db, await viewer(req), req.params.id);
      return reply.status(204).send();
    },
  });

  api.route({
    ...declared(r.followSupercuration, session),
    handler: async (req) => followSupercuration(db, await viewer(req), req.params.id),
  });

  api.route({
    ...declared(r.unfollowSupercuration, session),
    handler: async (req) => unfollowSupercuration(db, await viewer(req), req.params.id),
  });

  // Resources
  api.route({
    ...declared(r.listResources, session),
    handler: async (req) => reads.listResources(await session.viewerOf(req), req),
  });

  api.route({
    ...declared(r.addResource, session),
    handler: async (req, reply) => reply.status(201).send(await addResource(db, await viewer(req), req.params.id, req.body)),
  });

  api.route({
    ...declared(r.setResourceTags, session),
    handler: async (req) => setResourceTags(db, await viewer(req), req.params.id, req.params.linkId, req.body.tags),
  });

  api.route({
    ...declared(r.removeResource, session),
    handler: async (req, reply) => {
      await removeResource(db, await viewer(req), req.params.id, req.params.linkId);
      return reply.status(204).send();
    },
  });

  // Tag categories and tags
  api.route({
    ...declared(r.createTagCategory, session),
    handler: async (req, reply) => reply.status(201).send(await createTagCategory(db, await viewer(req), req.params.id)),
  });

  api.route({
    ...declared(r.updateTagCategory, session),
    handler: async (req) => updateTagCategory(db, await viewer(req), req.params.id, req.params.categoryId, req.body),
  });

  api.route({
    ...declared(r.deleteTagCategory, session),
    handler: async (req, reply) => {
      await deleteTagCategory(db, await viewer(req), req.params.id, req.params.categoryId);
      return reply.status(204).send();
    },
  });

  api.route({
    ...declared(r.addTag, session),
    handler: async (req, reply) =>
      reply.status(201).send(await addTag(db, await viewer(req), req.params.id, req.params.categoryId, req.body.name)),
  });

  api.route({
    ...declared(r.removeTag, session),
    handler: async (req) => removeTag(db, await viewer(req), req.params.id, req.params.categoryId, req.params.name),
  });

  // Collaborators
  api.route({
    ...declared(r.searchCollaborators, session),
    handler: async (req) => searchCollaborators(db, await viewer(req), req.params.id, req.query.q),
  });

  api.route({
    ...declared(r.addCollaborator, session),
    handler: async (req, reply) => reply.status(201).send(await addCollaborator(db, await viewer(req), req.params.id, req.body.userId)),
  });

  api.route({
    ...declared(r.removeCollaborator, session),
    handler: async (req, reply) => {
      await removeCollaborator(db, await viewer(req), req.params.id, req.params.userId);
      return reply.status(204).send();
    },
  });

  /** RSS 2.0 of a public collection's 50 newest resources; private or missing → 404. */
  app.get<{ Params: { slug: string } }>('/supercurations/public/:slug/feed.xml', async (req, reply) => {
    const channel = await collectionFeed(db, publicUrl, req.params.slug);
    if (!channel) throw notFound(SUPERCURATION_MESSAGES.publicNotFound);
    return reply
      .header('content-type', RSS_CONTENT_TYPE)
      .send(renderRss(channel));
  });

  // /s/{slug}, the short address on directory cards, is the public collection page.
  app.get<{ Params: { slug: string } }>('/s/:slug', async (req, reply) =>
    reply.redirect(paths.publicSupercuration(req.params.slug), 301),
  );
}

/**
 * The public collection page (/supercurations/public/{slug}) as unfurlers see it; private or
 * missing → 404. Its head shows the collection its server render shows: one read for both.
 */
export function publicSupercurationPage(publicUrl: string): MetaPage {
  return {
    path: '/supercurations/public/:slug',
    async meta({ slug = '' }, read) {
      const answer = await read(pathOf(apiRoutes.publicSupercuration.url, { slug }));
      if (answer.status !== 200) return null;
      const collection = JSON.parse(answer.body) as Supercuration;
      // The API answers a curator without a name as UNKNOWN_USER_NAME; the head then names no one.
      const curator = collection.user.name === UNKNOWN_USER_NAME ? '' : ` by ${collection.user.name}`;
      return {
        title: collection.title,
        description: collection.description || `A supercuration${curator} on Supercurate`,
        image: absoluteImageUrl(publicUrl, collection.thumbnailUrl),
        url: `${publicUrl}${paths.publicSupercuration(slug)}`,
        feeds: [{ title: collection.title, url: `${publicUrl}${paths.collectionFeed(slug)}` }],
      };
    },
  };
}
