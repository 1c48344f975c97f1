import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiRoutes } from '../../shared/api/routes';
import { MSG } from '../../shared/domain';
import type { Db } from '../db';
import { canEditProfile } from '../policies/users';
import { generatedAvatarSvg } from '../services/avatars';
import { getAvatarSource, replaceAvatar, updateProfile } from '../services/profiles';
import type { ObjectStorage } from '../storage/uploads';
import { forbidden, notFound } from '../errors';
import { declared, zodRoutes } from './api-route';
import type { SessionReader } from './session';
import { type VisitorReads, profileOrThrow } from './visitor-reads';
import { receiveImage } from './upload-routes';

interface Deps {
  db: Db;
  storage: ObjectStorage;
  session: SessionReader;
  reads: VisitorReads;
}

type IdParams = { Params: { id: string } };

export function registerUserRoutes(app: FastifyInstance, { db, storage, session, reads }: Deps): void {
  const api = zodRoutes(app);

  async function requireOwnProfile(req: FastifyRequest, id: string) {
    const viewer = await session.requireViewer(req);
    if (!canEditProfile(viewer, id)) throw forbidden(MSG.forbiddenProfile);
    return viewer;
  }

  api.route({
    ...declared(apiRoutes.me, session),
    handler: async (req) => {
      const viewer = await session.requireViewer(req);
      return profileOrThrow(db, viewer.id, viewer.id);
    },
  });

  api.route({
    ...declared(apiRoutes.getUser, session),
    handler: async (req) => reads.getUser(await session.viewerOf(req), req),
  });

  api.route({
    ...declared(apiRoutes.updateProfile, session),
    // Someone else's profile is 403 whatever the body holds.
    preValidation: async (req: FastifyRequest<IdParams>) => {
      await requireOwnProfile(req, req.params.id);
    },
    handler: async (req) => {
      const viewer = await requireOwnProfile(req, req.params.id);
      await updateProfile(db, viewer.id, req.body);
      // The viewer's name is read with the session: read afresh on the next request.
      await session.forgetSessions();
      return profileOrThrow(db, viewer.id, viewer.id);
    },
  });

  api.route({
    ...declared(apiRoutes.uploadAvatar, session),
    handler: async (req) => {
      const viewer = await requireOwnProfile(req, req.params.id);
      await receiveImage(req, 'avatar', (image) => replaceAvatar(db, storage, viewer.id, image));
      return profileOrThrow(db, viewer.id, viewer.id);
    },
  });

  api.route({
    ...declared(apiRoutes.removeAvatar, session),
    handler: async (req) => {
      const viewer = await requireOwnProfile(req, req.params.id);
      await replaceAvatar(db, storage, viewer.id, null);
      return profileOrThrow(db, viewer.id, viewer.id);
    },
  });

  app.get<IdParams & { Querystring: { v?: string } }>('/api/users/:id/avatar', async (req, reply) => {
    const user = await getAvatarSource(db, req.params.id);
    if (!user) throw notFound(MSG.userNotFound);
    const image = user.avatar_key ? await storage.get(user.avatar_key) : null;
    // A versioned URL (?v=) names one image for good; an unversioned one may change.
    reply.header('cache-control', req.query.v ? 'public, max-age=31536000, immutable' : 'public, max-age=60');
    reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    if (image) return reply.type('image/webp').send(image);
    return reply.type('image/svg+xml').send(generatedAvatarSvg(user.email));
  });
}
