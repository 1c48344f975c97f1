import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  EXIT_CONFIG,
  EXIT_CRASH,
  STABLE_UPTIME_MS,
  type SupervisedProcess,
  type SupervisorEvent,
  restartDelayMs,
  supervise,
} from '../../server/supervisor';

/** A stand-in for a server process whose exit the test decides. */
class FakeProcess extends EventEmitter implements SupervisedProcess {
  readonly signals: NodeJS.Signals[] = [];
  constructor(
    readonly pid: number,
    readonly stderr?: PassThrough,
  ) {
    super();
  }
  kill(signal: NodeJS.Signals) {
    this.signals.push(signal);
  }
  exit(code: number | null, signal: NodeJS.Signals | null = null) {
    this.emit('exit', code, signal);
  }
}

function fakeSupervision() {
  const processes: FakeProcess[] = [];
  const events: SupervisorEvent[] = [];
  const supervisor = supervise({
    start: () => {
      const child = new FakeProcess(1000 + processes.length);
      processes.push(child);
      return child;
    },
    onEvent: (event) => events.push(event),
  });
  const latest = () => {
    const child = processes.at(-1);
    if (!child) throw new Error('nothing started');
    return child;
  };
  return { supervisor, processes, events, latest };
}

describe('restart backoff', () => {
  it('waits 0.25 s after a first crash, doubling per crash in a row up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map(restartDelayMs)).toEqual([
      250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });
});

describe('supervise', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('restarts a crashed process after the backoff delay, longer while it crashes in a loop', () => {
    const { processes, events, latest } = fakeSupervision();
    expect(events).toEqual([{ event: 'started', pid: 1000 }]);

    for (const [crash, delay] of [250, 500, 1000, 2000].entries()) {
      latest().exit(EXIT_CRASH);
      expect(events.at(-1)).toMatchObject({
        event: 'crashed',
        exitCode: EXIT_CRASH,
        cause: 'an uncaught error (logged above)',
        crashesInARow: crash + 1,
        restartInMs: delay,
      });
      vi.advanceTimersByTime(delay - 1);
      expect(processes).toHaveLength(crash + 1);
      vi.advanceTimersByTime(1);
      expect(processes).toHaveLength(crash + 2);
      expect(events.at(-1)).toEqual({ event: 'started', pid: 1000 + crash + 1 });
    }

    // A process that stayed up long enough was healthy: its crash starts the backoff over.
    vi.advanceTimersByTime(STABLE_UPTIME_MS);
    latest().exit(null, 'SIGKILL');
    expect(events.at(-1)).toMatchObject({
      event: 'crashed',
      signal: 'SIGKILL',
      cause: 'killed (kill -9, or the system ran out of memory)',
      uptimeMs: STABLE_UPTIME_MS,
      crashesInARow: 1,
      restartInMs: 250,
    });
  });

  it('does not restart a process that exits cleanly or on bad configuration, and ends with its code', async () => {
    for (const code of [0, EXIT_CONFIG]) {
      const { supervisor, processes, events, latest } = fakeSupervision();
      latest().exit(code);
      expect(await supervisor.done).toBe(code);
      expect(events.at(-1)).toMatchObject({ event: 'ended', exitCode: code });
      expect(vi.getTimerCount()).toBe(0);
      expect(processes).toHaveLength(1);
    }
  });

  it('stop forwards the signal and restarts nothing, whatever the process exits with', async () => {
    for (const [code, signal, status] of [
      [0, null, 0],
      [1, null, 1],
      [null, 'SIGTERM', 143],
    ] as const) {
      const { supervisor, processes, latest } = fakeSupervision();
      supervisor.stop('SIGTERM');
      expect(latest().signals).toEqual(['SIGTERM']);
      latest().exit(code, signal);
      expect(await supervisor.done).toBe(status);
      expect(vi.getTimerCount()).toBe(0);
      expect(processes).toHaveLength(1);
    }
  });

  it('stop while waiting to restart ends at once, with 0, and starts nothing', async () => {
    const { supervisor, processes, latest } = fakeSupervision();
    latest().exit(EXIT_CRASH);
    supervisor.stop('SIGINT');
    expect(await supervisor.done).toBe(0);
    vi.runAllTimers();
    expect(processes).toHaveLength(1);
  });
});

describe('supervise real processes', () => {
  function collect() {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        text += chunk.toString();
        callback();
      },
    });
    return { sink, text: () => text };
  }

  async function firstCrash(start: () => SupervisedProcess, stderr: Writable) {
    let crashed: (event: SupervisorEvent) => void = () => {};
    const crash = new Promise<SupervisorEvent>((resolve) => {
      crashed = resolve;
    });
    const supervisor = supervise({ start, onEvent: (event) => event.event === 'crashed' && crashed(event), stderr });
    const event = await crash;
    supervisor.stop('SIGTERM');
    expect(await supervisor.done).toBe(0);
    return event;
  }

  it('tells an out-of-memory crash from V8 message on stderr, and forwards stderr', async () => {
    const output = collect();
    const event = await firstCrash(
      () =>
        spawn(process.execPath, ['--max-old-space-size=32', '-e', 'const a = []; for (;;) a.push(new Array(1e5).fill(1));'], {
          stdio: ['ignore', 'ignore', 'pipe'],
        }),
      output.sink,
    );
    expect(event).toMatchObject({ signal: 'SIGABRT', cause: 'out of memory (the JavaScript heap reached its limit)' });
    expect(output.text()).toMatch(/JavaScript heap out of memory/);
  });

  it('finds the out-of-memory message split over two writes or inside a long one', async () => {
    const message = 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n';
    for (const writes of [
      [message.slice(0, 70), message.slice(70)],
      [`${'GC trace\n'.repeat(50)}${message}${' 1: native frame\n'.repeat(50)}`],
    ]) {
      const output = collect();
      const stderr = new PassThrough();
      const child = new FakeProcess(1, stderr);
      const crash = firstCrash(() => child, output.sink);
      for (const write of writes) stderr.write(write);
      stderr.end();
      child.exit(null, 'SIGABRT');
      expect(await crash).toMatchObject({ cause: 'out of memory (the JavaScript heap reached its limit)' });
      expect(output.text()).toBe(writes.join(''));
    }
  });

  it('counts a process that cannot be spawned as a crash', async () => {
    const event = await firstCrash(() => spawn('/nonexistent/server'), collect().sink);
    expect(event).toMatchObject({ cause: 'could not be started: spawn /nonexistent/server ENOENT', restartInMs: 250 });
  });
});
