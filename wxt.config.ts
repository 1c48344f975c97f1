import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'wxt';
import { STORE_SUMMARY } from './extension/listing';

/**
 * The browser extension, built from extension/ into .output/:
 * `wxt build` → chrome-mv3/, `wxt build -b firefox --mv3` → firefox-mv3/, and
 * `--mode e2e` → chrome-mv3-e2e/ and firefox-mv3-e2e/ for the end-to-end tests only.
 *
 * Permissions stay minimal: activeTab (the page the user invokes us on), scripting (read that page's
 * DOM on demand, no content script), contextMenus, storage, notifications. The only host the
 * extension talks to is the user's own server, requested at runtime from the options page
 * (optional_host_permissions). `tabs` is optional too: granted, the badge can mark every page
 * already shared; without it, it marks the pages the extension was used on.
 */
export default defineConfig({
  srcDir: 'extension',
  entrypointsDir: 'entrypoints',
  // Icons (WXT lists icon/<size>.png in the manifest).
  publicDir: 'extension/public',
  imports: false,
  vite: () => ({
    plugins: [react(), tailwindcss()],
    build: { chunkSizeWarningLimit: 1024 },
  }),
  manifest: ({ browser, mode }) => ({
    name: 'Supercurate',
    // Also the Chrome Web Store's summary of the listing (at most 132 characters).
    description: STORE_SUMMARY,
    permissions: ['activeTab', 'scripting', 'contextMenus', 'storage', 'notifications'],
    optional_permissions: ['tabs'],
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    // Under automation activeTab is never granted: the e2e build may read loopback test pages.
    ...(mode === 'e2e' ? { host_permissions: ['http://127.0.0.1/*', 'http://localhost/*'] } : {}),
    commands: {
      _execute_action: {
        suggested_key: { default: 'Alt+Shift+S' },
        description: 'Share this page to Supercurate',
      },
    },
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: 'extension@supercurate.app',
              // 140 (an ESR) is the first Firefox that knows data_collection_permissions.
              strict_min_version: '140.0',
              // What leaves the browser, all of it for the user's own server only: the account's
              // email and password at sign-in, and the page shared (URL, title, description,
              // image, text). Optional `tabs` (mark every page already shared) sends the URL of
              // each page visited, so it is asked for together with browsingActivity.
              data_collection_permissions: {
                required: ['authenticationInfo', 'websiteContent'],
                optional: ['browsingActivity'],
              },
            },
            // ...and Firefox for Android only from 142.
            gecko_android: { strict_min_version: '142.0' },
          },
        }
      : {}),
  }),
  zip: {
    artifactTemplate: '{{name}}-{{version}}-{{browser}}-{{manifestVersion}}.zip',
    // Store reviewers (Firefox) rebuild from sources: the extension, the shared code, and the build setup.
    excludeSources: ['**/*'],
    includeSources: [
      'extension/**',
      'shared/**',
      'wxt.config.ts',
      'tsconfig.json',
      'package.json',
      'package-lock.json',
      'README.md',
    ],
  },
});
