import { type SupercurationAccess, canEditSupercuration } from './supercurations';
import type { Viewer } from './viewer';

/** The facts about a link its rules look at. */
export interface LinkAccess {
  userId: string;
}

/** SPEC §6: the author, or an owner or collaborator of a collection containing the link. */
export function canEditLink(viewer: Viewer | null, link: LinkAccess, collections: SupercurationAccess[]): boolean {
  if (!viewer) return false;
  return viewer.id === link.userId || collections.some((c) => canEditSupercuration(viewer, c));
}

/** SPEC §5: only the creator deletes a link. */
export function canDeleteLink(viewer: Viewer | null, link: LinkAccess): boolean {
  return viewer !== null && viewer.id === link.userId;
}

/** A repost copies someone else's link; `original` is the link at the root of the repost chain. */
export function canRepostLink(viewer: Viewer, original: LinkAccess): boolean {
  return viewer.id !== original.userId;
}
