import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { ocrAssets } from './scripts/ocr-assets';
import { precompress } from './scripts/precompress';

// `vite build` builds the web app into dist/web; `vite build --ssr entry-server.tsx` the server
// render of the visitors' pages into dist/ssr (loaded by server/http/server-render.ts).
export default defineConfig(({ isSsrBuild }) => ({
  root: 'web',
  plugins: isSsrBuild ? [react()] : [react(), tailwindcss(), ocrAssets(), precompress()],
  // The server render bundles its dependencies: it runs from wherever the build is copied (WEB_DIR).
  ssr: isSsrBuild ? { noExternal: true } : undefined,
  build: isSsrBuild
    ? { outDir: '../dist/ssr', emptyOutDir: true, sourcemap: true }
    : {
        outDir: '../dist/web',
        emptyOutDir: true,
        sourcemap: true,
        // .vite/manifest.json: the chunk graph scripts/bundle-budget.mjs weighs.
        manifest: true,
        // No <link rel=modulepreload> per chunk: Chromium handles each inserted link on the main
        // thread, and a page's ~40 made the longest task of its hydration (docs/decisions.md).
        modulePreload: false,
        // Importing shared/domain (its barrel) runs nothing: a page carries only the modules whose
        // exports it uses, and the zod schemas stay out of the visitors' pages (docs/decisions.md).
        rollupOptions: { treeshake: { moduleSideEffects: (id) => !id.includes('/shared/domain/') } },
      },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
}));
