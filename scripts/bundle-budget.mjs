// Weighs what the built web app makes a browser download before a page can show:
// the entry's JavaScript with everything it imports statically, plus the lazy chunks of the
// page's routes and their static imports, brotli-compressed as the server sends them; and the CSS.
// Reads Vite's manifest (build.manifest), so it follows the import graph of the real build.
// Prints a table, marking what is over its budget (a report: it does not fail the build).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const WEB_DIR = process.argv[2] ?? 'dist/web';
const KIB = 1024;
const BUDGETS = { publicPage: 90 * KIB, signedInShell: 200 * KIB, css: 15 * KIB };

/** Manifest keys (source files under web/) of the lazy routes each page needs, outermost first. */
const PUBLIC_PAGES = {
  '/': ['routes/LandingPage.tsx'],
  '/directory': ['routes/DirectoryPage.tsx'],
  '/supercurations/public/:slug': ['routes/PublicSupercurationPage.tsx'],
  '/links/:id': ['routes/LinkDetailPage.tsx'],
  '/profile/:id': ['layouts/SessionLayout.tsx', 'routes/ProfilePage.tsx'],
};
/** What a signed-in user's first screen (/home) needs. */
const SIGNED_IN_SHELL = ['layouts/ProtectedLayout.tsx', 'routes/FeedPage.tsx'];
const ENTRY = 'index.html';
/** The app itself, which the entry (web/boot.ts) imports once the page has painted: part of every first load. */
const APP = 'main.tsx';

const manifest = JSON.parse(readFileSync(path.join(WEB_DIR, '.vite', 'manifest.json'), 'utf8'));

/**
 * The manifest key of a source module's chunk. A lazy route's chunk that other chunks also import
 * from has no facade module, and Vite then keys it by file name (`_FeedPage-<hash>.js`).
 */
function keyOf(source) {
  if (manifest[source]) return source;
  const name = path.basename(source, path.extname(source));
  const found = Object.keys(manifest).find((key) => manifest[key].isDynamicEntry && manifest[key].name === name);
  if (!found) throw new Error(`${source} is not in the build's manifest: update scripts/bundle-budget.mjs`);
  return found;
}

/** The chunks `keys` load at once: themselves and their static imports, transitively. */
function firstLoad(keys) {
  const chunks = new Set();
  const visit = (key) => {
    if (chunks.has(key)) return;
    chunks.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  keys.map(keyOf).forEach(visit);
  return [...chunks].map((key) => manifest[key]);
}

/** Bytes the server sends for a built file to a brotli client: its .br sibling, or its brotli size. */
function brotliBytes(file) {
  const full = path.join(WEB_DIR, file);
  if (existsSync(`${full}.br`)) return readFileSync(`${full}.br`).length;
  const source = readFileSync(full);
  return brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
}

const sum = (files) => [...new Set(files)].reduce((total, file) => total + brotliBytes(file), 0);
const jsOf = (keys) => sum(firstLoad([ENTRY, APP, ...keys]).map((chunk) => chunk.file));
const cssOf = (keys) => sum(firstLoad([ENTRY, APP, ...keys]).flatMap((chunk) => chunk.css ?? []));

const rows = [
  ...Object.entries(PUBLIC_PAGES).map(([page, keys]) => ({ what: `JS ${page}`, bytes: jsOf(keys), budget: BUDGETS.publicPage })),
  { what: 'JS signed-in shell (/home)', bytes: jsOf(SIGNED_IN_SHELL), budget: BUDGETS.signedInShell },
  {
    what: 'CSS (largest first load)',
    bytes: Math.max(...[...Object.values(PUBLIC_PAGES), SIGNED_IN_SHELL].map(cssOf)),
    budget: BUDGETS.css,
  },
];

const kib = (bytes) => `${(bytes / KIB).toFixed(1)} KiB`;
console.log('First load, brotli:');
for (const { what, bytes, budget } of rows) {
  const verdict = bytes <= budget ? 'ok' : 'OVER BUDGET';
  console.log(`  ${what.padEnd(38)} ${kib(bytes).padStart(10)}  / ${kib(budget).padStart(9)}  ${verdict}`);
}
