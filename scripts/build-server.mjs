// Bundles the server's TypeScript into dist/server.js, npm start's supervising process into
// dist/supervisor.js and the readable-copy extractor's thread into dist/readable-worker.js
// (dependencies stay in node_modules); code they share or load later (the app, which a cluster
// primary never loads) goes into dist/chunks/.
// Running plain JavaScript keeps the TypeScript loader out of the server: ~50 MB less memory.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/chunks', { recursive: true, force: true });
await build({
  entryPoints: { server: 'server/main.ts', supervisor: 'server/supervisor-main.ts', 'readable-worker': 'server/readable/worker.ts' },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  // Stack traces need only the mappings (NODE_OPTIONS=--enable-source-maps, server/server-node-args.ts),
  // and tools read the sources from the repository.
  sourcesContent: false,
  logLevel: 'warning',
});
