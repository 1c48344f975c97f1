import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagOf } from './caching';
import { type InProcessAnswer, type InProcessReads, type RequestAnswers, pathAndQuery } from './visitor-reads';

/** What web/entry-server.tsx exports, as Vite builds it into dist/ssr. */
interface ServerEntry {
  setApiFetch(impl: typeof fetch): void;
  render(url: URL): Promise<RenderedPage | null>;
}

/** The app's markup for inside #root, and the script element carrying its queries. */
interface RenderedPage {
  html: string;
  data: string;
}

/** A page as sent: the HTML, its ETag, and its bytes, plain and compressed, once asked for. */
interface AssembledPage {
  shell: string;
  html: string;
  etag: string;
  plain?: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

export interface ServerRenderer {
  /**
   * The shell with the visitor's page rendered into it (ETag and, when the client takes it, a
   * compressed body set on the reply), or the shell alone when the page is not rendered. The
   * render takes the answers of `answers`, visitor reads this request already made, rather than
   * reading them again.
   */
  page(req: FastifyRequest, reply: FastifyReply, shell: string, answers?: RequestAnswers): Promise<string | Buffer>;
}

/** The server render is built beside the web app: `<WEB_DIR>/../ssr/entry-server.js`. */
export const serverEntryOf = (webDir: string) => path.join(webDir, '..', 'ssr', 'entry-server.js');

/** Puts the server render's markup into the app shell's #root, its data right after it. */
function withContent(shell: string, content: RenderedPage): string {
  return shell.replace(/<div id="root"><\/div>/, () => `<div id="root">${content.html}</div>${content.data}`);
}

/** Whether an Accept-Encoding header takes `coding` (listed, and not with q=0). */
export function acceptsEncoding(header: string | undefined, coding: string): boolean {
  return (header ?? '').split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return name === coding && (!q || Number(q.slice(2)) > 0);
  });
}

const compressors = {
  br: (html: string) =>
    brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: html.length } }),
  gzip: (html: string) => gzipSync(html, { level: 6 }),
};

/**
 * Loads the server render, if it was built. Its API reads are a visitor's (no cookie), which is
 * all the server renders: the visitor reads (server/http/visitor-reads.ts) are answered in process,
 * by the routes' own schemas and reads, without a socket or Fastify's lifecycle (that was a third
 * of a page's CPU); any other path goes through `app.inject`, the full route.
 */
export async function loadServerRenderer(app: FastifyInstance, webDir: string, readInProcess: InProcessReads): Promise<ServerRenderer | null> {
  const entryFile = serverEntryOf(webDir);
  if (!existsSync(entryFile)) return null;
  const entry = (await import(pathToFileURL(entryFile).href)) as ServerEntry;
  // The answers of renders in progress, read before them by their requests, by path and query. The
  // render's API client is the module's own, not one per render, so it finds them here; a render
  // takes each at its first read of that path, and whatever it left is dropped when it ends. Should
  // two requests for the same page overlap, a render may take the other's answer: read just as
  // recently, after its own request came.
  const handedOn = new Map<string, Promise<InProcessAnswer>>();
  // The render only reads: every call is a GET.
  entry.setApiFetch(async (input) => {
    const url = String(input);
    const target = new URL(url, 'http://localhost');
    const key = pathAndQuery(target);
    const handed = handedOn.get(key);
    if (handed) handedOn.delete(key);
    const local = handed ?? readInProcess(target);
    const { status, body } = local
      ? await local
      : await app
          .inject({ method: 'GET', url, headers: { accept: 'application/json' } })
          .then((res) => ({ status: res.statusCode, body: res.body }));
    // The API client reads only these of a Response.
    return { ok: status >= 200 && status < 300, status, text: async () => body } as Response;
  });

  // The entry hands back the same object while a page's data is unchanged: the page assembled
  // from it with the same shell is the same, and so are its ETag and compressed forms, kept
  // rather than made again for every request (a 75 kB page: ~10 % of a request each).
  const assembled = new WeakMap<RenderedPage, AssembledPage>();
  return {
    async page(req, reply, shell, answers = new Map()) {
      for (const [key, answer] of answers) handedOn.set(key, answer);
      let content: RenderedPage | null;
      try {
        content = await entry.render(new URL(req.url, 'http://localhost'));
      } finally {
        for (const [key, answer] of answers) if (handedOn.get(key) === answer) handedOn.delete(key);
      }
      if (!content) return shell;
      let done = assembled.get(content);
      if (done?.shell !== shell) {
        const html = withContent(shell, content);
        done = { shell, html, etag: etagOf(html) };
        assembled.set(content, done);
      }
      reply.header('etag', done.etag);
      const coding = (['br', 'gzip'] as const).find((c) => acceptsEncoding(req.headers['accept-encoding'], c));
      // Bytes rather than the string: ~75 kB need not be encoded again for every request.
      if (!coding) return (done.plain ??= Buffer.from(done.html));
      done[coding] ??= compressors[coding](done.html);
      reply.header('content-encoding', coding);
      return done[coding];
    },
  };
}
