import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { serverNodeArgs } from '../server/server-node-args';
import { processTree } from '../tests/support/proc';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /**
   * Resident and peak resident memory of the server's processes (with WORKERS, the cluster primary
   * and its workers), in MB, each summed over them (from /proc).
   */
  memory(): { rssMb: number; peakRssMb: number; processes: number };
  /** Sets each process's peak RSS (VmHWM) to its RSS of now, so that a later peak is a measure's own. */
  resetPeakRss(): void;
  /**
   * CPU time (user + system) the server's processes have used so far, in seconds, summed over them
   * (from /proc; a process that has gone keeps the last time seen).
   */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/**
 * Starts the real server as `npm start` runs it (the bundled dist/server.js, built first) in a
 * child process, so the pid is the server's (the cluster primary's with WORKERS > 1) and /proc
 * tells its memory and CPU time and those of its workers. `root`: the checkout whose server it is
 * (this one, or BENCH_BASELINE's).
 */
export async function startServer(env: NodeJS.ProcessEnv, port: number, root = ROOT): Promise<ServerProcess> {
  const build = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('server build failed');
  // The server-rendered pages need the web app and its server render (built once; their age does not change the server's cost).
  if (!existsSync(path.join(root, 'dist/web/index.html')) || !existsSync(path.join(root, 'dist/ssr/entry-server.js'))) {
    const web = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (web.status !== 0) throw new Error('web build failed');
  }
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile of the whole run there when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, ...serverNodeArgs('dist/server.js')], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`server exited early (code ${code}, signal ${signal})`)));
    child.once('error', reject);
  });
  exited.catch(() => {}); // observed again below; keeps a late exit from being unhandled

  const baseUrl = `http://127.0.0.1:${port}`;
  const pids = () => processTree(child.pid ?? -1);
  const cpu = cpuOfProcesses();
  const server: ServerProcess = {
    child,
    baseUrl,
    memory() {
      const all = pids();
      let rssMb = 0;
      let peakRssMb = 0;
      for (const pid of all) {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
        rssMb += kb('VmRSS') / 1024;
        peakRssMb += kb('VmHWM') / 1024;
      }
      return { rssMb, peakRssMb, processes: all.length };
    },
    resetPeakRss() {
      for (const pid of pids()) writeFileSync(`/proc/${pid}/clear_refs`, '5');
    },
    cpuSeconds() {
      return cpu(pids()) ?? NaN;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await gone;
      clearTimeout(timer);
    },
  };

  try {
    await Promise.race([waitUntilHealthy(baseUrl), exited]);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

async function waitUntilHealthy(baseUrl: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`server not healthy after ${timeoutMs / 1000} s`);
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU time (user + system) of a process so far, in seconds, or null when it is gone or not readable. */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime (fields 14, 15)
  } catch {
    return null;
  }
}

/**
 * Cumulative CPU seconds of a set of processes that may change between calls: each call takes the
 * current pids, and a process that has gone keeps the last time seen. Null while none was readable.
 */
export function cpuOfProcesses(): (pids: readonly number[]) => number | null {
  const seen = new Map<number, number>();
  return (pids) => {
    for (const pid of pids) {
      const cpu = processCpuSeconds(pid);
      if (cpu !== null) seen.set(pid, cpu);
    }
    return seen.size > 0 ? [...seen.values()].reduce((a, b) => a + b, 0) : null;
  };
}
