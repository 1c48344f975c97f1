// Bundles the server's TypeScript into dist/server.js, and npm start's supervising process into
// dist/supervisor.js (dependencies stay in node_modules).
// Running plain JavaScript keeps the TypeScript loader out of the server: ~50 MB less memory.
import { build } from 'esbuild';

await build({
  entryPoints: { server: 'server/main.ts', supervisor: 'server/supervisor-main.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
