import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { ocrAssets } from './scripts/ocr-assets';
import { precompress } from './scripts/precompress';

export default defineConfig({
  root: 'web',
  plugins: [react(), tailwindcss(), ocrAssets(), precompress()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    // .vite/manifest.json: the chunk graph scripts/bundle-budget.mjs weighs.
    manifest: true,
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
