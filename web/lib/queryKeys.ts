/** TanStack Query keys used by more than one feature. */
export const queryKeys = {
  /** The signed-in user, or null when signed out. */
  session: ['session'] as const,
  user: (id: string) => ['users', id] as const,
};
