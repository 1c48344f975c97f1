import type { QueryKey } from '@tanstack/react-query';
import type { DirectoryQuery, FollowingQuery, LinkListQuery, ResourceListQuery, SupercurationListQuery } from '../domain';

/** TanStack Query keys used by more than one feature, in the web app and the extension. */
export const queryKeys = {
  /** The signed-in user, or null when signed out. */
  session: ['session'] as const,
  user: (id: string) => ['users', id] as const,
  /** Every cached link list and link. */
  links: ['links'] as const,
  /** Every cached list of links (feeds, a collection's resources, saved posts): likes and edits patch them all. */
  feeds: ['links', 'feed'] as const,
  feed: (filters: Omit<LinkListQuery, 'cursor'>) => ['links', 'feed', filters] as const,
  /** A collection's resources: a list of links like a feed, so like, edit and delete reach it. */
  resources: (supercurationId: string, filters: Omit<ResourceListQuery, 'cursor'>) =>
    ['links', 'feed', { supercurationId, ...filters }] as const,
  link: (id: string) => ['links', 'detail', id] as const,
  /** Every cached Following feed: its items wrap links, which likes and edits patch too. */
  followingFeeds: ['following'] as const,
  following: (filters: Omit<FollowingQuery, 'cursor'>) => ['following', filters] as const,
  preview: (url: string) => ['preview', url] as const,
  topics: ['topics'] as const,
  /** Every cached collection and list of collections. */
  supercurations: ['supercurations'] as const,
  supercurationList: (filters: Omit<SupercurationListQuery, 'cursor'>) => ['supercurations', 'list', filters] as const,
  directory: (filters: Omit<DirectoryQuery, 'cursor'>) => ['supercurations', 'directory', filters] as const,
  userSupercurations: (userId: string) => ['supercurations', 'user', userId] as const,
  supercuration: (id: string) => ['supercurations', 'detail', id] as const,
  previewsLeft: (id: string) => ['supercurations', 'previews-left', id] as const,
  publicSupercuration: (slug: string) => ['supercurations', 'public', slug] as const,
  supercurationChoices: ['supercurations', 'choices'] as const,
  /** The dashboard's e-mail subscribers of the signed-in user's collections. */
  emailSubscribers: ['email-subscribers'] as const,
  /** The dashboard's fediverse followers of the signed-in user's collections. */
  fediverseFollowers: ['fediverse-followers'] as const,
  /** Collaborator searches of a collection (the typed text follows). */
  collaboratorSearch: (id: string) => ['supercurations', 'candidates', id] as const,
};

// Keys are read through these, by what they hold, rather than by position.

/** The filters of a list of links (a feed, or a collection's resources with its supercurationId). */
export function linkListFiltersOf(key: QueryKey): (Partial<LinkListQuery> & { supercurationId?: string }) | undefined {
  return key[0] === 'links' && key[1] === 'feed' ? (key[2] as Partial<LinkListQuery> & { supercurationId?: string }) : undefined;
}

/** Whether the key is one collection's (rather than a list of collections). */
export const isSupercurationDetail = (key: QueryKey) => key[0] === 'supercurations' && key[1] === 'detail';
