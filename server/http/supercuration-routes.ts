import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  addCollaboratorSchema,
  addResourceSchema,
  collaboratorSearchQuerySchema,
  createSupercurationSchema,
  directoryQuerySchema,
  paths,
  resourceListQuerySchema,
  setResourceTagsSchema,
  SUPERCURATION_MESSAGES,
  supercurationListQuerySchema,
  tagInputSchema,
  updateSupercurationSchema,
  updateTagCategorySchema,
} from '../../shared/domain';
import type { Db } from '../db';
import { collectionFeed } from '../feeds/links';
import { RSS_CONTENT_TYPE, renderRss } from '../feeds/rss';
import { notFound } from '../errors';
import { addCollaborator, removeCollaborator, searchCollaborators } from '../services/collaborators';
import { directory } from '../services/directory';
import { addResource, listResources, removeResource, setResourceTags } from '../services/resources';
import {
  createSupercuration,
  deleteSupercuration,
  getPublicPageMeta,
  getPublicSupercuration,
  getSupercuration,
  listSupercurations,
  supercurationChoices,
  updateSupercuration,
  userPublicSupercurations,
} from '../services/supercurations';
import { addTag, createTagCategory, deleteTagCategory, removeTag, updateTagCategory } from '../services/tag-categories';
import type { SessionReader } from './session';
import { type MetaPage, absoluteImageUrl } from './web-routes';

interface Deps {
  db: Db;
  session: SessionReader;
  publicUrl: string;
}

const userSupercurationsQuerySchema = z.object({ cursor: z.string().max(500).optional() });

type Id = { Params: { id: string } };
type IdLink = { Params: { id: string; linkId: string } };
type IdCategory = { Params: { id: string; categoryId: string } };
type IdCategoryTag = { Params: { id: string; categoryId: string; name: string } };
type IdUser = { Params: { id: string; userId: string } };

/**
 * Supercurations (issue 4): collections, resources, tag categories, collaborators, e-mail
 * subscribers, the directory. Input is parsed with the shared schemas; rules live in
 * server/policies and are applied by the services. Writes by visitors get 401 with SPEC §8's texts.
 */
