// Keeps one server process running: restarts it when it crashes, backing off while it crashes in
// a loop, and stops it on request. It knows processes only through SupervisedProcess, so the same
// logic drives a child_process (npm start, server/supervisor-main.ts) and the node:cluster workers
// of WORKERS (server/cluster.ts).
import { constants } from 'node:os';
import type { Readable } from 'node:stream';

/** Exit code of the server on an uncaught error (sysexits EX_SOFTWARE): restarted. */
export const EXIT_CRASH = 70;
/** Exit code of the server on bad configuration (sysexits EX_CONFIG): a restart would fail the same way, so none. */
export const EXIT_CONFIG = 78;

export const FIRST_RESTART_DELAY_MS = 250;
export const MAX_RESTART_DELAY_MS = 30_000;
/** A process that stayed up this long was healthy: its crash starts the backoff over. */
export const STABLE_UPTIME_MS = 60_000;

/** The wait before restarting after the nth crash in a row (1-based): 0.25 s, doubling up to 30 s. */
export function restartDelayMs(crashesInARow: number): number {
  return Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** Math.max(0, crashesInARow - 1));
}

/** What a supervised process must offer: a ChildProcess does, and so does a cluster worker's `process`. */
export interface SupervisedProcess {
  /** Undefined when the process could not be started. */
  readonly pid?: number | undefined;
  kill(signal: NodeJS.Signals): void;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  /** Piped stderr: forwarded, and read for V8's out-of-memory message. */
  readonly stderr?: Readable | null;
}

export type SupervisorEvent =
  | { event: 'started'; pid: number | undefined }
  | {
      event: 'crashed';
      pid: number | undefined;
      exitCode: number | null;
      signal: NodeJS.Signals | null;
      cause: string;
      uptimeMs: number;
      crashesInARow: number;
      restartInMs: number;
    }
  | { event: 'ended'; pid: number | undefined; exitCode: number | null; signal: NodeJS.Signals | null; cause: string };

export interface SuperviseOptions {
  start(): SupervisedProcess;
  /** One call per start, crash and end: the caller logs them. */
  onEvent(event: SupervisorEvent): void;
  /** Where the process's piped stderr goes (process.stderr by default). */
  stderr?: NodeJS.WritableStream;
}

export interface Supervisor {
  /** Forwards the signal to the running process and restarts nothing any more; `done` then settles. */
  stop(signal: NodeJS.Signals): void;
  /**
   * The exit code to leave with once supervision ends: the process's own after stop() or a clean
   * exit or bad configuration; 0 when stopped while waiting to restart.
   */
  readonly done: Promise<number>;
}

const OUT_OF_MEMORY = /heap out of memory|process out of memory/;

/** Why a process exited, in words for the log (beside its exit code or signal). */
export function exitCause(code: number | null, signal: NodeJS.Signals | null, outOfMemory = false): string {
  if (outOfMemory) return 'out of memory (the JavaScript heap reached its limit)';
  if (signal === 'SIGKILL') return 'killed (kill -9, or the system ran out of memory)';
  if (signal) return 'killed';
  if (code === 0) return 'stopped cleanly';
  if (code === EXIT_CONFIG) return 'bad configuration';
  if (code === EXIT_CRASH) return 'an uncaught error (logged above)';
  return 'an error';
}

/** A process's exit as a shell reports it: its code, or 128 + the signal's number. */
export function exitStatus(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return 128 + (signal ? constants.signals[signal] : 0);
}

export function supervise(options: SuperviseOptions): Supervisor {
  const stderr = options.stderr ?? process.stderr;
  let current: SupervisedProcess | undefined;
  let restartTimer: NodeJS.Timeout | undefined;
  let stopping = false;
  let crashesInARow = 0;
  let finish!: (code: number) => void;
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });

  const start = () => {
    restartTimer = undefined;
    const child = options.start();
    const startedAt = Date.now();
    let outOfMemory = false;
    let tail = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr.write(chunk);
      // The tail of the previous chunk: the message may straddle two.
      const text = tail + chunk.toString();
      if (OUT_OF_MEMORY.test(text)) outOfMemory = true;
      tail = text.slice(-64);
    });
    let exited = false;
    const onExit = (code: number | null, signal: NodeJS.Signals | null, cause = exitCause(code, signal, outOfMemory)) => {
      if (exited) return;
      exited = true;
      current = undefined;
      if (stopping || code === 0 || code === EXIT_CONFIG) {
        options.onEvent({ event: 'ended', pid: child.pid, exitCode: code, signal, cause });
        finish(exitStatus(code, signal));
        return;
      }
      const uptimeMs = Date.now() - startedAt;
      crashesInARow = uptimeMs >= STABLE_UPTIME_MS ? 1 : crashesInARow + 1;
      const restartInMs = restartDelayMs(crashesInARow);
      options.onEvent({ event: 'crashed', pid: child.pid, exitCode: code, signal, cause, uptimeMs, crashesInARow, restartInMs });
      restartTimer = setTimeout(start, restartInMs);
    };
    child.once('exit', (code, signal) => {
      // stderr may still hold the end of the process's last words (V8's out-of-memory message).
      const pipe = child.stderr;
      if (pipe && !pipe.readableEnded && !pipe.destroyed) pipe.once('close', () => onExit(code, signal));
      else onExit(code, signal);
    });
    // A process that could not be spawned emits 'error' and never 'exit'.
    child.on('error', (err) => {
      if (child.pid === undefined) onExit(null, null, `could not be started: ${err.message}`);
    });
    current = child;
    options.onEvent({ event: 'started', pid: child.pid });
  };

  start();
  return {
    stop(signal) {
      stopping = true;
      if (current) {
        current.kill(signal);
      } else if (restartTimer) {
        clearTimeout(restartTimer);
        restartTimer = undefined;
        finish(0);
      }
    },
    done,
  };
}
