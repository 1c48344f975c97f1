import { type RawBuilder, sql } from 'kysely';
import { type SupercurationAccess, canEditSupercuration, canSeeSupercuration, supercurationEditableBy } from './supercurations';
import type { Viewer } from './viewer';

/** The facts about a link its rules look at. */
export interface LinkAccess {
  userId: string;
}

/** What the visibility rule looks at: the link's author, main feed flag and every collection holding it. */
export interface LinkVisibility extends LinkAccess {
  inMainFeed: boolean;
  /** Every collection containing the link, as the viewer sees it. */
  collections: readonly SupercurationAccess[];
}

/** A link seen by its own facts: in the main feed or a public collection, or by its author or an editor of a collection holding it. */
function seesLinkItself(viewer: Viewer | null, link: LinkVisibility): boolean {
  return (
    link.inMainFeed ||
    (viewer !== null && viewer.id === link.userId) ||
    link.collections.some((c) => canSeeSupercuration(viewer, c))
  );
}

/**
 * A link is seen by everyone when it is in the main feed or in at least one public
 * collection; otherwise only by its author and by the owners and collaborators of the collections
 * holding it. Everyone else gets the 404 of a missing link, everywhere. A repost (`original` is
 * the link it copies) shows the original's title and URL, so others see it only while they may
 * see the original too; its reposter always sees their own copy (docs/decisions.md).
 * The rule is read from the current rows, so it follows a collection turning private or a link
 * leaving the main feed at once. Its SQL twin is linkVisibleTo below: the two must say the same.
 */
export function canSeeLink(viewer: Viewer | null, link: LinkVisibility, original: LinkVisibility | null): boolean {
  if (!seesLinkItself(viewer, link)) return false;
  return original === null || (viewer !== null && viewer.id === link.userId) || seesLinkItself(viewer, original);
}

/** seesLinkItself as SQL, for the row `alias` of links. */
function linkItselfVisibleTo(viewerId: string | null, alias: string): RawBuilder<boolean> {
  const col = (c: string) => sql.ref(`${alias}.${c}`);
  const sl = sql.id(`${alias}_sl`);
  const s = sql.id(`${alias}_s`);
  const c = sql.id(`${alias}_c`);
  const editors =
    viewerId === null
      ? sql``
      : sql` or ${s}.user_id = ${viewerId} or exists (select 1 from collaborators ${c} where ${c}.supercuration_id = ${s}.id and ${c}.user_id = ${viewerId})`;
  return sql<boolean>`(${col('in_main_feed')} = 1${viewerId === null ? sql`` : sql` or ${col('user_id')} = ${viewerId}`} or exists (select 1 from supercuration_links ${sl} inner join supercurations ${s} on ${s}.id = ${sl}.supercuration_id where ${sl}.link_id = ${col('id')} and (${s}.is_public = 1${editors})))`;
}

/**
 * canSeeLink as a condition on the row `links` (or `alias`) of a query, for `viewerId` (null: a
 * visitor): every query that answers links someone else may have written filters with it, so lists
 * and feeds pay a few index lookups per row instead of reading collections for each link in JS.
 * `viewerId` is used only as a value, so it may be a query template's placeholder.
 */
export function linkVisibleTo(viewerId: string | null, alias = 'links'): RawBuilder<boolean> {
  return sql<boolean>`(${linkItselfVisibleTo(viewerId, alias)} and ${repostVisibleTo(viewerId, alias)})`;
}

/** canSeeLink's rule for reposts: not one, the viewer's own, or its original seen by its own facts. */
function repostVisibleTo(viewerId: string | null, alias: string): RawBuilder<boolean> {
  const col = (c: string) => sql.ref(`${alias}.${c}`);
  const original = sql.id(`${alias}_original`);
  const reposter = viewerId === null ? sql`` : sql` or ${col('user_id')} = ${viewerId}`;
  return sql<boolean>`(${col('original_post_id')} is null${reposter} or exists (select 1 from links ${original} where ${original}.id = ${col('original_post_id')} and ${linkItselfVisibleTo(viewerId, `${alias}_original`)}))`;
}

/**
 * What personal search finds (issue 23): a link the viewer may see (linkVisibleTo) and edit
 * (canEditLink: theirs, or in a collection they own or collaborate on), the people who read its
 * readable copy. Read from the current rows: a collaborator removed finds its links no more.
 */
export function linkSearchableBy(viewerId: string, alias = 'links'): RawBuilder<boolean> {
  const sl = sql.id(`${alias}_esl`);
  const s = `${alias}_es`;
  // Whoever edits a link sees it by its own facts (a collection one edits is one they see): of
  // linkVisibleTo only the repost rule is left to check, and the planner has a third less to plan.
  return sql<boolean>`((${sql.ref(`${alias}.user_id`)} = ${viewerId} or exists (select 1 from supercuration_links ${sl} inner join supercurations ${sql.id(s)} on ${sql.id(s)}.id = ${sl}.supercuration_id where ${sl}.link_id = ${sql.ref(`${alias}.id`)} and ${supercurationEditableBy(viewerId, s)})) and ${repostVisibleTo(viewerId, alias)})`;
}

/** SPEC §6: the author, or an owner or collaborator of a collection containing the link. */
export function canEditLink(viewer: Viewer | null, link: LinkAccess, collections: SupercurationAccess[]): boolean {
  if (!viewer) return false;
  return viewer.id === link.userId || collections.some((c) => canEditSupercuration(viewer, c));
}

/**
 * Where a link is shown is its author's call: whether it is in the main feed, and which further
 * collections hold it. An editor of a collection holding it edits its content (canEditLink) and may
 * take it out of collections they edit, but could otherwise show a private link to everyone, or to
 * the editors of another collection of theirs (docs/decisions.md "Link visibility").
 */
export function canPlaceLink(viewer: Viewer | null, link: LinkAccess): boolean {
  return viewer !== null && viewer.id === link.userId;
}

/** SPEC §5: only the creator deletes a link. */
export function canDeleteLink(viewer: Viewer | null, link: LinkAccess): boolean {
  return viewer !== null && viewer.id === link.userId;
}

/** A repost copies someone else's link; `original` is the link at the root of the repost chain. */
export function canRepostLink(viewer: Viewer, original: LinkAccess): boolean {
  return viewer.id !== original.userId;
}
