import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** What web/entry-server.tsx exports, as Vite builds it into dist/ssr. */
interface ServerEntry {
  setApiFetch(impl: typeof fetch): void;
  render(url: URL): Promise<{ html: string; data: string } | null>;
}

export interface ServerRenderer {
  /** The page's markup and data for a visitor, or null to send the app shell. */
  render(req: FastifyRequest): Promise<{ html: string; data: string } | null>;
}

/** The server render is built beside the web app: `<WEB_DIR>/../ssr/entry-server.js`. */
export const serverEntryOf = (webDir: string) => path.join(webDir, '..', 'ssr', 'entry-server.js');

/**
 * Loads the server render, if it was built. Its API reads go through `app.inject`: the same
 * routes, policies and JSON as the browser's reads, without a socket. They are a visitor's reads
 * (no cookie), which is all the server renders.
 */
export async function loadServerRenderer(app: FastifyInstance, webDir: string): Promise<ServerRenderer | null> {
  const entryFile = serverEntryOf(webDir);
  if (!existsSync(entryFile)) return null;
  const entry = (await import(pathToFileURL(entryFile).href)) as ServerEntry;
  // The render only reads: every call is a GET.
  entry.setApiFetch(async (input) => {
    const res = await app.inject({ method: 'GET', url: String(input), headers: { accept: 'application/json' } });
    // The API client reads only these of a Response.
    return { ok: res.statusCode >= 200 && res.statusCode < 300, status: res.statusCode, text: async () => res.body } as Response;
  });
  return { render: (req) => entry.render(new URL(req.url, 'http://localhost')) };
}
