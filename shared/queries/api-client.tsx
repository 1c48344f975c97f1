import { createContext, useContext, type ReactNode } from 'react';
import type { ApiClient } from '../api/client';

const ApiClientContext = createContext<ApiClient | null>(null);

/**
 * The API client the shared query hooks call: the web app's (same origin), or the extension's
 * (the user's server). Hooks take it from here so that both run the same queries.
 */
export function ApiClientProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  return <ApiClientContext.Provider value={client}>{children}</ApiClientContext.Provider>;
}

export function useApiClient(): ApiClient {
  const client = useContext(ApiClientContext);
  if (!client) throw new Error('useApiClient needs an ApiClientProvider');
  return client;
}
