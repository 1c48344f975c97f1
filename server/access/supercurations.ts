import { type Kysely, sql } from 'kysely';
import { SUPERCURATION_MESSAGES } from '../../shared/domain';
import { queryTemplate } from '../db/query-templates';
import type { Database } from '../db/schema';
import { badRequest, forbidden, notFound } from '../errors';
import {
  type SupercurationAccess,
  canDeleteSupercuration,
  canEditSupercuration,
  canEditSupercurationTopics,
  canFollowSupercuration,
  canManageFediverseFollowers,
  canRemoveCollaborator,
  canSeeSupercuration,
} from '../policies/supercurations';
import type { Viewer } from '../policies/viewer';

/**
 * Loading a collection for a use case applies the rules of server/policies once, here, and
 * answers it branded with what the viewer was found allowed to do. The service functions that
 * write take only the branded type, so every write shows in its signature that it was checked
 * (docs/decisions.md "Where things live on the server").
 */

type Q = Kysely<Database>;

declare const granted: unique symbol;
/** What each level allows: an owner edits, an editor views. */
interface Grants {
  view: 'view';
  edit: 'view' | 'edit';
  owner: 'view' | 'edit' | 'owner';
}
type Level = keyof Grants;
/** `T` checked for `L` by this module (a compile-time brand, nothing at run time). */
export type Authorized<T, L extends Level> = T & { readonly [granted]: { readonly [K in Grants[L]]: true } };

export interface LoadedAccess extends SupercurationAccess {
  id: string;
}

/**
 * Collections (with the facts their policies need), as seen by `viewerId`. A visitor (null)
 * collaborates on nothing, so no collaborator is looked up: on PostgreSQL a visitor's page of
 * cards looked one up per card's collection, ~6 % of the statement's CPU.
 */
export function collectionAccess(db: Q, viewerId: string | null) {
  return db
    .selectFrom('supercurations as s')
    .$if(viewerId !== null, (qb) =>
      qb.leftJoin('collaborators as c', (join) => join.onRef('c.supercuration_id', '=', 's.id').on('c.user_id', '=', viewerId ?? '')),
    )
    .select(['s.id as supercuration_id', 's.user_id as owner_id', 's.is_public'])
    .select((viewerId === null ? sql<string | null>`null` : sql<string | null>`c.user_id`).as('collaborator_id'));
}

export type AccessRow = Awaited<ReturnType<ReturnType<typeof collectionAccess>['executeTakeFirstOrThrow']>>;

export const toAccess = (r: {
  owner_id: string;
  is_public: number;
  collaborator_id: string | null;
}): SupercurationAccess => ({
  ownerId: r.owner_id,
  isPublic: Number(r.is_public) === 1,
  viewerIsCollaborator: r.collaborator_id !== null,
});

const accessById = queryTemplate<'viewer' | 'id', AccessRow>((db, a) => collectionAccess(db, a.viewer).where('s.id', '=', a.id));

/** The collection as the viewer may see it, else 404 'Supercuration not found' (private ones don't exist for others). */
export async function requireVisible(db: Q, viewer: Viewer | null, id: string): Promise<Authorized<LoadedAccess, 'view'>> {
  const [row] = await accessById(db, { viewer: viewer?.id ?? '', id });
  return visibleAccess(viewer, id, row);
}

/** The collection, which the viewer must edit: 404 when they can't see it, 403 when they only see it. */
export async function requireEditable(db: Q, viewer: Viewer, id: string): Promise<Authorized<LoadedAccess, 'edit'>> {
  const [row] = await accessById(db, { viewer: viewer.id, id });
  return editableAccess(viewer, id, row);
}

/** requireVisible's rules on an access row (collectionAccess) already read, or none: not found. */
function visibleAccess(viewer: Viewer | null, id: string, row: AccessRow | undefined): Authorized<LoadedAccess, 'view'> {
  const access = row ? toAccess(row) : null;
  if (!access || !canSeeSupercuration(viewer, access)) throw notFound(SUPERCURATION_MESSAGES.notFound);
  return { id, ...access } as Authorized<LoadedAccess, 'view'>;
}

/** requireEditable's rules on an access row already read. */
export function editableAccess(viewer: Viewer, id: string, row: AccessRow | undefined): Authorized<LoadedAccess, 'edit'> {
  const access = visibleAccess(viewer, id, row);
  if (!canEditSupercuration(viewer, access)) throw forbidden(SUPERCURATION_MESSAGES.cannotEdit);
  return access as Authorized<LoadedAccess, 'edit'>;
}

