// `npm start`'s own process (dist/supervisor.js, loaded by scripts/start.mjs): runs the server
// (dist/server.js: one process, or the cluster primary of WORKERS processes, server/cluster.ts)
// with a heap limit (each worker gets its own), restarts it when it crashes, and stops it on
// SIGTERM/SIGINT.
// Its lines (server/supervisor-log.ts) are named "supervisor".
import { spawn } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';
import { EXIT_CONFIG, supervise } from './supervisor';
import { logSupervisorEvent } from './supervisor-log';
import { DEFAULT_MAX_HEAP_MB, serverNodeArgs } from './server-node-args';

const heapSchema = z.coerce
  .number({ error: 'SERVER_MAX_HEAP_MB must be a number' })
  .int('SERVER_MAX_HEAP_MB must be a whole number of megabytes')
  .min(128, 'SERVER_MAX_HEAP_MB must be at least 128')
  .max(65_536, 'SERVER_MAX_HEAP_MB must be at most 65536')
  .default(DEFAULT_MAX_HEAP_MB);

export function main(): void {
  const heap = heapSchema.safeParse(process.env.SERVER_MAX_HEAP_MB || undefined);
  if (!heap.success) {
    console.error(`Invalid configuration:\n  SERVER_MAX_HEAP_MB: ${heap.error.issues[0]?.message}`);
    process.exit(EXIT_CONFIG);
  }
  const maxHeapMb = heap.data;
  const serverJs = path.join(import.meta.dirname, 'server.js');
  const supervisor = supervise({
    start: () =>
      spawn(process.execPath, serverNodeArgs(serverJs, maxHeapMb), {
        stdio: ['inherit', 'inherit', 'pipe'],
      }),
    onEvent: (event) =>
      logSupervisorEvent(event, { name: 'supervisor', what: 'server', pidField: 'serverPid', startedNote: `, heap limit ${maxHeapMb} MB` }),
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => supervisor.stop(signal));
  void supervisor.done.then((code) => process.exit(code));
}
