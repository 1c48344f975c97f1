// Whether a build output is missing or older than its sources: `npm start` (scripts/start.mjs)
// rebuilds such outputs, and so do the end-to-end tests before they run dist/server.js.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Newest modification time of the files under the given folders. */
function newest(dirs) {
  let latest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else latest = Math.max(latest, statSync(file).mtimeMs);
    }
  };
  for (const dir of dirs) if (existsSync(dir)) walk(dir);
  return latest;
}

/** True when `output` is missing or older than a file under the `sources` folders (paths from the working directory). */
export function stale(output, sources) {
  return !existsSync(output) || statSync(output).mtimeMs < newest(sources);
}

/** The outputs of scripts/build-server.mjs, built from server/ and shared/. */
export const SERVER_OUTPUTS = ['dist/server.js', 'dist/supervisor.js', 'dist/readable-worker.js'];
export const SERVER_SOURCES = ['server', 'shared'];
