import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiRoutes } from '../../shared/api/routes';
import { AVATAR_MAX_BYTES, MSG } from '../../shared/domain';
import { NotAnImageError, UPLOADED_IMAGE_NAME, saveUploadedImage, uploadedImageKey } from '../services/images';
import { type ImageVariants, INVALID_IMAGE_WIDTH, parseImageWidth } from '../services/image-variants';
import type { ObjectStorage } from '../storage/uploads';
import { badRequest, fileTooLarge, notFound } from '../errors';
import { declared, zodRoutes } from './api-route';
import type { SessionReader } from './session';

/**
 * The one file of a multipart request, sent in `field`: images only (400), at most 5 MB (413).
 * `store` decodes it; bytes that are not an image it can decode are refused with 400 too.
 */
export async function receiveImage<T>(req: FastifyRequest, field: string, store: (image: Buffer) => Promise<T>) {
  if (!req.isMultipart()) throw badRequest(MSG.imagesOnly);
  const file = await req.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
  if (!file || file.fieldname !== field || !file.mimetype.startsWith('image/')) throw badRequest(MSG.imagesOnly);
  let buffer: Buffer;
  try {
    buffer = await file.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge(MSG.imageTooLarge);
    throw err;
  }
  // toBuffer() may miss the limit when the cut-off chunk was its last one: the stream still knows.
  if (file.file.truncated) throw fileTooLarge(MSG.imageTooLarge);
  try {
    return await store(buffer);
  } catch (err) {
    if (err instanceof NotAnImageError) throw badRequest(MSG.imagesOnly);
    throw err;
  }
}

interface Deps {
  storage: ObjectStorage;
  session: SessionReader;
  variants: ImageVariants;
}

/**
 * Thumbnail uploads of the Preview & Share dialog: stored re-encoded, never as data URLs in rows.
 * GET with `?w=` (320, 640 or 960) gives the image resized to that width, never enlarged.
 */
export function registerUploadRoutes(app: FastifyInstance, { storage, session, variants }: Deps): void {
  zodRoutes(app).route({
    ...declared(apiRoutes.uploadImage, session),
    handler: async (req, reply) => {
      const url = await receiveImage(req, 'image', (image) => saveUploadedImage(storage, image));
      return reply.status(201).send({ url });
    },
  });

  app.get<{ Params: { name: string }; Querystring: { w?: unknown } }>('/api/uploads/images/:name', async (req, reply) => {
    const width = parseImageWidth(req.query.w);
    if (width === 'invalid') throw badRequest(INVALID_IMAGE_WIDTH.error, INVALID_IMAGE_WIDTH.code);
    const name = req.params.name;
    if (!UPLOADED_IMAGE_NAME.test(name)) throw notFound('Image not found');
    const key = uploadedImageKey(name);
    let image = width ? await variants.cached(key, width) : null;
    if (!image) {
      const source = await storage.get(key);
      if (!source) throw notFound('Image not found');
      image = width ? await variants.resized(key, width, source) : source;
    }
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    reply.header('content-security-policy', "default-src 'none'; sandbox");
    return reply.type('image/webp').send(image);
  });
}
