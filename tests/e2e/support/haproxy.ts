import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';
/** The header naming the server that answered: added by the test's HAProxy only, never by the app. */
export const BACKEND_HEADER = 'x-backend';
const STOP_DEADLINE_MS = 10_000;

export interface LoadBalancer {
  url: string;
  /** What haproxy has written (its warnings and errors). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * deploy/haproxy.cfg as the tests run it: the frontend on 127.0.0.1:`port`, its `server` lines
 * pointed at the given loopback ports in order (one per line of the file), and every answer
 * naming its server in X-Backend.
 */
export function haproxyConfig(port: number, backendPorts: number[]): string {
  const lines = readFileSync(path.join(ROOT, 'deploy/haproxy.cfg'), 'utf8').split('\n');
  const servers = lines.filter((line) => /^\s*server\s/.test(line)).length;
  if (servers !== backendPorts.length) throw new Error(`deploy/haproxy.cfg has ${servers} servers, the test ${backendPorts.length}`);
  let next = 0;
  const out: string[] = [];
  for (const line of lines) {
    if (/^\s*bind\s/.test(line)) out.push(`    bind 127.0.0.1:${port}`);
    else if (/^\s*server\s/.test(line)) {
      if (next === 0) out.push(`    http-response set-header ${BACKEND_HEADER} %s`);
      const address = `127.0.0.1:${backendPorts[next++]}`;
      out.push(line.replace(/^(\s*server\s+\S+\s+)\S+/, (_all, head: string) => `${head}${address}`));
    } else out.push(line);
  }
  return out.join('\n');
}

/** HAProxy in the foreground (`-db`) with that configuration, written into `dir`. */
export function startHaproxy(dir: string, port: number, backendPorts: number[]): LoadBalancer {
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(port, backendPorts));
  const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.once('error', (err) => {
    output += String(err);
  });
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop: () => stopHaproxy(child, exited, () => output) };
}

/** SIGTERM to this haproxy (never by name); SIGKILL if it has not gone within the deadline. */
async function stopHaproxy(child: ChildProcess, exited: Promise<number | null>, output: () => string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_DEADLINE_MS);
  await exited;
  clearTimeout(timer);
  if (child.exitCode !== 0 && child.signalCode !== 'SIGTERM' && child.exitCode !== 143) console.warn(`haproxy exited: ${output()}`);
}
