import { hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import { markServerData } from './queryClient';

/** Id of the `<script type="application/json">` in which the server render hands its queries over. */
export const SERVER_DATA_ID = 'server-data';

/**
 * The queries as JSON safe inside a script element: `<` escaped, so no value can close the element
 * (a JSON data block is never executed, so the page's CSP allows it).
 */
export function serverDataScript(state: DehydratedState): string {
  const json = JSON.stringify(state).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${SERVER_DATA_ID}">${json}</script>`;
}

/** Puts the server render's queries into the cache; false when the page came without them. */
export function hydrateServerData(queryClient: QueryClient): boolean {
  const element = document.getElementById(SERVER_DATA_ID);
  if (!element?.textContent) return false;
  const state = JSON.parse(element.textContent) as DehydratedState;
  hydrate(queryClient, state);
  markServerData(state.queries.map((q) => q.queryHash));
  return true;
}
