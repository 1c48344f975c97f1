import { ApiError, type ApiClient, createApiClient } from '../../shared/api/client';

export type { ApiClient };

/** The shared API client of the web app, pointed at the user's server (cookies go with every call). */
export function serverApi(serverUrl: string): ApiClient {
  // Called unbound: a service worker's fetch must not get the client as `this`.
  return createApiClient({ baseUrl: serverUrl, fetchImpl: (input, init) => fetch(input, init) });
}

export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

export function unreachable(serverUrl: string): string {
  return `Cannot reach your Supercurate server at ${serverUrl}. Check that it is running, or change its address in Options.`;
}

export function isNetworkError(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'NETWORK_ERROR';
}

export function isSessionLost(err: unknown): boolean {
  return err instanceof ApiError && err.status === 401;
}

/**
 * The text to show for a failed call: the server's own message (SPEC §8 texts), 'Cannot reach
 * your Supercurate server at …' when it did not answer, and 'Your session has expired…' on 401.
 */
export function messageOf(err: unknown, serverUrl: string, fallback: string): string {
  if (isNetworkError(err)) return unreachable(serverUrl);
  if (isSessionLost(err)) return SESSION_EXPIRED;
  if (err instanceof ApiError) return err.message;
  return fallback;
}
