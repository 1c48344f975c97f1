// Bundles the server's TypeScript into dist/server.js (dependencies stay in node_modules).
// Running plain JavaScript keeps the TypeScript loader out of the server: ~50 MB less memory.
import { build } from 'esbuild';

await build({
  entryPoints: ['server/main.ts'],
  outfile: 'dist/server.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
