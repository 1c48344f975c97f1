import { randomBytes } from 'node:crypto';
import { thumbs } from '@dicebear/collection';
import { createAvatar } from '@dicebear/core';
import sharp from 'sharp';

export const AVATAR_SIZE = 256;

/** The default avatar: an SVG drawn on our server, the same for the same e-mail. */
export function generatedAvatarSvg(email: string): string {
  return createAvatar(thumbs, { seed: email.toLowerCase(), size: AVATAR_SIZE }).toString();
}

export class NotAnImageError extends Error {}

/**
 * Decodes any image sharp understands and re-encodes it as a square WebP. Re-encoding drops
 * EXIF (location, camera) and anything smuggled inside the original file.
 */
export async function reencodeAvatar(input: Buffer): Promise<Buffer> {
  try {
    return await sharp(input, { limitInputPixels: 40_000_000, animated: false })
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw new NotAnImageError();
  }
}

export function newAvatarKey(userId: string): string {
  return `avatars/${userId}/${randomBytes(8).toString('hex')}.webp`;
}
