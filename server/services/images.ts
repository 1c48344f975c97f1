import { randomBytes } from 'node:crypto';
import type { ResizeOptions } from 'sharp';
import type { Db } from '../db';
import type { ObjectStorage } from '../storage/uploads';

export class NotAnImageError extends Error {}

/**
 * Decodes any image sharp understands and re-encodes it as a WebP of the given size. Re-encoding
 * drops EXIF (location, camera) and anything smuggled inside the original file.
 */
export async function reencodeImage(input: Buffer, resize: ResizeOptions): Promise<Buffer> {
  const sharp = await loadSharp();
  try {
    return await sharp(input, { limitInputPixels: 40_000_000, animated: false })
      .rotate()
      .resize(resize)
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw new NotAnImageError();
  }
}

/** The width in pixels of an image sharp can read (from its header, without decoding it). */
export async function imageWidth(input: Buffer): Promise<number> {
  const sharp = await loadSharp();
  try {
    const { width } = await sharp(input).metadata();
    if (!width) throw new NotAnImageError();
    return width;
  } catch {
    throw new NotAnImageError();
  }
}

let sharpModule: Promise<typeof import('sharp')> | undefined;

/**
 * sharp (libvips, ~25 MB) loads on the first image, not at start. SVG decoding is blocked for the
 * whole process: an SVG can reference files and URLs, and we only ever accept raster images.
 */
function loadSharp() {
  sharpModule ??= import('sharp').then((mod) => {
    mod.default.block({ operation: ['VipsForeignLoadSvg'] });
    return mod;
  });
  return sharpModule.then((mod) => mod.default);
}

/** Thumbnails (link images) are at most this wide; smaller images are not enlarged. */
export const THUMBNAIL_MAX_WIDTH = 1200;

/** Where uploaded thumbnails live in the object storage, and the URL our server serves each at. */
export const uploadedImageKey = (name: string) => `images/${name}`;
export const uploadedImageUrl = (name: string) => `/api/uploads/images/${name}`;
/** Names are random, so a URL never changes content and can be cached for good. */
export const UPLOADED_IMAGE_NAME = /^[a-f0-9]{32}\.webp$/;

/** Re-encodes an uploaded thumbnail and stores it; returns the URL it is served at. */
export async function saveUploadedImage(storage: ObjectStorage, input: Buffer): Promise<string> {
  const image = await reencodeImage(input, { width: THUMBNAIL_MAX_WIDTH, withoutEnlargement: true });
  const name = `${randomBytes(16).toString('hex')}.webp`;
  await storage.put(uploadedImageKey(name), image);
  return uploadedImageUrl(name);
}

/**
 * True when a stored link or supercuration shows this URL as its thumbnail, or a link as its site's
 * icon: what a visitor may make us fetch. (These URLs are stored normalised, as `new URL().href` gives them.)
 */
export async function isKnownThumbnail(db: Db, url: string): Promise<boolean> {
  const shown = (table: 'links' | 'supercurations', column: 'thumbnail_url' | 'favicon_url') =>
    db.kysely.selectFrom(table).select('id').where(column as 'thumbnail_url', '=', url).limit(1).executeTakeFirst();
  return (
    (await shown('links', 'thumbnail_url')) !== undefined ||
    (await shown('links', 'favicon_url')) !== undefined ||
    (await shown('supercurations', 'thumbnail_url')) !== undefined
  );
}
