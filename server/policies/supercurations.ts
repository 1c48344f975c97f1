import type { Viewer } from './viewer';

/** What a rule about one collection needs to know, as the viewer sees it. */
export interface SupercurationAccess {
  ownerId: string;
  isPublic: boolean;
  /** Whether the viewer is one of its collaborators. */
  viewerIsCollaborator: boolean;
}

/** SPEC §6: the owner (created_by) and the collaborators edit a collection and its resources. */
export function canEditSupercuration(viewer: Viewer | null, c: SupercurationAccess): boolean {
  return viewer !== null && (viewer.id === c.ownerId || c.viewerIsCollaborator);
}

/** Public collections are seen by everyone; private ones only by those who edit them. */
export function canSeeSupercuration(viewer: Viewer | null, c: SupercurationAccess): boolean {
  return c.isPublic || canEditSupercuration(viewer, c);
}
