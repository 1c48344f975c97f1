import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cap } from '../../shared/domain';
import { escapeHtml } from '../mail/render';
import { loadServerRenderer, type ServerRenderer } from './server-render';
import { type InProcessAnswer, type InProcessReads, type RequestAnswers, readOnce } from './visitor-reads';

/** What a shared page's HTML head says about it, for link unfurlers (Open Graph, Twitter cards). */
export interface PageMeta {
  title: string;
  description: string;
  /** Absolute http(s) URL, or null. */
  image: string | null;
  /** Absolute URL of the page. */
  url: string;
  /** og:type; 'article' when unset. */
  type?: 'article' | 'profile';
  /** Feeds of the page, announced with <link rel="alternate" type="application/rss+xml">. */
  feeds?: { title: string; url: string }[];
}

/**
 * A client-routed page whose head the server fills in; `meta` answers null for an unknown entity
 * (404). It may take what it shows from a visitor read (`read`, an API path), the one the server
 * render reads too: the render then takes that answer instead of reading it again.
 */
export interface MetaPage {
  path: string;
  meta(params: Record<string, string>, read: (path: string) => Promise<InProcessAnswer>): Promise<PageMeta | null>;
}

/** A signed-in page of one entity that only some may open: anyone else, visitors included, gets a 404. */
export interface PrivatePage {
  path: string;
  mayOpen(req: FastifyRequest, params: Record<string, string>): Promise<boolean>;
}

const SITE_NAME = 'Supercurate';
const SHELL_CHECK_MS = 1000;
const DESCRIPTION_MAX = 200;

/**
 * The SPA's index.html with the page's <title>, description, Open Graph and Twitter tags in its
 * head (any the template had are replaced). Every value is HTML-escaped.
 */
export function renderPage(template: string, meta: PageMeta): string {
  const description = cap(meta.description.replace(/\s+/g, ' ').trim(), DESCRIPTION_MAX);
  const tag = (attr: 'name' | 'property', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
  const head = [
    `<title>${escapeHtml(`${meta.title} · ${SITE_NAME}`)}</title>`,
    tag('name', 'description', description),
    `<link rel="canonical" href="${escapeHtml(meta.url)}" />`,
    tag('property', 'og:site_name', SITE_NAME),
    tag('property', 'og:type', meta.type ?? 'article'),
    tag('property', 'og:title', meta.title),
    tag('property', 'og:description', description),
    tag('property', 'og:url', meta.url),
    ...(meta.image ? [tag('property', 'og:image', meta.image)] : []),
    tag('name', 'twitter:card', meta.image ? 'summary_large_image' : 'summary'),
    tag('name', 'twitter:title', meta.title),
    tag('name', 'twitter:description', description),
    ...(meta.image ? [tag('name', 'twitter:image', meta.image)] : []),
    ...(meta.feeds ?? []).map(
      (feed) =>
        `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(feed.title)}" href="${escapeHtml(feed.url)}" />`,
    ),
  ].join('\n    ');
  return template
    .replace(/<title>[\s\S]*?<\/title>\s*/i, '')
    .replace(/<meta\s+(?:name="description"|(?:name|property)="(?:og|twitter):[^"]*")[^>]*>\s*/gi, '')
    .replace(/<link\s+rel="(?:canonical|alternate)"[^>]*>\s*/gi, '')
    // A function, not a string: `$&` or `$'` in a user's title must not be read as a replacement pattern.
    .replace(/<\/head>/i, () => `  ${head}\n  </head>`);
}

/**
 * Serves the built web app. Any GET outside /api that names no file gets index.html, and the
 * client router renders the page (or its 'Page not found'). Pages in `metaPages` get their head
 * filled in first, and a 404 status when their entity is unknown. The visitors' pages (`/`,
 * `/directory` and the meta pages) are rendered by the server when the request has no session
 * and the server render is built (server/http/server-render.ts). Pages in `privatePages` answer
 * 404 to whoever may not open them, before the client asks anything.
 */
export async function registerWebRoutes(
  app: FastifyInstance,
  webDir: string,
  {
    metaPages = [],
    privatePages = [],
    hasSessionCookie,
    readInProcess,
  }: {
    metaPages?: MetaPage[];
    privatePages?: PrivatePage[];
    hasSessionCookie: (req: FastifyRequest) => boolean;
    readInProcess: InProcessReads;
  },
): Promise<void> {
  const indexFile = path.join(webDir, 'index.html');
  const built = existsSync(indexFile);
  const renderer: ServerRenderer | null = built ? await loadServerRenderer(app, webDir, readInProcess) : null;
  /** The shell with the page rendered into it, for a visitor; the shell alone otherwise. */
  const page = (req: FastifyRequest, reply: FastifyReply, shell: string, answers?: RequestAnswers) =>
    renderer && !hasSessionCookie(req) ? renderer.page(req, reply, shell, answers) : shell;
  if (built) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz siblings (scripts/precompress.ts): sent as they are.
      preCompressed: true,
      // Our own Cache-Control below, not send's default `public, max-age=0`.
      cacheControl: false,
      // index.html, the app shell of signed-in pages, is left to server/http/caching.ts.
      setHeaders(res, file) {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        if (file !== indexFile) res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const notBuilt = (reply: FastifyReply) =>
    reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');

  // Read again when the file changes (a rebuild changes the asset names index.html points at),
  // looked at once a second at most: a stat per request cost more than rendering a cached page.
  let shell = { mtimeMs: -1, checkedAt: 0, html: '' };
  const template = async () => {
    const now = Date.now();
    if (now - shell.checkedAt < SHELL_CHECK_MS) return shell.html;
    const { mtimeMs } = await stat(indexFile);
    shell = { mtimeMs, checkedAt: now, html: mtimeMs === shell.mtimeMs ? shell.html : await readFile(indexFile, 'utf8') };
    return shell.html;
  };

  // Visitors' pages of no particular entity: routes of their own, so they are cached as public
  // reads (server/http/caching.ts) rather than as the app shell of any other path.
  for (const pagePath of ['/', '/directory']) {
    app.get(pagePath, async (req, reply) => {
      if (!built) return notBuilt(reply);
      return reply.type('text/html; charset=utf-8').send(await page(req, reply, await template()));
    });
  }

  for (const metaPage of metaPages) {
    app.get<{ Params: Record<string, string> }>(metaPage.path, async (req, reply) => {
      if (!built) return notBuilt(reply);
      const answers: RequestAnswers = new Map();
      const meta = await metaPage.meta(req.params, (path) => readOnce(readInProcess, answers, path));
      const html = await template();
      reply.type('text/html; charset=utf-8');
      return reply.status(meta ? 200 : 404).send(meta ? await page(req, reply, renderPage(html, meta), answers) : html);
    });
  }

  for (const privatePage of privatePages) {
    app.get<{ Params: Record<string, string> }>(privatePage.path, async (req, reply) => {
      if (!built) return notBuilt(reply);
      const allowed = await privatePage.mayOpen(req, req.params);
      return reply.status(allowed ? 200 : 404).type('text/html; charset=utf-8').send(await template());
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const isPage = (req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith('/api/');
    if (!isPage) {
      return reply.status(404).send({ error: `No route ${req.method} ${req.url.split('?')[0]}`, code: 'NOT_FOUND' });
    }
    if (!built) return notBuilt(reply);
    return reply.sendFile('index.html');
  });
}
