import type { RouteOptions } from 'fastify';
import type { Auth } from '../../server/auth';

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
 * The routes a client can call, one by one: a wildcard route forwarded to Better Auth
 * (`/api/auth/*`) stands for each endpoint the library defines under its base path, with the
 * methods both allow.
 */
export function callableRoutes(server: { routes: Route[]; auth: Auth }): Route[] {
  const basePath = server.auth.options.basePath ?? '/api/auth';
  const endpoints = Object.values(server.auth.api).flatMap((endpoint) => {
    const { path, options } = endpoint as { path?: string; options?: { method?: string | string[] } };
    if (!path || !options?.method) return [];
    return [options.method].flat().map((method) => ({ method, url: `${basePath}${path}` }));
  });
  const byKey = new Map<string, Route>();
  for (const route of server.routes) {
    const expanded = route.url === `${basePath}/*` ? endpoints.filter((e) => e.method === route.method) : [route];
    for (const r of expanded) byKey.set(`${r.method} ${r.url}`, r);
  }
  return [...byKey.values()];
}
