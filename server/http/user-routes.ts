import type { FastifyInstance } from 'fastify';
import { MSG, profileUpdateSchema } from '../../shared/domain';
import type { Db } from '../db';
import { canEditProfile } from '../policies/users';
import { generatedAvatarSvg } from '../services/avatars';
import { getAvatarSource, getProfile, replaceAvatar, updateProfile } from '../services/profiles';
import type { ObjectStorage } from '../storage/uploads';
import { forbidden, notFound } from '../errors';
import type { SessionReader } from './session';
import { receiveImage } from './upload-routes';

interface Deps {
  db: Db;
  storage: ObjectStorage;
  session: SessionReader;
}

type IdParams = { Params: { id: string } };

export function registerUserRoutes(app: FastifyInstance, { db, storage, session }: Deps): void {
  async function requireOwnProfile(req: Parameters<SessionReader['requireViewer']>[0], id: string) {
    const viewer = await session.requireViewer(req);
    if (!canEditProfile(viewer, id)) throw forbidden(MSG.forbiddenProfile);
    return viewer;
  }

  async function profileOrThrow(id: string, viewerId: string | null) {
    const profile = await getProfile(db, id, viewerId);
    if (!profile) throw notFound(viewerId === id ? MSG.profileNotFound : MSG.userNotFound);
    return profile;
  }

  app.get('/api/me', async (req) => {
    const viewer = await session.requireViewer(req);
    return profileOrThrow(viewer.id, viewer.id);
  });

  app.get<IdParams>('/api/users/:id', async (req) => {
    const viewer = await session.viewerOf(req);
    return profileOrThrow(req.params.id, viewer?.id ?? null);
  });

  app.patch<IdParams>('/api/users/:id', async (req) => {
    const viewer = await requireOwnProfile(req, req.params.id);
    await updateProfile(db, viewer.id, profileUpdateSchema.parse(req.body ?? {}));
    return profileOrThrow(viewer.id, viewer.id);
  });

  app.post<IdParams>('/api/users/:id/avatar', async (req) => {
    const viewer = await requireOwnProfile(req, req.params.id);
    await receiveImage(req, 'avatar', (image) => replaceAvatar(db, storage, viewer.id, image));
    return profileOrThrow(viewer.id, viewer.id);
  });

  app.delete<IdParams>('/api/users/:id/avatar', async (req) => {
    const viewer = await requireOwnProfile(req, req.params.id);
    await replaceAvatar(db, storage, viewer.id, null);
    return profileOrThrow(viewer.id, viewer.id);
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
