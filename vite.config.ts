import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { paths } from './shared/domain/paths';
import { ocrAssets } from './scripts/ocr-assets';
import { precompress } from './scripts/precompress';

// `vite build` builds the web app into dist/web; `vite build --ssr entry-server.tsx` the server
// render of the visitors' pages into dist/ssr (loaded by server/http/server-render.ts).
export default defineConfig(({ isSsrBuild, mode }) => ({
  root: 'web',
  // The server render's React (bundled, below) picks its build from process.env.NODE_ENV when it
  // runs, and `npm start` does not set it: fixed at build time instead, as the web app's is, so the
  // server renders with React's production build however it is started.
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify(mode) } : undefined,
  plugins: isSsrBuild ? [react()] : [react(), tailwindcss(), ocrAssets(), installable(), precompress()],
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

/**
 * The installable web app (vite-plugin-pwa, Workbox): its manifest, with the share target a phone's
 * share sheet opens, and a service worker that keeps the app shell and static files for offline
 * use — never an API answer, so nothing of a user is kept after sign-out. Pages always come from
 * the network (visitors' pages are server-rendered); offline, the shell. A new build waits for the
 * user's "Reload" (web/lib/pwa.ts). docs/decisions.md, "Installable web app".
 */
function installable() {
  return VitePWA({
    registerType: 'prompt',
    injectRegister: false,
    manifest: {
      name: 'Supercurate',
      short_name: 'Supercurate',
      description: 'Internet. Curated. Share links, gather them into collections, follow curators.',
      id: '/home',
      start_url: '/home',
      scope: '/',
      display: 'standalone',
      theme_color: '#2563eb',
      background_color: '#ffffff',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
      share_target: { action: paths.shareTarget, method: 'GET', params: { title: 'title', text: 'text', url: 'url' } },
    },
    workbox: {
      // The shell: index.html, the entry's script and styles, the icons. Other chunks are kept as
      // they are first loaded (their names are hashed, so a kept one never goes stale).
      globPatterns: ['index.html', 'assets/{index,main}-*.{js,css}', 'icons/*.png', 'favicon.svg'],
      navigateFallback: null,
      cleanupOutdatedCaches: true,
      runtimeCaching: [
        {
          urlPattern: ({ request }) => request.mode === 'navigate',
          handler: 'NetworkOnly',
          options: { precacheFallback: { fallbackURL: 'index.html' } },
        },
        {
          urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
          handler: 'CacheFirst',
          options: { cacheName: 'assets', expiration: { maxEntries: 300 } },
        },
      ],
    },
  });
}
