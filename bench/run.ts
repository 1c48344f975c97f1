/**
 * `npm run bench`: seeds a fresh database with BENCH_USERS users (default 10,000), starts the
 * real server as a child process and measures it. It only measures and prints: nothing here
 * fails on a slow figure.
 *
 *   BENCH_USERS=10000 BENCH_DURATION=5 BENCH_CONNECTIONS=10 npm run bench
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench
 *
 * With BENCH_DATABASE_URL a throwaway database supercurate_bench_<random> is created on that
 * server and dropped afterwards; without it, SQLite in a temporary DATA_DIR.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { authOptions } from '../server/auth';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import { migrate } from '../server/db/migrate';
import { SEED_PASSWORD, seedEmail, seedUsers } from './seed';
import { freePort } from '../tests/support/free-port';
import { type ServerProcess, startServer } from './server';

const IDLE_RSS_LIMIT_MB = 150;
const SETTLE_MS = 3_000;

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

const USERS = intEnv('BENCH_USERS', 10_000);
const DURATION_S = intEnv('BENCH_DURATION', 5);
const CONNECTIONS = intEnv('BENCH_CONNECTIONS', 10);
const SIGN_INS = intEnv('BENCH_SIGN_INS', 100);
const SIGN_IN_CONCURRENCY = 4;

interface Throughput {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

interface Latency {
  requests: number;
  concurrency: number;
  p50Ms: number;
  p99Ms: number;
  reqPerSec: number;
  failures: number;
}

/** A fresh PostgreSQL database on the server of `adminUrl`; drop() removes it. */
async function createPgDatabase(adminUrl: string) {
  const name = `supercurate_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => admin(`drop database if exists "${name}" with (force)`) };
}

async function measure(url: string, headers: Record<string, string>, durationS: number): Promise<Throughput> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: durationS, headers });
  return {
    reqPerSec: r.requests.total / r.duration,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function signIn(baseUrl: string, origin: string, email: string) {
  return fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password: SEED_PASSWORD }),
  });
}

/** `count` sign-ins of random seeded users, `concurrency` at a time, each timed end to end. */
async function signInLatency(baseUrl: string, origin: string, count: number, concurrency: number): Promise<Latency> {
  const times: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      next++;
      const t0 = performance.now();
      const res = await signIn(baseUrl, origin, seedEmail(randomInt(USERS)));
      await res.arrayBuffer();
      times.push(performance.now() - t0);
      if (!res.ok) failures++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedS = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    requests: count,
    concurrency,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    reqPerSec: count / elapsedS,
    failures,
  };
}

/** Signs one seeded user in and returns the session cookie Better Auth set. */
async function sessionCookie(baseUrl: string, origin: string): Promise<string> {
  const res = await signIn(baseUrl, origin, seedEmail(0));
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith('better-auth.session_token='));
  if (!cookie) throw new Error('sign-in set no better-auth.session_token cookie');
  const me = await fetch(`${baseUrl}/api/me`, { headers: { cookie } });
  const body = (await me.json()) as { email?: string };
  if (!me.ok || body.email !== seedEmail(0)) throw new Error(`GET /api/me with the cookie: ${me.status}`);
  return cookie;
}

const mb = (n: number) => `${n.toFixed(1)} MB`;
const ms = (n: number) => `${n.toFixed(1)} ms`;
/** autocannon's latencies are whole milliseconds. */
const wholeMs = (n: number) => (n < 1 ? '<1 ms' : `${n} ms`);
/** Rows of cells, the first column left-aligned and the others right-aligned. */
function printTable(rows: string[][]): void {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => r[c]?.length ?? 0))) ?? [];
  for (const row of rows) {
    console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('   '));
  }
}
const load = () => loadavg()[0]?.toFixed(2) ?? '?';
const rate = (n: number) => Math.round(n).toLocaleString('en-US');

async function main() {
  const adminUrl = process.env.BENCH_DATABASE_URL || undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'supercurate-bench-'));
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>> | undefined;
  let server: ServerProcess | undefined;
  const cleanup = async () => {
    await server?.stop();
    server = undefined;
    await pgDb?.drop();
    pgDb = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));

  try {
    if (adminUrl) pgDb = await createPgDatabase(adminUrl);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: undefined,
      DATABASE_URL: pgDb?.url,
      AUTH_RATE_LIMIT: '1000000',
      LOG_LEVEL: 'warn',
    };
    const config = loadConfig(env);
    const dialect = pgDb ? 'postgres' : 'sqlite';

    const db = openDatabase(config);
    let seedMs: number;
    try {
      await migrate(db, authOptions(config, db));
      seedMs = await seedUsers(db, USERS);
    } finally {
      await db.close();
    }
    console.log(
      `Supercurate bench: ${dialect}${pgDb ? ` (${pgDb.name})` : ''}, ${USERS.toLocaleString('en-US')} users ` +
        `seeded in ${(seedMs / 1000).toFixed(1)} s; Node ${process.version}; load average ${load()}`,
    );

    server = await startServer(env, port);
    const { baseUrl } = server;
    const origin = config.publicUrl;
    await sleep(SETTLE_MS);
    const idle = server.memory();

    const cookie = await sessionCookie(baseUrl, origin);
    const trivial = `${baseUrl}/api/health/live`;
    const routes: { name: string; url: string; headers: Record<string, string> }[] = [
      { name: 'GET /api/health', url: `${baseUrl}/api/health`, headers: {} },
      { name: 'GET /api/me', url: `${baseUrl}/api/me`, headers: { cookie } },
    ];
    console.log(
      `Measuring throughput: ${CONNECTIONS} connections, 1 s warm-up + ${DURATION_S} s per route, ` +
        'each route right after GET /api/health/live...',
    );
    const throughput: Record<string, Throughput & { trivial: Throughput }> = {};
    for (const route of routes) {
      await measure(trivial, {}, 1);
      const pairedTrivial = await measure(trivial, {}, DURATION_S);
      await measure(route.url, route.headers, 1);
      throughput[route.name] = { ...(await measure(route.url, route.headers, DURATION_S)), trivial: pairedTrivial };
    }

    console.log(`Measuring sign-in: ${SIGN_INS} sequential, then ${SIGN_INS * 2} at ${SIGN_IN_CONCURRENCY} at a time...`);
    await signInLatency(baseUrl, origin, 10, 1); // warm-up
    const signInSequential = await signInLatency(baseUrl, origin, SIGN_INS, 1);
    const signInConcurrent = await signInLatency(baseUrl, origin, SIGN_INS * 2, SIGN_IN_CONCURRENCY);

    await sleep(SETTLE_MS);
    const afterLoad = server.memory();
    const loadAfter = loadavg()[0] ?? NaN;
    await server.stop();
    server = undefined;

    console.log('');
    printTable([
      ['Throughput', 'req/s', 'p50', 'p99', 'non-2xx', 'errors', 'GET /api/health/live just before', 'ratio'],
      ...Object.entries(throughput).map(([name, t]) => [
        name,
        rate(t.reqPerSec),
        wholeMs(t.p50Ms),
        wholeMs(t.p99Ms),
        String(t.non2xx + t.trivial.non2xx),
        String(t.errors + t.trivial.errors),
        `${rate(t.trivial.reqPerSec)} req/s`,
        `${((100 * t.reqPerSec) / t.trivial.reqPerSec).toFixed(0)} %`,
      ]),
    ]);
    console.log('');
    printTable([
      ['Sign-in (POST /api/auth/sign-in/email)', 'p50', 'p99', 'req/s', 'failures'],
      ...[signInSequential, signInConcurrent].map((l) => [
        `${l.requests} requests, ${l.concurrency} at a time`,
        ms(l.p50Ms),
        ms(l.p99Ms),
        l.reqPerSec.toFixed(1),
        String(l.failures),
      ]),
    ]);
    console.log('');
    const verdict = idle.rssMb < IDLE_RSS_LIMIT_MB ? 'under' : 'OVER';
    console.log(`Server RSS at idle:       ${mb(idle.rssMb)} (${verdict} the ${IDLE_RSS_LIMIT_MB} MB budget)`);
    console.log(`Server RSS after load:    ${mb(afterLoad.rssMb)} (idle again after ${SETTLE_MS / 1000} s)`);
    console.log(`Server peak RSS (VmHWM):  ${mb(afterLoad.peakRssMb)}`);
    console.log('(The server runs under the tsx loader, which adds to its memory compared with compiled JS.)');
    console.log(
      `Load average (1 min) after the run: ${loadAfter.toFixed(2)} on ${availableParallelism()} cores ` +
        '(the bench itself accounts for about 2; more means other work competed with it).',
    );

    const result = {
      dialect,
      users: USERS,
      seedMs: Math.round(seedMs),
      node: process.version,
      connections: CONNECTIONS,
      durationS: DURATION_S,
      cores: availableParallelism(),
      loadAverage: loadAfter,
      throughput: Object.fromEntries(
        Object.entries(throughput).map(([name, t]) => [name, { ...t, vsTrivial: t.reqPerSec / t.trivial.reqPerSec }]),
      ),
      signIn: { sequential: signInSequential, concurrent: signInConcurrent },
      memory: {
        idleRssMb: idle.rssMb,
        idleRssLimitMb: IDLE_RSS_LIMIT_MB,
        idleRssUnderLimit: idle.rssMb < IDLE_RSS_LIMIT_MB,
        afterLoadRssMb: afterLoad.rssMb,
        peakRssMb: afterLoad.peakRssMb,
      },
    };
    console.log('');
    // Two decimals are plenty for every measured figure.
    const rounded = (_: string, v: unknown) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v);
    console.log(`BENCH_RESULT ${JSON.stringify(result, rounded)}`);
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
