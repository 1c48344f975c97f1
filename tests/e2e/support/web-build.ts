import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BUILD_DIR = path.resolve(import.meta.dirname, '../../../dist/web');
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
 * A private copy of the built web app (dist/web) for one test server, so that a `vite build`
 * running at the same time (which empties dist/web) cannot pull pages from under a test.
 * Waits, up to a deadline, for a complete build: index.html and every file it references.
 */
export async function snapshotWebBuild(): Promise<{ dir: string; remove(): void }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'supercurate-e2e-web-'));
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    if (existsSync(path.join(BUILD_DIR, 'index.html'))) {
      rmSync(dir, { recursive: true, force: true });
      try {
        cpSync(BUILD_DIR, dir, { recursive: true });
      } catch {
        // A build replaced files while we copied: try again.
      }
      if (isComplete(dir)) return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
    }
    if (Date.now() > deadline) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`no complete web build in ${BUILD_DIR}: run \`npx vite build\` first`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}
