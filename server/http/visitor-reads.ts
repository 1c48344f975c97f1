import { type z, ZodError } from 'zod';
import { type AnswerOf, type ApiRoute, type ApiRoutes, apiRoutes } from '../../shared/api/routes';
import { LINK_MESSAGES, MSG, escapeRegExp } from '../../shared/domain';
import type { Db } from '../db';
import { HttpError, notFound } from '../errors';
import { httpErrorBody, zodErrorBody } from './errors';
import type { Viewer } from '../policies/viewer';
import { directory } from '../services/directory';
import { getLink } from '../services/links';
import { getProfile } from '../services/profiles';
import { listResources } from '../services/resources';
import { getPublicSupercuration, userPublicSupercurations } from '../services/supercurations';

/** A part the route declares no schema for is not read (Fastify gives it as `unknown`). */
type Output<S> = S extends z.ZodType ? z.output<S> : unknown;
/** What a route's handler reads of a request, validated by the route's schemas. */
interface ReadInput<R extends ApiRoute> {
  params: Output<R['schema']['params']>;
  query: Output<R['schema']['querystring']>;
}
type Read<R extends ApiRoute> = (viewer: Viewer | null, input: ReadInput<R>) => Promise<AnswerOf<R>>;

/** The API reads the visitors' pages are made of (web/entry-server.tsx): GET routes anyone may call. */
type VisitorRead = 'directory' | 'userSupercurations' | 'publicSupercuration' | 'listResources' | 'getLink' | 'getUser';
export type VisitorReads = { [N in VisitorRead]: Read<ApiRoutes[N]> };

/** A profile, or 404 in the words for oneself or for someone else. */
export async function profileOrThrow(db: Db, id: string, viewerId: string | null, fediverseHost: string | null = null) {
  const profile = await getProfile(db, id, viewerId, fediverseHost);
  if (!profile) throw notFound(viewerId === id ? MSG.profileNotFound : MSG.userNotFound);
  return profile;
}

/**
 * Each visitor read as a function of the viewer and the route's validated input: its HTTP route
 * answers with it, and so does the server render, in process (readInProcess). `fediverseHost`: the
 * host of a federating server's handles (FEDERATION), else null.
 */
export function visitorReads(db: Db, { fediverseHost = null }: { fediverseHost?: string | null } = {}): VisitorReads {
  return {
    directory: (viewer, { query }) => directory(db, viewer, query),
    userSupercurations: (viewer, { params, query }) => userPublicSupercurations(db, viewer, params.id, query.cursor),
    publicSupercuration: async (viewer, { params }) => {
      const collection = await getPublicSupercuration(db, viewer, params.slug);
      return { ...collection, fediverseHandle: fediverseHost && collection.slug ? `@${collection.slug}@${fediverseHost}` : null };
    },
    listResources: (viewer, { params, query }) => listResources(db, viewer, params.id, query),
    getLink: async (viewer, { params }) => {
      const link = await getLink(db, params.id, viewer);
      if (!link) throw notFound(LINK_MESSAGES.linkNotFound);
      return link;
    },
    getUser: (viewer, { params }) => profileOrThrow(db, params.id, viewer?.id ?? null, fediverseHost),
  };
}

/** A query string as Fastify parses it: a repeated name gives an array. */
function queryOf(search: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of search) {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}


export interface InProcessAnswer {
  status: number;
  body: string;
}

export type InProcessReads = (url: URL) => Promise<InProcessAnswer> | null;

/**
 * Visitor reads already made for one request, by path and query (pathAndQuery): a page's head
 * (server/http/web-routes.ts) and its server render show the same collection, read once for both.
 */
export type RequestAnswers = Map<string, Promise<InProcessAnswer>>;

export const pathAndQuery = (url: URL) => `${url.pathname}${url.search}`;

/** The answer to `path` for this request: read in process the first time, the same answer after. */
export function readOnce(read: InProcessReads, answers: RequestAnswers, path: string): Promise<InProcessAnswer> {
  const url = new URL(path, 'http://localhost');
  const key = pathAndQuery(url);
  const known = answers.get(key);
  if (known) return known;
  const answer = read(url);
  if (!answer) throw new Error(`${path} is not a visitor read`);
  answers.set(key, answer);
  return answer;
}

/**
 * A visitor's GET of one of the visitor reads, answered without HTTP or Fastify's lifecycle: the
 * route's own schemas validate its path parameters and query, and its read answers as a visitor
 * (no session), with the status and JSON body the HTTP route gives. Null for any other URL.
 */
export function readInProcess(reads: VisitorReads): InProcessReads {
  const routes = (Object.keys(reads) as VisitorRead[]).map((name) => {
    const route: ApiRoute = apiRoutes[name];
    const names: string[] = [];
    const pattern = route.url
      .split(/(:\w+)/)
      .map((part) => {
        if (!part.startsWith(':')) return escapeRegExp(part);
        names.push(part.slice(1));
        return '([^/]+)';
      })
      .join('');
    return { route, names, matcher: new RegExp(`^${pattern}$`), read: reads[name] as Read<ApiRoute> };
  });

  async function answer(entry: (typeof routes)[number], match: RegExpExecArray, url: URL): Promise<InProcessAnswer> {
    const { schema } = entry.route;
    try {
      const params = Object.fromEntries(entry.names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')]));
      const input = {
        params: schema.params ? schema.params.parse(params) : undefined,
        query: schema.querystring ? schema.querystring.parse(queryOf(url.searchParams)) : undefined,
      } as ReadInput<ApiRoute>;
      return { status: 200, body: JSON.stringify(await entry.read(null, input)) };
    } catch (err) {
      // What the route would refuse; anything else fails the render (which then sends the app shell).
      if (err instanceof HttpError) return { status: err.status, body: JSON.stringify(httpErrorBody(err)) };
      if (err instanceof ZodError) return { status: 400, body: JSON.stringify(zodErrorBody(err)) };
      throw err;
    }
  }

  return (url) => {
    for (const entry of routes) {
      const match = entry.matcher.exec(url.pathname);
      if (match) return answer(entry, match, url);
    }
    return null;
  };
}
