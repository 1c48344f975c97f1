// `npm start`: build whatever is missing or older than its sources, then run the server (which
// migrates the database on start) under the supervisor of server/supervisor-main.ts, which
// restarts it when it crashes.
import { spawnSync } from 'node:child_process';
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

function stale(output, sources) {
  return !existsSync(output) || statSync(output).mtimeMs < newest(sources);
}

function run(label, command, args) {
  console.log(label);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// WEB_DIR set: the server serves that build, not dist/web.
if (!process.env.WEB_DIR && stale('dist/web/index.html', ['web', 'shared'])) {
  run('Building the web app...', 'npx', ['vite', 'build', '--logLevel', 'warn']);
}
// The server render of the visitors' pages (server/http/server-render.ts), beside dist/web.
if (!process.env.WEB_DIR && stale('dist/ssr/entry-server.js', ['web', 'shared'])) {
  run('Building the server render...', 'npx', ['vite', 'build', '--ssr', 'entry-server.tsx', '--logLevel', 'warn']);
}
if (['dist/server.js', 'dist/supervisor.js'].some((output) => stale(output, ['server', 'shared']))) {
  run('Building the server...', process.execPath, ['scripts/build-server.mjs']);
}

const { main } = await import('../dist/supervisor.js');
main();