export function registerSupercurationRoutes(app: FastifyInstance, { db, session, publicUrl }: Deps): void {
  const { mustLogInToCreate, mustLogInToUpdate, mustLogInToRemove } = SUPERCURATION_MESSAGES;
  const editor = (req: Parameters<SessionReader['requireViewer']>[0]) => session.requireViewer(req, mustLogInToUpdate);

  // Collections
  app.get('/api/supercurations', async (req) => {
    const viewer = await session.requireViewer(req);
    return listSupercurations(db, viewer, supercurationListQuerySchema.parse(req.query ?? {}));
  });

  app.get('/api/supercurations/choices', async (req) => supercurationChoices(db, await session.requireViewer(req)));

  app.get('/api/directory', async (req) =>
    directory(db, await session.viewerOf(req), directoryQuerySchema.parse(req.query ?? {})),
  );

  /** A user's public collections (their profile), open to anyone. */
  app.get<{ Params: { id: string }; Querystring: unknown }>('/api/users/:id/supercurations', async (req) => {
    const { cursor } = userSupercurationsQuerySchema.parse(req.query ?? {});
    return userPublicSupercurations(db, await session.viewerOf(req), req.params.id, cursor);
  });

  app.get<{ Params: { slug: string } }>('/api/supercurations/public/:slug', async (req) =>
    getPublicSupercuration(db, await session.viewerOf(req), req.params.slug),
  );

  app.get<Id>('/api/supercurations/:id', async (req) => getSupercuration(db, await session.viewerOf(req), req.params.id));

  app.post('/api/supercurations', async (req, reply) => {
    const viewer = await session.requireViewer(req, mustLogInToCreate);
    return reply.status(201).send(await createSupercuration(db, viewer, createSupercurationSchema.parse(req.body ?? {})));
  });

  app.patch<Id>('/api/supercurations/:id', async (req) =>
    updateSupercuration(db, await editor(req), req.params.id, updateSupercurationSchema.parse(req.body ?? {})),
  );

  app.delete<Id>('/api/supercurations/:id', async (req, reply) => {
    await deleteSupercuration(db, await session.requireViewer(req, mustLogInToRemove), req.params.id);
    return reply.status(204).send();
  });

  // Resources
  app.get<Id>('/api/supercurations/:id/resources', async (req) =>
    listResources(db, await session.viewerOf(req), req.params.id, resourceListQuerySchema.parse(req.query ?? {})),
  );

  app.post<Id>('/api/supercurations/:id/resources', async (req, reply) => {
    const viewer = await editor(req);
    return reply.status(201).send(await addResource(db, viewer, req.params.id, addResourceSchema.parse(req.body ?? {})));
  });

  app.put<IdLink>('/api/supercurations/:id/resources/:linkId', async (req) => {
    const viewer = await editor(req);
    const { tags } = setResourceTagsSchema.parse(req.body ?? {});
    return setResourceTags(db, viewer, req.params.id, req.params.linkId, tags);
  });

  app.delete<IdLink>('/api/supercurations/:id/resources/:linkId', async (req, reply) => {
    await removeResource(db, await editor(req), req.params.id, req.params.linkId);
    return reply.status(204).send();
  });

  // Tag categories and tags
  app.post<Id>('/api/supercurations/:id/tag-categories', async (req, reply) => {
    return reply.status(201).send(await createTagCategory(db, await editor(req), req.params.id));
  });

  app.patch<IdCategory>('/api/supercurations/:id/tag-categories/:categoryId', async (req) => {
    const viewer = await editor(req);
    return updateTagCategory(db, viewer, req.params.id, req.params.categoryId, updateTagCategorySchema.parse(req.body ?? {}));
  });

  app.delete<IdCategory>('/api/supercurations/:id/tag-categories/:categoryId', async (req, reply) => {
    await deleteTagCategory(db, await editor(req), req.params.id, req.params.categoryId);
    return reply.status(204).send();
  });

  app.post<IdCategory>('/api/supercurations/:id/tag-categories/:categoryId/tags', async (req, reply) => {
    const viewer = await editor(req);
    const { name } = tagInputSchema.parse(req.body ?? {});
    return reply.status(201).send(await addTag(db, viewer, req.params.id, req.params.categoryId, name));
  });

  app.delete<IdCategoryTag>('/api/supercurations/:id/tag-categories/:categoryId/tags/:name', async (req) =>
    removeTag(db, await editor(req), req.params.id, req.params.categoryId, req.params.name),
  );

  // Collaborators
  app.get<Id>('/api/supercurations/:id/collaborator-candidates', async (req) => {
    const viewer = await editor(req);
    const { q } = collaboratorSearchQuerySchema.parse(req.query ?? {});
    return searchCollaborators(db, viewer, req.params.id, q);
  });

  app.post<Id>('/api/supercurations/:id/collaborators', async (req, reply) => {
    const viewer = await editor(req);
    const { userId } = addCollaboratorSchema.parse(req.body ?? {});
    return reply.status(201).send(await addCollaborator(db, viewer, req.params.id, userId));
  });

  app.delete<IdUser>('/api/supercurations/:id/collaborators/:userId', async (req, reply) => {
    await removeCollaborator(db, await editor(req), req.params.id, req.params.userId);
    return reply.status(204).send();
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

/** The public collection page (/supercurations/public/{slug}) as unfurlers see it; private or missing → 404. */
export function publicSupercurationPage(db: Db, publicUrl: string): MetaPage {
  return {
    path: '/supercurations/public/:slug',
    async meta({ slug = '' }) {
      const collection = await getPublicPageMeta(db, slug);
      if (!collection) return null;
      const curator = collection.owner_name ? ` by ${collection.owner_name}` : '';
      return {
        title: collection.title,
        description: collection.description || `A supercuration${curator} on Supercurate`,
        image: absoluteImageUrl(publicUrl, collection.thumbnail_url),
        url: `${publicUrl}${paths.publicSupercuration(slug)}`,
        feeds: [{ title: collection.title, url: `${publicUrl}${paths.collectionFeed(slug)}` }],
      };
    },
  };
}
