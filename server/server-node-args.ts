// Node's arguments for the built server (dist/server.js), as npm start's supervisor runs it
// (server/supervisor-main.ts). The bench, the e2e tests and Lighthouse start it with the same
// ones, so what they measure is what runs.

export const DEFAULT_MAX_HEAP_MB = 1024;

/**
 * - `--max-old-space-size`: the heap limit (SERVER_MAX_HEAP_MB); a process that needs more ends
 *   and is restarted.
 * - `--max-semi-space-size=4`: V8's young generation grows to 2 × 4 MB, not 2 × 16 MB, and its
 *   pages stay resident once touched: ~20 MB less for an idle server and for an import's peak,
 *   with no more CPU per request (bench/README.md, "The young generation"). Only a start argument
 *   sets it: V8 sizes its heap before any code runs.
 * - No `--enable-source-maps`: it parses the maps of every module that has one, node_modules'
 *   too, and cost 7–20 MB of an idle server and 10–40 MB of an import's peak. Stack traces name
 *   the bundle's line (dist/chunks/…, unminified, each module headed by its source path);
 *   `NODE_OPTIONS=--enable-source-maps` maps them to the TypeScript sources when wanted.
 */
export function serverNodeArgs(serverJs: string, maxHeapMb = DEFAULT_MAX_HEAP_MB): string[] {
  return [`--max-old-space-size=${maxHeapMb}`, '--max-semi-space-size=4', serverJs];
}
