import { randomBytes } from 'node:crypto';
import * as thumbs from '@dicebear/thumbs';
import { createAvatar } from '@dicebear/core';
import { reencodeImage } from './images';

export const AVATAR_SIZE = 256;

/** The default avatar: an SVG drawn on our server, the same for the same e-mail. */
export function generatedAvatarSvg(email: string): string {
  return createAvatar(thumbs, { seed: email.toLowerCase(), size: AVATAR_SIZE }).toString();
}

/** A square WebP of AVATAR_SIZE (see reencodeImage). */
export function reencodeAvatar(input: Buffer): Promise<Buffer> {
  return reencodeImage(input, { width: AVATAR_SIZE, height: AVATAR_SIZE, fit: 'cover' });
}

export function newAvatarKey(userId: string): string {
  return `avatars/${userId}/${randomBytes(8).toString('hex')}.webp`;
}
