import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVER_OUTPUTS, SERVER_SOURCES, stale } from '../../../scripts/build-freshness.mjs';
import { serverNodeArgs } from '../../../server/server-node-args';
import type { TestDatabase } from '../../support/databases';
import { freePort } from '../../support/free-port';
import { snapshotWebBuild } from './web-build';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const OUTPUT_KEPT_CHARS = 100_000;
const START_DEADLINE_MS = 60_000;
const STOP_DEADLINE_MS = 15_000;
const POLL_INTERVAL_MS = 100;

/** The real server (`server/main.ts`) running as a child process on a fresh data directory. */
export interface ServerProcess {
  /** http://127.0.0.1:PORT, also the server's PUBLIC_URL. */
  url: string;
  origin: string;
  port: number;
  dataDir: string;
  database: TestDatabase['name'];
  /** The PostgreSQL database of this server (undefined: SQLite in dataDir). */
  databaseUrl: string | undefined;
  /** The process id of the running server (of the supervisor under `npm start`). */
  readonly pid: number | undefined;
  /** The latest output (stdout and stderr) of the running process. */
  output(): string;
  /** SIGTERM; resolves with the exit code. Throws if it has not exited 15 s later. */
  stop(): Promise<number | null>;
  /**
   * Stops the process with SIGTERM (or SIGKILL: a crash, no shutdown at all) and starts a new one
   * on the same DATA_DIR, database and port.
   */
  restart(options?: { kill?: boolean }): Promise<void>;
  /** Stops the process and deletes its data directory and database. */
  destroy(): Promise<void>;
}

/**
 * How the server is run: `dist` (the built dist/server.js itself, as npm start's supervisor runs
 * it: its pid is the server's), or `npm start` (scripts/start.mjs: dist/server.js under its
 * supervisor). Either way dist/server.js is first rebuilt if a source is newer (ensureServerBuild).
 * The built file starts in a third of the CPU time that `server/main.ts` through tsx takes.
 */
export type Launcher = 'npm start' | 'dist';

const LAUNCH_ARGS: Record<Launcher, string[]> = {
  'npm start': ['scripts/start.mjs'],
  dist: serverNodeArgs('dist/server.js'),
};

/** Rebuilds dist/server.js (about a second) when it is missing or older than its sources, as `npm start` does. */
function ensureServerBuild(): void {
  const inRoot = (file: string) => path.join(ROOT, file);
  if (!SERVER_OUTPUTS.some((output) => stale(inRoot(output), SERVER_SOURCES.map(inRoot)))) return;
  const build = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('could not build the server: node scripts/build-server.mjs failed');
}

/**
 * Starts the real server on a fresh database of the given kind (SQLite in DATA_DIR by default).
 * `env` adds or overrides server variables (e.g. PREVIEW_ALLOW_PRIVATE) for this server only.
 */
export async function startServerProcess(
  database?: TestDatabase,
  extraEnv: Record<string, string> = {},
  launcher: Launcher = 'dist',
): Promise<ServerProcess> {
  const web = await snapshotWebBuild();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'supercurate-e2e-'));
  let fresh: Awaited<ReturnType<TestDatabase['create']>>;
  try {
    fresh = database ? await database.create() : { databaseUrl: undefined, drop: async () => {} };
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    web.remove();
    throw err;
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    LOG_LEVEL: 'warn',
    // Every test signs up its own users from one address.
    AUTH_RATE_LIMIT: '1000',
    // One server process per test server on the shared 2 cores; the cluster has its own tests
    // (cluster.test.ts), which ask for WORKERS.
    WORKERS: '1',
    WEB_DIR: web.dir,
    // Imported links point at made-up hosts: no background preview fetching unless a test asks.
    IMPORT_PREVIEW_PER_MINUTE: '0',
    LINK_CHECK_PER_MINUTE: '0',
    READABLE_COPY_PER_MINUTE: '0',
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  if (fresh.databaseUrl) env.DATABASE_URL = fresh.databaseUrl;

  let child: RunningChild | undefined;
  try {
    child = await spawnServer(launcher, env, url);
  } catch (err) {
    await fresh.drop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
    web.remove();
    throw err;
  }

  return {
    url,
    origin: url,
    port,
    dataDir,
    database: database?.name ?? 'sqlite',
    databaseUrl: fresh.databaseUrl,
    get pid() {
      return child?.pid;
    },
    output() {
      return child?.output() ?? '';
    },
    async stop() {
      if (!child) throw new Error('the server is not running');
      return child.stop();
    },
    async restart(options = {}) {
      if (child) await (options.kill ? child.kill() : child.stop());
      child = undefined;
      child = await spawnServer(launcher, env, url);
    },
    async destroy() {
      try {
        if (child) await child.stop();
        child = undefined;
      } finally {
        await fresh.drop().catch((err: unknown) => console.warn('could not drop the test database', err));
        rmSync(dataDir, { recursive: true, force: true });
        web.remove();
      }
    },
  };
}

export interface RunningChild {
  pid: number | undefined;
  output(): string;
  stop(): Promise<number | null>;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
}

/** A launched server process (not waited for) and what it has written so far. */
export interface Launched {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (null: ended by a signal). */
  exited: Promise<number | null>;
}

export function launch(launcher: Launcher, env: NodeJS.ProcessEnv): Launched {
  ensureServerBuild();
  const child = spawn(process.execPath, LAUNCH_ARGS[launcher], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Starts a server process with exactly this environment and waits until `url` answers /api/health. */
export async function spawnServer(launcher: Launcher, env: NodeJS.ProcessEnv, url: string): Promise<RunningChild> {
  const { child, output, exited } = launch(launcher, env);
  // A server that dies during a test says why.
  let stopping = false;
  void exited.then((code) => {
    if (!stopping) console.error(`e2e server ${url} exited with code ${code}:\n${output()}`);
  });

  try {
    await waitUntilHealthy(url, child, exited);
  } catch (err) {
    stopping = true;
    await stopChild(child, exited);
    throw new Error(`${(err as Error).message}\n--- server output ---\n${output()}`);
  }
  return {
    pid: child.pid,
    output,
    async stop() {
      stopping = true;
      return stopChild(child, exited);
    },
    async kill() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Polls GET /api/health until it answers 200, the process exits, or the deadline passes. */
async function waitUntilHealthy(url: string, child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  let exitCode: number | null | undefined;
  void exited.then((code) => {
    exitCode = code;
  });
  const deadline = Date.now() + START_DEADLINE_MS;
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    if (exitCode !== undefined || child.exitCode !== null) {
      throw new Error(`the server exited with code ${exitCode ?? child.exitCode} before it was ready`);
    }
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
      lastProblem = `GET /api/health answered ${res.status}`;
    } catch (err) {
      lastProblem = (err as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
  throw new Error(`the server at ${url} was not ready after ${START_DEADLINE_MS} ms (${lastProblem})`);
}

/**
 * SIGTERM to this child (never by name), then SIGKILL if it does not finish shutting down in time.
 * Resolves with its exit code.
 */
async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), STOP_DEADLINE_MS);
  });
  const result = await Promise.race([exited, timedOut]);
  clearTimeout(timer);
  if (result === 'timeout') {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`the server did not stop within ${STOP_DEADLINE_MS} ms of SIGTERM`);
  }
  return result;
}
