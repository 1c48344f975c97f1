/** What the bench sections share: settings from the environment, autocannon runs, printing. */
import http from 'node:http';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { type Budget, openLoopRate } from './budgets';
import { measureOpenLoop } from './open-loop';
import { freePort } from '../tests/support/free-port';

export function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

export interface Throughput {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** 2xx responses whose body failed the route's check (e.g. an empty feed page). */
  mismatches: number;
  /** CPU time the server process spent per request, in microseconds (see CpuProbe). */
  serverCpuUs?: number;
  /** CPU time the database's backend processes spent per request (PostgreSQL on this machine only). */
  dbCpuUs?: number;
}

/**
 * Cumulative CPU seconds of the server process and, for PostgreSQL, of the bench database's
 * backends. Unlike req/s, CPU per request hardly moves when other work competes for the cores.
 */
export type CpuProbe = () => Promise<{ serverS: number; dbS: number | null }>;

export interface Load {
  url: string;
  connections: number;
  headers?: Record<string, string>;
  /** Each request built afresh (autocannon's setupRequest), e.g. another user's cookie each time. */
  setupRequest?: (req: autocannon.Request) => autocannon.Request;
  /** A 2xx response whose body fails this counts as a mismatch. */
  verifyBody?: (body: string) => boolean;
}

/** Closed loop: each connection sends its next request when the last is answered. */
export async function measure(load: Load, durationS: number, cpu?: CpuProbe): Promise<Throughput> {
  const verify = load.verifyBody ?? (() => true);
  const before = await cpu?.();
  const r = await autocannon({
    url: load.url,
    connections: load.connections,
    duration: durationS,
    headers: load.headers ?? {},
    ...(load.setupRequest && { requests: [{ setupRequest: load.setupRequest }] }),
    ...(load.verifyBody && { verifyBody: (body: autocannon.Request['body']) => verify(String(body ?? '')) }),
  });
  const after = await cpu?.();
  const perRequestUs = (a: number | null | undefined, b: number | null | undefined) =>
    a != null && b != null && r.requests.total > 0 ? ((a - b) * 1e6) / r.requests.total : undefined;
  return {
    serverCpuUs: perRequestUs(after?.serverS, before?.serverS),
    dbCpuUs: perRequestUs(after?.dbS, before?.dbS),
    reqPerSec: r.requests.total / r.duration,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    mismatches: r.mismatches,
  };
}

export type Paired = Throughput & { trivial: Throughput };

/**
 * The route measured right after the trivial route (GET /api/health/live, no database) at the
 * same concurrency, each after a 1 s warm-up, so both see the same machine at nearly the same time.
 */
export async function measurePaired(trivial: Load, route: Load, durationS: number, cpu?: CpuProbe): Promise<Paired> {
  await measure(trivial, 1);
  const pairedTrivial = await measure(trivial, durationS, cpu);
  await measure(route, 1);
  return { ...(await measure(route, durationS, cpu)), trivial: pairedTrivial };
}

export interface NamedLoad {
  name: string;
  load: Load;
  /** A budgeted route is also measured at a fixed arrival rate (budgets.ts). */
  budget?: Budget;
}

export type MeasuredRoute = Paired & {
  name: string;
  vsTrivial: number;
  loadAverage: string;
  budget?: Budget;
  /** At its budget's arrival rate (openLoopRate), for a budgeted route. */
  openLoop?: Throughput;
};

/** BENCH_ROUTES=<regular expression>: only the routes whose names match it are measured (e.g. to profile one). */
const ONLY_ROUTES = new RegExp(process.env.BENCH_ROUTES ?? '', 'i');

/**
 * Each route measured right after the trivial route (measurePaired), one after the other, with
 * its throughput relative to the trivial route's and the load average when it finished; a
 * budgeted route then once more at its budget's fixed arrival rate (openLoopRate).
 */
export async function measureRoutes(
  trivial: Load,
  routes: readonly NamedLoad[],
  durationS: number,
  cpu?: CpuProbe,
): Promise<MeasuredRoute[]> {
  const results: MeasuredRoute[] = [];
  for (const route of routes.filter((r) => ONLY_ROUTES.test(r.name))) {
    const t = await measurePaired(trivial, route.load, durationS, cpu);
    const openLoop = route.budget && (await measureOpenLoop(route.load, openLoopRate(route.budget), durationS));
    results.push({
      name: route.name,
      ...t,
      vsTrivial: t.reqPerSec / t.trivial.reqPerSec,
      loadAverage: loadAverages(),
      ...(route.budget && { budget: route.budget, openLoop }),
    });
  }
  return results;
}

