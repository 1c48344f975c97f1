// The lines of the processes that run others: npm start's supervisor (server/supervisor-main.ts)
// and the cluster primary (server/cluster.ts). JSON like the server's (pino's fields) and written
// at any LOG_LEVEL: they are rare and they are what an operator looks for.
import { EXIT_CONFIG, type SupervisorEvent } from './supervisor';

const LEVELS = { info: 30, error: 50 } as const;

export function logLine(name: string, level: keyof typeof LEVELS, msg: string, fields: object): void {
  const line = { level: LEVELS[level], time: Date.now(), pid: process.pid, name, ...fields, msg };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

function describeExit(exitCode: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `signal ${signal}`;
  return exitCode === null ? 'no exit code' : `exit code ${exitCode}`;
}

export interface SupervisedName {
  /** The line's `name`: the writing process. */
  name: string;
  /** The supervised process in words: "server", "worker 2". */
  what: string;
  /** The field of its pid (`pid` of a line is the writing process's, pino's field). */
  pidField: string;
  /** Said of it when it starts, after its pid (", heap limit 1024 MB"). */
  startedNote?: string;
  /** More fields of every line. */
  fields?: object;
}

export function logSupervisorEvent(event: SupervisorEvent, who: SupervisedName): void {
  const { pid, ...rest } = event;
  const fields = { [who.pidField]: pid, ...who.fields, ...rest };
  const log = (level: keyof typeof LEVELS, msg: string) => logLine(who.name, level, `${who.what} ${msg}`, fields);
  switch (event.event) {
    case 'started':
      log('info', `started (pid ${event.pid}${who.startedNote ?? ''})`);
      return;
    case 'crashed':
      log(
        'error',
        `(pid ${event.pid}, up ${(event.uptimeMs / 1000).toFixed(1)} s) crashed with ` +
          `${describeExit(event.exitCode, event.signal)}: ${event.cause}; ` +
          `restarting in ${event.restartInMs / 1000} s (crash ${event.crashesInARow} in a row)`,
      );
      return;
    case 'ended': {
      const advice = event.exitCode === EXIT_CONFIG ? ': fix the configuration and start again' : '';
      log(
        event.exitCode === 0 ? 'info' : 'error',
        `(pid ${event.pid}) ended with ${describeExit(event.exitCode, event.signal)}: ${event.cause}; not restarting${advice}`,
      );
    }
  }
}
