import type { LinkListQuery } from '../../shared/domain';

/** TanStack Query keys used by more than one feature. */
export const queryKeys = {
  /** The signed-in user, or null when signed out. */
  session: ['session'] as const,
  user: (id: string) => ['users', id] as const,
  /** Every cached link list and link. */
  links: ['links'] as const,
  feeds: ['links', 'feed'] as const,
  feed: (filters: Omit<LinkListQuery, 'cursor'>) => ['links', 'feed', filters] as const,
  link: (id: string) => ['links', 'detail', id] as const,
  preview: (url: string) => ['preview', url] as const,
  topics: ['topics'] as const,
};
