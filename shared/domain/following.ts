/** The Following feed: what the users I subscribe to and the public collections I follow publish. */
import { z } from 'zod';
import { TIME_WINDOWS } from './constants';
import { formatSchema, type Link, type LinkAuthor } from './links';

/** GET /api/following: My Feed's time window and format filters, and the page cursor. */
export const followingQuerySchema = z.object({
  window: z.enum(TIME_WINDOWS).default('all'),
  format: formatSchema.optional(),
  cursor: z.string().max(500).optional(),
});
export type FollowingQuery = z.input<typeof followingQuerySchema>;

/** shared / reposted: a followed user put a link in their main feed; added: someone added it to a followed collection. */
export type FollowingKind = 'shared' | 'reposted' | 'added';

export interface FollowingItem {
  kind: FollowingKind;
  /** When it was shared, reposted or added (ISO-8601 UTC): the feed's order, newest first. */
  at: string;
  /** Who did it. */
  actor: LinkAuthor;
  /** Where, for `added`: the public collection. */
  supercuration: { id: string; title: string; slug: string | null } | null;
  link: Link;
}

// Not worded by the spec (docs/decisions.md).
export const FOLLOWING_MESSAGES = {
  title: 'Following',
  description: 'What the curators and collections you follow publish.',
  mustLogIn: 'You must be logged in to see who you follow',
  loadFailed: 'Failed to load your Following feed',
  loadMoreFailed: 'Failed to fetch more of your Following feed',
  empty: 'Nothing from the curators and collections you follow yet',
  emptyHint: 'Subscribe to curators and follow public supercurations to see what they publish here.',
  discover: 'Discover curators',
  noMatch: 'Nothing matches these filters',
} as const;

/** "Ada shared", "Ada reposted", "Ada added to" (the collection's title follows). */
export const FOLLOWING_VERBS: Record<FollowingKind, string> = {
  shared: 'shared',
  reposted: 'reposted',
  added: 'added to',
};
