import { dehydrate, type QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { StaticRouterProvider, createStaticHandler, createStaticRouter, matchRoutes } from 'react-router';
import { AppProviders } from './AppProviders';
import { linkQuery } from './entities/links/useLinkQueries';
import { directoryFiltersFrom } from './features/supercurations/directoryFilters';
import { userSupercurationsQuery } from './features/supercurations/ProfileSupercurations';
import { directoryQuery, publicSupercurationQuery, resourcesQuery } from './features/supercurations/queries';
import { resourceFiltersFrom, resourceListQueryOf } from './features/supercurations/resourceFilters';
import { setApiFetch } from './lib/api';
import { createQueryClient } from './lib/queryClient';
import { queryKeys } from '../shared/queries/keys';
import { prefetch, prefetchFirstPage } from './lib/prefetch';
import { serverDataScript } from './lib/serverData';
import { routes } from './router';
import { userQuery } from './routes/ProfilePage';

/**
 * The server render of the pages a visitor opens: built by Vite into dist/ssr and loaded
 * by server/http/server-render.ts. A page here is rendered with the data its first screen shows, which
 * goes along as JSON for the browser to hydrate without fetching it again.
 */

type Prefetch = (queryClient: QueryClient, params: Record<string, string | undefined>, search: URLSearchParams) => Promise<unknown>;

/** The visitors' pages, by route path, and what each one's first screen reads. */
const VISITOR_PAGES: Record<string, Prefetch> = {
  '/': async () => {},
  '/directory': (qc, _params, search) => prefetchFirstPage(qc, directoryQuery(directoryFiltersFrom(search))),
  '/supercurations/public/:slug': async (qc, { slug = '' }, search) => {
    const supercuration = await prefetch(qc, publicSupercurationQuery(slug));
    await prefetchFirstPage(qc, resourcesQuery(supercuration.id, resourceListQueryOf(resourceFiltersFrom(search))));
  },
  '/links/:id': (qc, { id = '' }) => prefetch(qc, linkQuery(id)),
  '/profile/:id': (qc, { id = '' }) => Promise.all([prefetch(qc, userQuery(id)), prefetchFirstPage(qc, userSupercurationsQuery(id))]),
};

const handler = createStaticHandler(routes);

/**
 * Rendered pages by URL, with the data they were rendered from. The data is read on every request
 * (so a change shows on the next one) and a page is rendered again only when it changed, or after
 * RENDER_MAX_AGE_MS, which bounds how old a relative time ("3 minutes ago") in it can be.
 */
const RENDER_CACHE_SIZE = 200;
const RENDER_MAX_AGE_MS = 10_000;
const rendered = new Map<string, { key: string; at: number; page: ServerRender }>();

function remember(url: string, key: string, page: ServerRender): ServerRender {
  rendered.delete(url);
  rendered.set(url, { key, at: Date.now(), page });
  // A Map iterates in insertion order: the first entry is the least recently rendered.
  if (rendered.size > RENDER_CACHE_SIZE) rendered.delete(rendered.keys().next().value as string);
  return page;
}

/** The deepest route a path matches; matching ranks the whole route table, so results are kept. */
const matches = new Map<string, ReturnType<typeof matchRoutes>>();
function leafMatch(pathname: string) {
  let found = matches.get(pathname);
  if (found === undefined) {
    found = matchRoutes(routes, pathname);
    if (matches.size >= RENDER_CACHE_SIZE) matches.clear();
    matches.set(pathname, found);
  }
  return found?.at(-1);
}

export interface ServerRender {
  /** The app's markup, for inside #root. */
  html: string;
  /** The script element carrying the queries to hydrate. */
  data: string;
}

/** How the render's API reads are answered: by the server itself, in process. */
export { setApiFetch };

/**
 * Renders a visitor's page (no session); null for a page that is not a visitor's, or when a read
 * fails (the page then goes out as the app shell and the browser shows its own error or
 * not-found state).
 */
export async function render(url: URL): Promise<ServerRender | null> {
  const match = leafMatch(url.pathname);
  const prefetch = match?.route.path ? VISITOR_PAGES[match.route.path] : undefined;
  if (!match || !prefetch) return null;

  const queryClient = createQueryClient({ server: true });
  queryClient.setQueryData(queryKeys.session, null);
  try {
    await prefetch(queryClient, match.params, url.searchParams);
  } catch {
    return null;
  }
  const state = dehydrate(queryClient);
  const key = JSON.stringify(state.queries.map((q) => [q.queryHash, q.state.data]));
  const cached = rendered.get(url.href);
  if (cached && cached.key === key && Date.now() - cached.at < RENDER_MAX_AGE_MS) return cached.page;

  const context = await handler.query(new Request(url));
  if (context instanceof Response) return null;
  const html = renderToString(
    <AppProviders queryClient={queryClient}>
      <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
    </AppProviders>,
  );
  return remember(url.href, key, { html, data: serverDataScript(state) });
}
