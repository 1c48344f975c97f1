import { QueryClient, type Query } from '@tanstack/react-query';
import { ApiError } from '../../shared/api/client';

/**
 * The app's query cache. In the browser a client error (4xx) will not change on retry, and
 * network and server errors get two more tries; the server render tries once (its API calls don't
 * cross a network) and answers with the app shell when one fails.
 */
export function createQueryClient({ server = false } = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: server
          ? false
          : (failures, error) => failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        staleTime: serverDataStaleTime,
      },
    },
  });
}

/** How long what the server rendered counts as fresh: the page doesn't fetch again what its HTML came with. */
export const SERVER_DATA_FRESH_MS = 30_000;
const fromServer = new Set<string>();

/** Marks queries as the server render's; they are fresh for SERVER_DATA_FRESH_MS, then as any other. */
export function markServerData(queryHashes: string[]): void {
  for (const hash of queryHashes) fromServer.add(hash);
  setTimeout(() => fromServer.clear(), SERVER_DATA_FRESH_MS);
}

function serverDataStaleTime(query: Query): number {
  return fromServer.has(query.queryHash) ? Infinity : 0;
}