/** Deleting: the owner only (canDeleteSupercuration); 404 for those who can't see it, else 403. */
export async function requireDeletable(db: Q, viewer: Viewer, id: string): Promise<Authorized<LoadedAccess, 'owner'>> {
  const access = await requireVisible(db, viewer, id);
  if (!canDeleteSupercuration(viewer, access)) throw forbidden(SUPERCURATION_MESSAGES.ownerOnlyDelete);
  return access as Authorized<LoadedAccess, 'owner'>;
}

/** Removing a remote follower (canManageFediverseFollowers): the owner; 404 for those who can't see it, else 403. */
export async function requireFediverseFollowers(db: Q, viewer: Viewer, id: string): Promise<Authorized<LoadedAccess, 'owner'>> {
  const access = await requireVisible(db, viewer, id);
  if (!canManageFediverseFollowers(viewer, access)) throw forbidden(SUPERCURATION_MESSAGES.ownerOnlyFediverseFollowers);
  return access as Authorized<LoadedAccess, 'owner'>;
}

/**
 * Following (canFollowSupercuration): someone else's public collection. A private one is 404 to
 * those who can't see it; its editors, who can, get 400.
 */
export async function requireFollowable(db: Q, viewer: Viewer, id: string): Promise<Authorized<LoadedAccess, 'view'>> {
  const access = await requireVisible(db, viewer, id);
  if (canFollowSupercuration(viewer, access)) return access;
  if (canEditSupercuration(viewer, access)) throw badRequest(SUPERCURATION_MESSAGES.editorsCannotFollow, 'FOLLOW_OWN');
  throw notFound(SUPERCURATION_MESSAGES.notFound);
}

/** The owner removes any collaborator, a collaborator only themself (canRemoveCollaborator); 404, else 403. */
export async function requireCollaboratorRemoval(
  db: Q,
  viewer: Viewer,
  id: string,
  collaboratorId: string,
): Promise<Authorized<LoadedAccess, 'edit'>> {
  const access = await requireVisible(db, viewer, id);
  if (!canRemoveCollaborator(viewer, access, collaboratorId)) {
    throw forbidden(
      canEditSupercuration(viewer, access) ? SUPERCURATION_MESSAGES.ownerOnlyRemoveCollaborator : SUPERCURATION_MESSAGES.cannotEdit,
    );
  }
  return access as Authorized<LoadedAccess, 'edit'>;
}

/** The collection as its topics' owner (canEditSupercurationTopics), or null for another editor. */
export function asTopicOwner(viewer: Viewer, access: Authorized<LoadedAccess, 'edit'>): Authorized<LoadedAccess, 'owner'> | null {
  return canEditSupercurationTopics(viewer, access) ? (access as Authorized<LoadedAccess, 'owner'>) : null;
}

/** A collection the viewer has just created is theirs. */
export function createdCollection(viewer: Viewer, id: string, isPublic: boolean): Authorized<LoadedAccess, 'owner'> {
  return { id, ownerId: viewer.id, isPublic, viewerIsCollaborator: false } as Authorized<LoadedAccess, 'owner'>;
}

/**
 * The collections, each of which must exist and be editable by the viewer, else 404 (no existence
 * leak), in the database's order.
 */
export async function requireEditableCollections(trx: Q, viewer: Viewer, ids: readonly string[]): Promise<Authorized<LoadedAccess, 'edit'>[]> {
  if (ids.length === 0) return [];
  const rows = await collectionAccess(trx, viewer.id).where('s.id', 'in', [...ids]).execute();
  const access = rows.map((r) => ({ id: r.supercuration_id, ...toAccess(r) }));
  if (access.length !== ids.length || !access.every((a) => canEditSupercuration(viewer, a))) {
    throw notFound(SUPERCURATION_MESSAGES.notFound);
  }
  return access as Authorized<LoadedAccess, 'edit'>[];
}

/** Those of the collections the viewer edits (canEditSupercuration). */
export function editableAmong<T extends LoadedAccess>(viewer: Viewer, collections: readonly T[]): Authorized<T, 'edit'>[] {
  return collections.filter((c) => canEditSupercuration(viewer, c)) as Authorized<T, 'edit'>[];
}