/** `fn` over the items, `concurrency` at a time, results in the items' order (e.g. signing a pool of users in). */
export async function pool<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return out;
}

/** `n` microseconds, or '?' when unknown. */
export const us = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '?' : `${Math.round(n)} µs`);

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export const mb = (n: number) => `${n.toFixed(1)} MB`;
export const ms = (n: number) => `${n.toFixed(1)} ms`;
/** autocannon's latencies are whole milliseconds (the open loop's, tenths). */
export const wholeMs = (n: number) => (n < 1 ? '<1 ms' : `${n} ms`);
export const rate = (n: number) => Math.round(n).toLocaleString('en-US');
export const load = () => loadavg()[0]?.toFixed(2) ?? '?';
export const loadAverages = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * Measured routes as a table, each beside the trivial route measured just before it ('live'):
 * throughput, latency, failures, ratio, the p99 at a fixed arrival rate (budgeted routes), and CPU per request.
 */
export function printRoutes(title: string, routes: readonly MeasuredRoute[], mismatchHeader = 'mismatch'): void {
  const withDb = routes.some((t) => t.dbCpuUs !== undefined);
  const withOpen = routes.some((t) => t.openLoop !== undefined);
  printTable([
    [
      title,
      'req/s',
      'p50',
      'p99',
      'non-2xx',
      'errors',
      mismatchHeader,
      'live req/s',
      'live p99',
      'ratio',
      ...(withOpen ? ['p50/p99 at a fixed rate (achieved)'] : []),
      'server CPU/req (live)',
      ...(withDb ? ['PostgreSQL CPU/req'] : []),
      'load avg',
    ],
    ...routes.map((t) => [
      t.name,
      rate(t.reqPerSec),
      wholeMs(t.p50Ms),
      wholeMs(t.p99Ms),
      String(t.non2xx + t.trivial.non2xx + (t.openLoop?.non2xx ?? 0)),
      String(t.errors + t.trivial.errors + (t.openLoop?.errors ?? 0)),
      String(t.mismatches + (t.openLoop?.mismatches ?? 0)),
      rate(t.trivial.reqPerSec),
      wholeMs(t.trivial.p99Ms),
      `${(100 * t.vsTrivial).toFixed(0)} %`,
      ...(withOpen
        ? [t.openLoop ? `${wholeMs(t.openLoop.p50Ms)} / ${wholeMs(t.openLoop.p99Ms)} (${rate(t.openLoop.reqPerSec)})` : '']
        : []),
      `${us(t.serverCpuUs)} (${us(t.trivial.serverCpuUs)})`,
      ...(withDb ? [us(t.dbCpuUs)] : []),
      t.loadAverage,
    ]),
  ]);
}

/** Rows of cells, the first column left-aligned and the others right-aligned. */
export function printTable(rows: string[][]): void {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => r[c]?.length ?? 0))) ?? [];
  for (const row of rows) {
    console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('   '));
  }
}

/**
 * One HTTP server on each of `hosts` (loopback addresses such as 127.0.0.2), all on one free port,
 * `handler(k)` answering the k-th: many "sites" or "servers" for the background fetchers and
 * deliveries to reach. close() ends them all.
 */
export async function listenOnHosts(
  hosts: readonly string[],
  handler: (k: number) => http.RequestListener,
): Promise<{ port: number; close(): Promise<void> }> {
  const port = await freePort();
  const servers = await Promise.all(
    hosts.map(
      (host, k) =>
        new Promise<http.Server>((resolve, reject) => {
          const server = http.createServer(handler(k));
          server.once('error', reject);
          server.listen(port, host, () => resolve(server));
        }),
    ),
  );
  return {
    port,
    close: async () => {
      await Promise.all(
        servers.map((s) => {
          s.closeAllConnections();
          return new Promise((resolve) => s.close(resolve));
        }),
      );
    },
  };
}
