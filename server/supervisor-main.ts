// `npm start`'s own process (dist/supervisor.js, loaded by scripts/start.mjs): runs the server
// (dist/server.js) with a heap limit, restarts it when it crashes, and stops it on SIGTERM/SIGINT.
// Its lines are JSON like the server's (pino's fields, name "supervisor") and written at any LOG_LEVEL.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';
import { EXIT_CONFIG, type SupervisorEvent, supervise } from './supervisor';

const DEFAULT_MAX_HEAP_MB = 1024;

const heapSchema = z.coerce
  .number({ error: 'SERVER_MAX_HEAP_MB must be a number' })
  .int('SERVER_MAX_HEAP_MB must be a whole number of megabytes')
  .min(128, 'SERVER_MAX_HEAP_MB must be at least 128')
  .max(65_536, 'SERVER_MAX_HEAP_MB must be at most 65536')
  .default(DEFAULT_MAX_HEAP_MB);

const LEVELS = { info: 30, error: 50 } as const;

function log(level: keyof typeof LEVELS, msg: string, fields: object): void {
  const line = { level: LEVELS[level], time: Date.now(), pid: process.pid, name: 'supervisor', ...fields, msg };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

function describeExit(exitCode: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `signal ${signal}`;
  return exitCode === null ? 'no exit code' : `exit code ${exitCode}`;
}

function logEvent(event: SupervisorEvent, maxHeapMb: number): void {
  // `pid` of a log line is the writing process's (pino's field); the server's is `serverPid`.
  const { pid: serverPid, ...rest } = event;
  const fields = { serverPid, ...rest };
  switch (event.event) {
    case 'started':
      log('info', `server started (pid ${event.pid}, heap limit ${maxHeapMb} MB)`, fields);
      return;
    case 'crashed':
      log(
        'error',
        `server (pid ${event.pid}, up ${(event.uptimeMs / 1000).toFixed(1)} s) crashed with ` +
          `${describeExit(event.exitCode, event.signal)}: ${event.cause}; ` +
          `restarting in ${event.restartInMs / 1000} s (crash ${event.crashesInARow} in a row)`,
        fields,
      );
      return;
    case 'ended': {
      const fine = event.exitCode === 0;
      const advice = event.exitCode === EXIT_CONFIG ? ': fix the configuration and start again' : '';
      log(
        fine ? 'info' : 'error',
        `server (pid ${event.pid}) ended with ${describeExit(event.exitCode, event.signal)}: ${event.cause}; not restarting${advice}`,
        fields,
      );
    }
  }
}

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
      spawn(process.execPath, ['--enable-source-maps', `--max-old-space-size=${maxHeapMb}`, serverJs], {
        stdio: ['inherit', 'inherit', 'pipe'],
      }),
    onEvent: (event) => logEvent(event, maxHeapMb),
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => supervisor.stop(signal));
  void supervisor.done.then((code) => process.exit(code));
}
