// `npm start`: build whatever is missing or older than its sources, then run the server (which
// migrates the database on start) under the supervisor of server/supervisor-main.ts, which
// restarts it when it crashes.
import { spawnSync } from 'node:child_process';
import { SERVER_OUTPUTS, SERVER_SOURCES, stale } from './build-freshness.mjs';

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
if (SERVER_OUTPUTS.some((output) => stale(output, SERVER_SOURCES))) {
  run('Building the server...', process.execPath, ['scripts/build-server.mjs']);
}

const { main } = await import('../dist/supervisor.js');
main();
