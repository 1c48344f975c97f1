import { sql } from 'kysely';
import {
  COLLABORATOR_SEARCH_LIMIT,
  type Collaborator,
  type CollaboratorCandidate,
  SUPERCURATION_MESSAGES,
} from '../../shared/domain';
import { requireCollaboratorRemoval, requireEditable } from '../access/supercurations';
import type { Db } from '../db';
import { now } from '../db/ids';
import { badRequest, conflict, notFound } from '../errors';
import type { Viewer } from '../policies/viewer';
import { userCard } from '../presenters/users';

/** `%text%` for LIKE, its own wildcards escaped with a backslash. */
export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * SPEC §5: users whose name contains `q` (from 1 character, case-insensitive), without the viewer,
 * the owner and existing collaborators; at most COLLABORATOR_SEARCH_LIMIT, by name. Names only:
 * e-mail addresses are never shown to other users.
 */
export async function searchCollaborators(db: Db, viewer: Viewer, id: string, q: string): Promise<CollaboratorCandidate[]> {
  const access = await requireEditable(db.kysely, viewer, id);
  if (q.length === 0) return [];
  const rows = await db.kysely
    .selectFrom('user as u')
    .leftJoin('profiles as p', 'p.user_id', 'u.id')
    .select(['u.id', 'u.name', 'p.avatar_key'])
    .where(sql<boolean>`lower(u.name) like ${containsPattern(q)} escape '\\'`)
    .where('u.id', 'not in', [viewer.id, access.ownerId])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('collaborators as c')
            .select('c.user_id')
            .where('c.supercuration_id', '=', id)
            .whereRef('c.user_id', '=', 'u.id'),
        ),
      ),
    )
    .orderBy('u.name')
    .orderBy('u.id')
    .limit(COLLABORATOR_SEARCH_LIMIT)
    .execute();
  return rows.map((r) => userCard(r.id, r.name, r.avatar_key));
}

/** Editors add a collaborator, who gets the same edit rights (SPEC §6). Answers them, for 'Added {name} as collaborator'. */
export async function addCollaborator(db: Db, viewer: Viewer, id: string, userId: string): Promise<Collaborator> {
  return db.kysely.transaction().execute(async (trx) => {
    const collection = await requireEditable(trx, viewer, id);
    const user = await trx
      .selectFrom('user as u')
      .leftJoin('profiles as p', 'p.user_id', 'u.id')
      .select(['u.id', 'u.name', 'p.avatar_key'])
      .where('u.id', '=', userId)
      .executeTakeFirst();
    if (!user) throw notFound(SUPERCURATION_MESSAGES.userNotFound);
    if (user.id === collection.ownerId) throw badRequest(SUPERCURATION_MESSAGES.ownerIsNotCollaborator);
    const inserted = await trx
      .insertInto('collaborators')
      .values({ supercuration_id: collection.id, user_id: user.id, created_at: now() })
      .onConflict((oc) => oc.columns(['supercuration_id', 'user_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      throw conflict(SUPERCURATION_MESSAGES.alreadyCollaborator);
    }
    return userCard(user.id, user.name, user.avatar_key);
  });
}

/** The owner removes any collaborator; a collaborator removes only themselves (leaves). */
export async function removeCollaborator(db: Db, viewer: Viewer, id: string, userId: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const collection = await requireCollaboratorRemoval(trx, viewer, id, userId);
    const result = await trx
      .deleteFrom('collaborators')
      .where('supercuration_id', '=', collection.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(SUPERCURATION_MESSAGES.collaboratorNotFound);
  });
}
