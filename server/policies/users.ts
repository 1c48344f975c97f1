import type { Viewer } from './viewer';

/** SPEC §6: a signed-in user may only write their own user document. */
export function canEditProfile(viewer: Viewer, userId: string): boolean {
  return viewer.id === userId;
}
