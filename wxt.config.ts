import { defineConfig } from 'wxt';

// The browser extension (issue "Browser extension") builds from extension/ into .output/.
export default defineConfig({
  srcDir: 'extension',
  entrypointsDir: 'entrypoints',
  manifest: {
    name: 'Supercurate',
    description: 'Internet. Curated. Share the page you are on to Supercurate.',
    permissions: ['storage'],
    action: { default_title: 'Open Supercurate' },
  },
});
