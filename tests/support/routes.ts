import type { RouteOptions } from 'fastify';

/** One method and URL pattern of the app's route table, e.g. GET /api/links/:id. */
export interface Route {
  method: string;
  url: string;
}

/** Records the route table as the app registers it: pass `onRoute` to buildApp. */
export function routeRecorder(): { routes: Route[]; onRoute(route: RouteOptions): void } {
  const routes: Route[] = [];
  return {
    routes,
    onRoute(route) {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    },
  };
}

/**
 * The routes a client can call, one by one: each method and URL once. Fastify answers HEAD with
 * its GET route's handler, so a HEAD route that has a GET twin is left out (the same inputs would
 * reach the same code). Better Auth's endpoints are routes of their own (server/http/auth-routes.ts
 * mounts only the allowed ones), so they are in the table like any other.
 */
export function callableRoutes(server: { routes: Route[] }): Route[] {
  const byKey = new Map(server.routes.map((r) => [`${r.method} ${r.url}`, r]));
  return [...byKey.values()].filter((r) => r.method !== 'HEAD' || !byKey.has(`GET ${r.url}`));
}
