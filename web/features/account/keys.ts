/** TanStack Query keys of the account settings. */
export const accountKeys = {
  sessions: ['account', 'sessions'] as const,
  apiTokens: ['account', 'api-tokens'] as const,
  digest: ['account', 'digest'] as const,
  readableCopies: ['account', 'readable-copies'] as const,
};
