import { ApiError, createApiClient } from '../../shared/api/client';

/** The web app's API client: same origin, under /api. */
export const api = createApiClient();

/** The server's user-facing message for an API failure, or `fallback` for anything else. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}
