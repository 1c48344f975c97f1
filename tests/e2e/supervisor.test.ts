import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EXIT_CONFIG, EXIT_CRASH } from '../../server/supervisor';
import { signedInUser } from '../support/client';
import { testDatabases } from '../support/databases';
import { freePort } from '../support/free-port';
import { healthy, jsonLines, until } from './support/process-output';
import { type ServerProcess, launch, startServerProcess } from './support/server-process';

const databases = await testDatabases();
const CRASH_ON_SIGNAL = path.join(import.meta.dirname, 'support/crash-on-signal.mjs');

/** The supervisor's lines in `npm start`'s output (JSON, name "supervisor"). */
interface SupervisorLine {
  event: 'started' | 'crashed' | 'ended';
  serverPid: number;
  exitCode?: number | null;
  signal?: string | null;
  cause?: string;
  crashesInARow?: number;
  restartInMs?: number;
  msg: string;
}

function supervisorLines(output: string): SupervisorLine[] {
  return jsonLines(output).filter((line) => line.name === 'supervisor') as unknown as SupervisorLine[];
}

for (const database of databases) {
  describe(`npm start supervises the server [${database.name}]`, () => {
    let server: ServerProcess | undefined;
    const running = () => {
      if (!server) throw new Error('npm start is not running');
      return server;
    };
    const lines = () => supervisorLines(running().output());
    const servingPid = () => {
      const started = lines().filter((line) => line.event === 'started');
      return started.at(-1)?.serverPid;
    };
    /** Waits for the server after `pid` to be started and healthy; returns its pid. */
    const restartedAfter = async (pid: number) =>
      until('a restarted, healthy server', async () => {
        const next = servingPid();
        return next !== undefined && next !== pid && (await healthy(running().url)) && next;
      });

    beforeAll(async () => {
      server = await startServerProcess(
        database,
        {
          SERVER_MAX_HEAP_MB: '512',
          NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${CRASH_ON_SIGNAL}`].filter(Boolean).join(' '),
        },
        'npm start',
      );
    });
    afterAll(async () => {
      await server?.destroy();
    });

    test('runs the built server with the configured heap limit and a small young generation', () => {
      const pid = servingPid();
      expect(pid).toBeDefined();
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect(argv).toContain('--max-old-space-size=512');
      expect(argv).toContain('--max-semi-space-size=4');
      expect(argv.some((arg) => arg.endsWith(path.join('dist', 'server.js')))).toBe(true);
      expect(lines().at(-1)?.msg).toBe(`server started (pid ${pid}, heap limit 512 MB)`);
    });

    test('a SIGKILLed server answers healthy again within 5 s, with its sessions and data', async () => {
      const { url } = running();
      const user = await signedInUser(url, 'Kim Killed');
      const link = await user.api.createLink({
        title: 'Survives a crash',
        description: 'Shared before the kill',
        url: 'https://example.com/survives',
        thumbnailUrl: '',
        format: 'article',
        topicIds: [],
        isOriginalContent: false,
      });
      const pid = servingPid();
      if (pid === undefined) throw new Error('no server pid in the output');

      const killedAt = Date.now();
      process.kill(pid, 'SIGKILL');
      const next = await restartedAfter(pid);
      // The bound: a crash is not an outage.
      expect(Date.now() - killedAt).toBeLessThan(5_000);

      expect(lines().find((line) => line.event === 'crashed' && line.serverPid === pid)).toMatchObject({
        signal: 'SIGKILL',
        cause: 'killed (kill -9, or the system ran out of memory)',
        restartInMs: 250,
      });
      expect(next).not.toBe(pid);
      expect(await user.api.me()).toEqual(user.me);
      expect(await user.api.getLink(link.id)).toEqual(link);
    });

    test('an uncaught exception or unhandled rejection is logged, the server exits and is restarted', async () => {
      for (const [signal, message, what] of [
        ['SIGUSR2', 'test: uncaught exception', 'uncaught exception'],
        ['SIGHUP', 'test: unhandled rejection', 'unhandled promise rejection'],
      ] as const) {
        const pid = servingPid();
        if (pid === undefined) throw new Error('no server pid in the output');
        process.kill(pid, signal);
        await restartedAfter(pid);
        const logged = jsonLines(running().output()).find(
          (line) => line.pid === pid && (line.err as { message?: string } | undefined)?.message === message,
        );
        expect(logged).toMatchObject({ level: 60, msg: `${what}: exiting` });
        expect(lines().find((line) => line.event === 'crashed' && line.serverPid === pid)).toMatchObject({
          exitCode: EXIT_CRASH,
          cause: 'an uncaught error (logged above)',
        });
      }
    });

    test('SIGTERM stops the server cleanly and npm start exits 0 within 10 s, restarting nothing', async () => {
      const { url } = running();
      const starts = lines().filter((line) => line.event === 'started').length;
      const stoppedAt = Date.now();
      expect(await running().stop()).toBe(0);
      expect(Date.now() - stoppedAt).toBeLessThan(10_000);
      expect(lines().filter((line) => line.event === 'started')).toHaveLength(starts);
      expect(lines().at(-1)).toMatchObject({ event: 'ended', exitCode: 0, cause: 'stopped cleanly' });
      expect(await healthy(url)).toBe(false);
    });
  });
}

describe('npm start when the server cannot run', () => {
  let dataDir: string | undefined;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'supercurate-e2e-'));
  });
  afterAll(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** `npm start` with these variables (undefined: unset). */
  async function npmStart(env: Record<string, string | undefined>) {
    const full: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // The server fails before it serves pages: no web build needed.
      WEB_DIR: dataDir,
      ...env,
    };
    if (!env.DATABASE_URL) delete full.DATABASE_URL;
    for (const [name, value] of Object.entries(env)) if (value === undefined) delete full[name];
    return launch('npm start', full);
  }

  test('without WEB_DIR, npm start serves the web app built into dist/web (the bundle runs from dist/chunks)', async () => {
    const port = await freePort();
    const started = await npmStart({ PORT: String(port), WEB_DIR: undefined });
    try {
      const url = `http://127.0.0.1:${port}`;
      await until('a healthy server', () => healthy(url));
      for (const page of ['/', '/directory']) {
        const res = await fetch(`${url}${page}`);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('<div id="root"');
      }
    } finally {
      started.child.kill('SIGTERM');
      await started.exited;
    }
  });

  test('a server that crashes in a loop is restarted with growing delays; SIGTERM then ends it', async () => {
    // Valid configuration, but nothing listens there: each start fails when it migrates.
    const started = await npmStart({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing' });
    try {
      const crashes = await until('four crashes', () => {
        const found = supervisorLines(started.output()).filter((line) => line.event === 'crashed');
        return found.length >= 4 && found;
      });
      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
      expect(crashes.map((line) => [line.exitCode, line.crashesInARow, line.restartInMs])).toEqual([
        [EXIT_CRASH, 1, 250],
        [EXIT_CRASH, 2, 500],
        [EXIT_CRASH, 3, 1000],
        [EXIT_CRASH, 4, 2000],
      ]);
      expect(supervisorLines(started.output()).filter((line) => line.event === 'started')).toHaveLength(4);
      expect(started.output()).toMatch(/could not start: exiting/);
      expect(started.output()).toMatch(/ECONNREFUSED/);
    } finally {
      started.child.kill('SIGKILL');
    }
  });

  test('bad configuration ends npm start with exit code 78 after one try', async () => {
    const started = await npmStart({ PORT: 'eighty' });
    expect(await started.exited).toBe(EXIT_CONFIG);
    expect(started.output()).toMatch(/Invalid configuration:\n\s+PORT: PORT must be a number/);
    expect(supervisorLines(started.output()).map((line) => [line.event, line.exitCode])).toEqual([
      ['started', undefined],
      ['ended', EXIT_CONFIG],
    ]);
    expect(supervisorLines(started.output()).at(-1)?.msg).toMatch(/not restarting: fix the configuration and start again$/);
  });

  test('a bad WORKERS ends npm start with exit code 78 after one try, before any worker starts', async () => {
    for (const [value, message] of [
      ['two', 'WORKERS must be a number'],
      ['0', 'WORKERS must be at least 1 (1 runs one server process, without a cluster)'],
      ['1.5', 'WORKERS must be a whole number of processes'],
    ]) {
      const started = await npmStart({ WORKERS: value as string });
      expect(await started.exited).toBe(EXIT_CONFIG);
      expect(started.output()).toContain(`Invalid configuration:\n  WORKERS: ${message}`);
      expect(supervisorLines(started.output()).map((line) => [line.event, line.exitCode])).toEqual([
        ['started', undefined],
        ['ended', EXIT_CONFIG],
      ]);
      expect(jsonLines(started.output()).filter((line) => line.name === 'cluster')).toEqual([]);
    }
  });

  test('a bad SERVER_MAX_HEAP_MB ends npm start with exit code 78 before the server starts', async () => {
    for (const [value, message] of [
      ['lots', 'SERVER_MAX_HEAP_MB must be a number'],
      ['64', 'SERVER_MAX_HEAP_MB must be at least 128'],
      ['1024.5', 'SERVER_MAX_HEAP_MB must be a whole number of megabytes'],
    ]) {
      const started = await npmStart({ SERVER_MAX_HEAP_MB: value as string });
      expect(await started.exited).toBe(EXIT_CONFIG);
      expect(started.output()).toContain(`Invalid configuration:\n  SERVER_MAX_HEAP_MB: ${message}`);
      expect(supervisorLines(started.output())).toEqual([]);
    }
  });
});
