import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BUILD_DIR = path.resolve(import.meta.dirname, '../../../dist/web');
/** The server render, which the server finds beside its WEB_DIR (server/http/server-render.ts). */
const SSR_BUILD_DIR = path.resolve(import.meta.dirname, '../../../dist/ssr');
const DEADLINE_MS = 60_000;
const POLL_INTERVAL_MS = 250;

/** The files index.html loads from its own origin (scripts, styles, icons). */
function referencedFiles(indexHtml: string): string[] {
  return [...indexHtml.matchAll(/(?:src|href)="\/([^"?#]+)"/g)].flatMap((m) => (m[1] ? [m[1]] : []));
}

function isComplete(dir: string): boolean {
  const index = path.join(dir, 'index.html');
  if (!existsSync(index)) return false;
  return referencedFiles(readFileSync(index, 'utf8')).every((file) => existsSync(path.join(dir, file)));
}

/**
 * A private copy of the built web app (dist/web, and its server render dist/ssr beside it) for one
 * test server, so that a `vite build` running at the same time (which empties dist/web) cannot
 * pull pages from under a test. Waits, up to a deadline, for a complete build: index.html, every
 * file it references and the server render.
 */
export async function snapshotWebBuild(): Promise<{ dir: string; remove(): void }> {
  const root = mkdtempSync(path.join(tmpdir(), 'supercurate-e2e-web-'));
  const dir = path.join(root, 'web');
  const ssrDir = path.join(root, 'ssr');
  const remove = () => rmSync(root, { recursive: true, force: true });
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    if (existsSync(path.join(BUILD_DIR, 'index.html')) && existsSync(path.join(SSR_BUILD_DIR, 'entry-server.js'))) {
      rmSync(dir, { recursive: true, force: true });
      rmSync(ssrDir, { recursive: true, force: true });
      try {
        cpSync(BUILD_DIR, dir, { recursive: true });
        cpSync(SSR_BUILD_DIR, ssrDir, { recursive: true });
      } catch {
        // A build replaced files while we copied: try again.
      }
      if (isComplete(dir) && existsSync(path.join(ssrDir, 'entry-server.js'))) return { dir, remove };
    }
    if (Date.now() > deadline) {
      remove();
      throw new Error(`no complete web build in ${BUILD_DIR}: run \`npm run build\` first`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}
