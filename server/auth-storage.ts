import type { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Better Auth runs each of its calls inside AsyncLocalStorage contexts of its own, which it keeps on
 * `globalThis` (@better-auth/core). Before Node 24, a storage that has run once turns V8's promise
 * hooks on for the whole process, and every promise of every request then pays for carrying the
 * stores: Add New Resource in process, 724 → 632 µs of CPU (docs/decisions.md). None of our code
 * reads them (the session check reads its own row, server/http/session.ts), so they are disabled
 * again whenever no call into Better Auth is under way; its next call enables them (`run` does).
 * Every call into Better Auth goes through `inBetterAuth`.
 */
const BETTER_AUTH_GLOBAL = Symbol.for('better-auth:global');
let callsUnderWay = 0;

/** Runs a call into Better Auth (its handler, `auth.api`), and what reads its response. */
export async function inBetterAuth<T>(call: () => Promise<T>): Promise<T> {
  callsUnderWay += 1;
  try {
    return await call();
  } finally {
    callsUnderWay -= 1;
    releaseBetterAuthStorage();
  }
}

/** Disables Better Auth's storages unless a call into it is under way (also once the server has started). */
export function releaseBetterAuthStorage(): void {
  if (callsUnderWay > 0) return;
  const global = (globalThis as { [BETTER_AUTH_GLOBAL]?: { context?: Record<string, AsyncLocalStorage<unknown>> } })[BETTER_AUTH_GLOBAL];
  for (const storage of Object.values(global?.context ?? {})) storage.disable();
}
