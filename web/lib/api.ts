import { ApiError, createApiClient } from '../../shared/api/client';

let fetchImpl: typeof fetch = (input, init) => fetch(input, init);

/** The web app's API client: same origin, under /api. */
export const api = createApiClient({ fetchImpl: (input, init) => fetchImpl(input, init) });

/** The server render answers the app's API calls in its own process instead (web/entry-server.tsx). */
export function setApiFetch(impl: typeof fetch): void {
  fetchImpl = impl;
}

/** The server's user-facing message for an API failure, or `fallback` for anything else. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}
