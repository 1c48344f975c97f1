import { type RawBuilder, sql } from 'kysely';
import type { Viewer } from './viewer';

/** What a rule about one collection needs to know, as the viewer sees it. */
export interface SupercurationAccess {
  ownerId: string;
  isPublic: boolean;
  /** Whether the viewer is one of its collaborators. */
  viewerIsCollaborator: boolean;
}

/** The owner (created_by). */
export function isSupercurationOwner(viewer: Viewer | null, c: SupercurationAccess): boolean {
  return viewer !== null && viewer.id === c.ownerId;
}

/**
 * SPEC §6: the owner (created_by) and the collaborators edit a collection: its title, description,
 * visibility, slug and topics, its tag categories and tags, its resources (add, tag, remove), and
 * they search for and add collaborators (SPEC §6 gives collaborators the owner's edit rights).
 */
export function canEditSupercuration(viewer: Viewer | null, c: SupercurationAccess): boolean {
  return viewer !== null && (viewer.id === c.ownerId || c.viewerIsCollaborator);
}

/**
 * Public collections are seen by everyone; private ones only by those who edit them, everywhere
 * (API, pages, directory, search, a link's supercurationIds). Others get 404 'Supercuration not found'.
 */
export function canSeeSupercuration(viewer: Viewer | null, c: SupercurationAccess): boolean {
  return c.isPublic || canEditSupercuration(viewer, c);
}

/** SPEC §4: the public page shows public collections only, to everyone including their editors. */
export function canSeePublicPage(c: SupercurationAccess): boolean {
  return c.isPublic;
}

/** Deleting a collection is destructive and final: the owner only (docs/decisions.md). */
export function canDeleteSupercuration(viewer: Viewer | null, c: SupercurationAccess): boolean {
  return isSupercurationOwner(viewer, c);
}

/**
 * A collection's topics are its owner's (topics are per user): only the owner changes them, and
 * the edit form shows them to the owner only (docs/decisions.md).
 */
export function canEditSupercurationTopics(viewer: Viewer | null, c: SupercurationAccess): boolean {
  return isSupercurationOwner(viewer, c);
}

/**
 * Removing a collaborator: the owner removes anyone; a collaborator removes only themselves
 * (leaves the collection). Removing another editor is the owner's call (docs/decisions.md).
 */
export function canRemoveCollaborator(viewer: Viewer | null, c: SupercurationAccess, collaboratorId: string): boolean {
  if (!viewer) return false;
  if (viewer.id === c.ownerId) return true;
  return c.viewerIsCollaborator && viewer.id === collaboratorId;
}

/** SPEC §6: visitors (and anyone) may subscribe by e-mail to a public collection; private ones have no subscribers. */
export function canSubscribeByEmail(c: SupercurationAccess): boolean {
  return c.isPublic;
}

/**
 * Following a collection (its new resources in the follower's feed and digest): a signed-in user,
 * a public collection, someone else's. Editors see its changes where they make them.
 */
export function canFollowSupercuration(viewer: Viewer | null, c: SupercurationAccess): boolean {
  return viewer !== null && c.isPublic && !canEditSupercuration(viewer, c);
}

/**
 * Issue 21: a public collection is an ActivityPub actor, which anyone on the fediverse may look up
 * and follow; a private one is no actor (404), and its remote followers get nothing more from it.
 */
export function isFederatedCollection(c: Pick<SupercurationAccess, 'isPublic'>): boolean {
  return c.isPublic;
}

/**
 * Who follows a collection from other servers, and removing one of them: its owner, as e-mail
 * subscribers are the publisher's to see (SPEC §6); collaborators edit the collection, not its audience.
 */
export function canManageFediverseFollowers(viewer: Viewer | null, c: SupercurationAccess): boolean {
  return isSupercurationOwner(viewer, c);
}

/** canEditSupercuration as SQL, for the row `alias` of supercurations: its owner or a collaborator. */
export function supercurationEditableBy(viewerId: string, alias: string): RawBuilder<boolean> {
  const s = sql.id(alias);
  const c = sql.id(`${alias}_c`);
  return sql<boolean>`(${s}.user_id = ${viewerId} or exists (select 1 from collaborators ${c} where ${c}.supercuration_id = ${s}.id and ${c}.user_id = ${viewerId}))`;
}

/** canSeeSupercuration as SQL, for the row `alias` of supercurations. */
export function supercurationVisibleTo(viewerId: string, alias: string): RawBuilder<boolean> {
  return sql<boolean>`(${sql.id(alias)}.is_public = 1 or ${supercurationEditableBy(viewerId, alias)})`;
}
