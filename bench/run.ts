/**
 * `npm run bench`: seeds a fresh database with BENCH_USERS users (default 10,000) and
 * BENCH_LINKS links (default 1,000,000, with topics, likes and reposts), starts the real server
 * as a child process and measures it. It only measures and prints: nothing here fails on a slow
 * figure. Sections, all by default (BENCH_SECTIONS=users,links,...):
 *   users     GET /api/health and /api/me beside /api/health/live, sign-in latency, idle memory
 *   links     My Feed pages, sorts, filters and like toggles at BENCH_LINK_CONNECTIONS (32), see links.ts
 *   following the Subscriber Dashboard, CSV export and digest, and the Following feed of a reader
 *             subscribed to BENCH_FOLLOWED (1,000) curators (seeds the links too), see following.ts
 *   search    personal search over the links (seeds them too) with readable copies on 10%: index
 *             build time and size, CPU per search and p99 at 50/s, see search.ts
 *   previews  CPU to read a link preview from a 500 KB page, in the bench's process, see previews.ts;
 *             alone (BENCH_SECTIONS=previews) it needs no database or server
 *   readable  readable copies of BENCH_READABLE_PAGES (10,000) corpus pages through the extractor's
 *             thread, in the bench's process: pages per second, CPU per page and peak RSS, see
 *             readable.ts; alone (BENCH_SECTIONS=readable) it needs no database or server
 *   link-checks the background link checker against fixture sites on loopback, in a server of its
 *             own with LINK_CHECK_PER_MINUTE=6000 (after the others, whose server has it off),
 *             see link-checks.ts
 *   federation one new resource sent to 10,000 fediverse followers on 500 loopback servers, in a
 *             server of its own with FEDERATION=true, see federation.ts
 *
 *   BENCH_USERS=10000 BENCH_DURATION=5 BENCH_CONNECTIONS=10 npm run bench
 *   BENCH_SECTIONS=links BENCH_LINKS=1000000 BENCH_LINK_CONNECTIONS=32 npm run bench
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench
 *
 * WORKERS=2 runs the server as a cluster of 2 processes (1, no cluster, by default here); its CPU
 * per request and memory are then summed over the primary and the workers.
 *
 * BENCH_CPU_PROF=<dir> makes the server write a V8 CPU profile of the run there (open it in
 * Chromium's DevTools or speedscope).
 *
 * BENCH_BASELINE=<checkout> measures the budgeted sections once more on that checkout's server
 * (built there if it is not), against the same database: a change's before and after, on the
 * same data at nearly the same time. Both must know the same migrations.
 *
 * With BENCH_DATABASE_URL a throwaway database supercurate_bench_<random> is created on that
 * server and dropped afterwards; without it, SQLite in a temporary DATA_DIR.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { authOptions } from '../server/auth';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import { migrate } from '../server/db/migrate';
import { freePort } from '../tests/support/free-port';
import { type SmtpSink, startSmtpSink } from '../tests/support/smtp-sink';
import {
  type CpuProbe,
  type Load,
  type Paired,
  intEnv,
  load,
  loadAverages,
  mb,
  measurePaired,
  ms,
  percentile,
  printTable,
  rate,
  us,
  wholeMs,
} from './common';
import { printBudgets } from './budgets';
import { type CollectionsPlan, type CollectionsResult, benchCollections, printCollections, seedCollections } from './collections';
import { type FollowingPlan, type FollowingResult, benchFollowing, printFollowing, seedFollowing } from './following';
import { type ImportResult, benchImport, printImport } from './import';
import { type FederationResult, benchFederation, printFederation } from './federation';
import { type LinkChecksResult, benchLinkChecks, printLinkChecks } from './link-checks';
import { type LinksPlan, type LinksResult, benchLinks, planLinksBench, printLinks } from './links';
import { type PreviewsResult, benchPreviews, printPreviews } from './previews';
import { type ReadableResult, benchReadable, printReadable } from './readable';
import { type SearchPlan, type SearchResult, benchSearch, mergeNote, printSearch, seedSearch } from './search';
import { type LinkSeedResult, SEED_PASSWORD, seedEmail, seedLinks, seedUsers } from './seed';
import { type ServerProcess, cpuOfProcesses, startServer } from './server';

type ServerMemory = ReturnType<ServerProcess['memory']>;

const IDLE_RSS_LIMIT_MB = 150;
const SETTLE_MS = 3_000;

const USERS = intEnv('BENCH_USERS', 10_000);
const DURATION_S = intEnv('BENCH_DURATION', 5);
const CONNECTIONS = intEnv('BENCH_CONNECTIONS', 10);
const SIGN_INS = intEnv('BENCH_SIGN_INS', 100);
const SIGN_IN_CONCURRENCY = 4;
const LINKS = intEnv('BENCH_LINKS', 1_000_000);
const LINK_CONNECTIONS = intEnv('BENCH_LINK_CONNECTIONS', 32);
const DEEP_PAGES = intEnv('BENCH_DEEP_PAGES', 50);
const POOL_USERS = intEnv('BENCH_POOL_USERS', 50);
const POOL_HEAVY_USERS = intEnv('BENCH_POOL_HEAVY_USERS', 10);
const COLLECTIONS = intEnv('BENCH_COLLECTIONS', 100_000);
const COLLECTION_RESOURCES = intEnv('BENCH_COLLECTION_RESOURCES', 5_000);
const SUBSCRIBERS = intEnv('BENCH_SUBSCRIBERS', 10_000);
const FOLLOWED = intEnv('BENCH_FOLLOWED', 1_000);
const WORKERS = intEnv('WORKERS', 1);
const SECTION_NAMES = ['users', 'links', 'import', 'collections', 'following', 'search', 'previews', 'readable', 'link-checks', 'federation'] as const;
type Section = (typeof SECTION_NAMES)[number];
/** The sections measured on one server with the background fetchers off. */
const SHARED_SERVER_SECTIONS: readonly Section[] = ['users', 'links', 'import', 'collections', 'following', 'search'];
const SECTIONS = new Set(
  (process.env.BENCH_SECTIONS || SECTION_NAMES.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      if (!(SECTION_NAMES as readonly string[]).includes(s)) {
        throw new Error(`BENCH_SECTIONS: unknown section "${s}" (known: ${SECTION_NAMES.join(', ')})`);
      }
      return s as Section;
    }),
);

/** BENCH_BASELINE: another checkout (the code before a change), whose server is measured too. */
const BASELINE = process.env.BENCH_BASELINE ? path.resolve(process.env.BENCH_BASELINE) : undefined;
/**
 * BENCH_WARMUP: seconds a route of one pass over the budgeted sections before they are measured,
 * not counted. Right after seeding, the first server measured paid for the database's settling,
 * so with BENCH_BASELINE it defaults to 2 (bench/README.md, "The server measured first pays for it").
 */
const WARMUP_S = intEnv('BENCH_WARMUP', BASELINE ? 2 : 0);

/** The results of the sections with budgets (bench/budgets.ts). */
interface Budgeted {
  links?: LinksResult;
  collections?: CollectionsResult;
  following?: FollowingResult;
  search?: SearchResult;
}

const budgetedRoutes = ({ links, collections, following, search }: Budgeted) => [
  ...(links?.routes ?? []),
  ...(collections?.routes ?? []),
  ...(following ? [following.dashboard, ...following.feed] : []),
  ...(search?.routes ?? []),
];

/** A section's results after a blank line, when it ran. */
function printSection<T>(result: T | undefined, print: (result: T) => void): void {
  if (result === undefined) return;
  console.log('');
  print(result);
}

function printBudgeted({ links, collections, following, search }: Budgeted): void {
  printSection(links, printLinks);
  printSection(collections, printCollections);
  printSection(following, printFollowing);
  printSection(search, printSearch);
}

interface Latency {
  requests: number;
  concurrency: number;
  p50Ms: number;
  p99Ms: number;
  reqPerSec: number;
  failures: number;
}

/**
 * Cumulative CPU seconds of the PostgreSQL backends serving database `url` (read from /proc, so
 * only when PostgreSQL runs on this machine; otherwise null). A backend that has gone keeps the
 * last time seen.
 */
async function pgBackendCpu(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const cpu = cpuOfProcesses();
  return {
    async sample(): Promise<number | null> {
      const { rows } = await client.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      return cpu(rows.map((r) => r.pid));
    },
    close: () => client.end(),
  };
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

/** Signs a seeded user in and returns the session cookie Better Auth set, checked with GET /api/me. */
async function sessionCookie(baseUrl: string, origin: string, email = seedEmail(0)): Promise<string> {
  const res = await signIn(baseUrl, origin, email);
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith('better-auth.session_token='));
  if (!cookie) throw new Error('sign-in set no better-auth.session_token cookie');
  const me = await fetch(`${baseUrl}/api/me`, { headers: { cookie } });
  const body = (await me.json()) as { email?: string };
  if (!me.ok || body.email !== email) throw new Error(`GET /api/me with the cookie: ${me.status}`);
  return cookie;
}

interface UsersResult {
  throughput: Record<string, Paired>;
  signInSequential: Latency;
  signInConcurrent: Latency;
}

/** The users section: GET /api/health and /api/me beside the trivial route, then sign-in latency. */
async function benchUsers(baseUrl: string, origin: string, cpu: CpuProbe): Promise<UsersResult> {
  const cookie = await sessionCookie(baseUrl, origin);
  const trivial: Load = { url: `${baseUrl}/api/health/live`, connections: CONNECTIONS };
  const routes: { name: string; load: Load }[] = [
    { name: 'GET /api/health', load: { url: `${baseUrl}/api/health`, connections: CONNECTIONS } },
    { name: 'GET /api/me', load: { url: `${baseUrl}/api/me`, connections: CONNECTIONS, headers: { cookie } } },
  ];
  console.log(
    `Measuring throughput: ${CONNECTIONS} connections, 1 s warm-up + ${DURATION_S} s per route, ` +
      'each route right after GET /api/health/live...',
  );
  const throughput: Record<string, Paired> = {};
  for (const route of routes) throughput[route.name] = await measurePaired(trivial, route.load, DURATION_S, cpu);

  console.log(`Measuring sign-in: ${SIGN_INS} sequential, then ${SIGN_INS * 2} at ${SIGN_IN_CONCURRENCY} at a time...`);
  await signInLatency(baseUrl, origin, 10, 1); // warm-up
  const signInSequential = await signInLatency(baseUrl, origin, SIGN_INS, 1);
  const signInConcurrent = await signInLatency(baseUrl, origin, SIGN_INS * 2, SIGN_IN_CONCURRENCY);
  return { throughput, signInSequential, signInConcurrent };
}

function printUsers({ throughput, signInSequential, signInConcurrent }: UsersResult): void {
  printTable([
    [
      'Throughput',
      'req/s',
      'p50',
      'p99',
      'non-2xx',
      'errors',
      'GET /api/health/live just before',
      'ratio',
      'server CPU/req (live)',
    ],
    ...Object.entries(throughput).map(([name, t]) => [
      name,
      rate(t.reqPerSec),
      wholeMs(t.p50Ms),
      wholeMs(t.p99Ms),
      String(t.non2xx + t.trivial.non2xx),
      String(t.errors + t.trivial.errors),
      `${rate(t.trivial.reqPerSec)} req/s`,
      `${((100 * t.reqPerSec) / t.trivial.reqPerSec).toFixed(0)} %`,
      `${us(t.serverCpuUs)} (${us(t.trivial.serverCpuUs)})`,
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
}

const seconds = (msValue: number) => `${(msValue / 1000).toFixed(1)} s`;

async function main() {
  // Sections that run in this process, without a database or server.
  const previews: PreviewsResult | undefined = SECTIONS.has('previews') ? benchPreviews() : undefined;
  const readable: ReadableResult | undefined = SECTIONS.has('readable') ? await benchReadable() : undefined;
  if ([...SECTIONS].every((s) => s === 'previews' || s === 'readable')) {
    if (previews) printPreviews(previews);
    if (readable) printReadable(readable);
    console.log(`BENCH_RESULT ${JSON.stringify({ node: process.version, previews, readable })}`);
    return;
  }
  const adminUrl = process.env.BENCH_DATABASE_URL || undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'supercurate-bench-'));
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>> | undefined;
  let server: ServerProcess | undefined;
  let pgCpu: Awaited<ReturnType<typeof pgBackendCpu>> | undefined;
  let mailSink: SmtpSink | undefined;
  const cleanup = async () => {
    await mailSink?.close();
    mailSink = undefined;
    await pgCpu?.close();
    pgCpu = undefined;
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
    // The following section measures the server's mail outbox sending a digest to a loopback SMTP sink.
    if (SECTIONS.has('following')) mailSink = await startSmtpSink();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: undefined,
      DATABASE_URL: pgDb?.url,
      AUTH_RATE_LIMIT: '1000000',
      // The links are on made-up hosts: nothing is fetched in the background (no traffic off loopback).
      IMPORT_PREVIEW_PER_MINUTE: '0',
      LINK_CHECK_PER_MINUTE: '0',
      READABLE_COPY_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      WORKERS: String(WORKERS),
      SMTP_URL: mailSink?.url,
      MAIL_POLL_SECONDS: mailSink ? '1' : undefined,
    };
    const config = loadConfig(env);
    const dialect = pgDb ? 'postgres' : 'sqlite';
    const withLinks = SECTIONS.has('links');
    console.log(
      `Supercurate bench: ${dialect}${pgDb ? ` (${pgDb.name})` : ''}, sections ${[...SECTIONS].join(', ')}, ` +
        `${WORKERS === 1 ? 'one server process' : `WORKERS=${WORKERS} (CPU and memory summed over the primary and workers)`}; ` +
        `Node ${process.version}; ${availableParallelism()} cores; load average ${loadAverages()} (1, 5, 15 min)`,
    );

    let db = openDatabase(config);
    let seedMs: number;
    try {
      await migrate(db, authOptions(config, db));
      seedMs = await seedUsers(db, USERS);
    } finally {
      await db.close();
    }
    console.log(`${USERS.toLocaleString('en-US')} users seeded in ${seconds(seedMs)}; load average ${load()}`);

    let linkSeed: LinkSeedResult | undefined;
    let plan: LinksPlan | undefined;
    // The Following feed reads the followed curators' links, and search searches them.
    if (withLinks || SECTIONS.has('following') || SECTIONS.has('search')) {
      console.log(`Seeding ${LINKS.toLocaleString('en-US')} links with topics, likes and reposts...`);
      linkSeed = await seedLinks(config, USERS, LINKS);
      const n = (x: number) => x.toLocaleString('en-US');
      console.log(
        `${n(linkSeed.links)} links (${n(linkSeed.reposts)} reposts), ${n(linkSeed.linkTopics)} link topics, ` +
          `${n(linkSeed.likes)} likes, ${n(linkSeed.topics)} topics seeded in ${seconds(linkSeed.ms)} ` +
          `(${Object.entries(linkSeed.phases)
            .map(([k, v]) => `${k} ${seconds(v)}`)
            .join(', ')}); load average ${load()}`,
      );
    }
    if (withLinks) {
      db = openDatabase(config);
      try {
        plan = await planLinksBench(db, USERS, POOL_USERS, POOL_HEAVY_USERS);
      } finally {
        await db.close();
      }
    }

    let searchPlan: SearchPlan | undefined;
    if (SECTIONS.has('search')) {
      db = openDatabase(config);
      try {
        searchPlan = await seedSearch(db, USERS);
      } finally {
        await db.close();
      }
      console.log(`Search index built in ${seconds(searchPlan.indexMs)}${mergeNote(searchPlan.merge)}; load average ${load()}`);
    }

    let collectionsPlan: CollectionsPlan | undefined;
    let followingPlan: FollowingPlan | undefined;
    if (SECTIONS.has('collections') || SECTIONS.has('following')) {
      db = openDatabase(config);
      try {
        if (SECTIONS.has('collections')) {
          collectionsPlan = await seedCollections(db, USERS, COLLECTIONS, COLLECTION_RESOURCES);
          console.log(`${collectionsPlan.collections} collections seeded in ${seconds(collectionsPlan.ms)}; load average ${load()}`);
        }
        if (SECTIONS.has('following')) {
          followingPlan = await seedFollowing(db, USERS, SUBSCRIBERS, FOLLOWED);
          console.log(`${SUBSCRIBERS} subscribers + e-mail subscribers seeded in ${seconds(followingPlan.ms)}; load average ${load()}`);
        }
      } finally {
        await db.close();
      }
    }

    /** The server with `serverEnv`, and its CPU probe: its processes', plus the bench database's backends on PostgreSQL. */
    const startMeasured = async (serverEnv: NodeJS.ProcessEnv, root?: string) => {
      const running = await startServer(serverEnv, port, root);
      server = running;
      if (pgDb) pgCpu = await pgBackendCpu(pgDb.url);
      const cpu: CpuProbe = async () => ({ serverS: running.cpuSeconds(), dbS: (await pgCpu?.sample()) ?? null });
      return { running, cpu };
    };
    const stopMeasured = async () => {
      await pgCpu?.close();
      pgCpu = undefined;
      await server?.stop();
      server = undefined;
    };

    /** The budgeted sections on a running server (they also run on BENCH_BASELINE's). */
    const measureBudgeted = async (baseUrl: string, cpu: CpuProbe, durationS = DURATION_S): Promise<Budgeted> => {
      const origin = config.publicUrl;
      const signIn = (email: string) => sessionCookie(baseUrl, origin, email);
      const options = { baseUrl, origin, connections: LINK_CONNECTIONS, durationS, cpu, signIn };
      return {
        links: plan && (await benchLinks({ ...options, plan, deepPages: DEEP_PAGES })),
        collections: collectionsPlan && (await benchCollections({ ...options, plan: collectionsPlan })),
        following: followingPlan && mailSink && (await benchFollowing({ ...options, config, plan: followingPlan, sink: mailSink })),
        search: searchPlan && (await benchSearch({ ...options, plan: searchPlan })),
      };
    };

    let users: UsersResult | undefined;
    let measured: Budgeted = {};
    let baseline: Budgeted | undefined;
    let imported: ImportResult | undefined;
    let memory: { idle: ServerMemory; afterLoad: ServerMemory; loadAfter: number } | undefined;
    if (SHARED_SERVER_SECTIONS.some((section) => SECTIONS.has(section))) {
      const { running, cpu } = await startMeasured(env);
      const { baseUrl } = running;
      const origin = config.publicUrl;
      await sleep(SETTLE_MS);
      const idle = running.memory();

      if (SECTIONS.has('users')) users = await benchUsers(baseUrl, origin, cpu);
      if (WARMUP_S > 0) {
        console.log(`Warm-up (BENCH_WARMUP): the budgeted sections once at ${WARMUP_S} s a route, not counted...`);
        await measureBudgeted(baseUrl, cpu, WARMUP_S);
      }
      measured = await measureBudgeted(baseUrl, cpu);

      if (SECTIONS.has('import')) {
        imported = await benchImport({
          baseUrl,
          origin,
          signIn: (email) => sessionCookie(baseUrl, origin, email),
          batchUser: seedEmail(Math.min(1, USERS - 1)),
          bookmarkUser: seedEmail(Math.min(2, USERS - 1)),
          formatUsers: [3, 4, 5].map((n) => seedEmail(Math.min(n, USERS - 1))),
          memory: () => running.memory(),
          resetPeakRss: () => running.resetPeakRss(),
          cpuSeconds: () => running.cpuSeconds(),
        });
      }

      await pgCpu?.close();
      pgCpu = undefined;
      await sleep(SETTLE_MS);
      memory = { idle, afterLoad: running.memory(), loadAfter: loadavg()[0] ?? NaN };
      await stopMeasured();

      if (BASELINE) {
        console.log(`Measuring the baseline's server (${BASELINE}) on the same database...`);
        const base = await startMeasured(env, BASELINE);
        await sleep(SETTLE_MS);
        baseline = await measureBudgeted(base.running.baseUrl, base.cpu);
        await stopMeasured();
      }
    }
    const { links, collections, following, search } = measured;

    // Last, on a server of its own: the checker's requests would weigh on the other sections' figures.
    const linkChecks: LinkChecksResult | undefined = SECTIONS.has('link-checks')
      ? await benchLinkChecks({
          config,
          start: async (overrides) => (await startMeasured({ ...env, ...overrides })).cpu,
          stop: stopMeasured,
        })
      : undefined;

    const federation: FederationResult | undefined = SECTIONS.has('federation')
      ? await benchFederation({
          config,
          origin: config.publicUrl,
          start: async (overrides) => {
            const { running, cpu } = await startMeasured({ ...env, ...overrides });
            return { baseUrl: running.baseUrl, cpu, rssMb: () => running.memory().rssMb };
          },
          stop: stopMeasured,
          signIn: (baseUrl) => sessionCookie(baseUrl, config.publicUrl),
        })
      : undefined;

    printSection(users, printUsers);
    printSection(imported, printImport);
    printBudgeted(measured);
    printSection(previews, printPreviews);
    printSection(readable, printReadable);
    printSection(linkChecks, printLinkChecks);
    printSection(federation, printFederation);
    console.log('');
    const budgets = printBudgets(budgetedRoutes(measured), dialect);
    console.log('');
    if (baseline) {
      console.log(`Baseline: the same sections on ${BASELINE}, right after, against the same database:`);
      printBudgeted(baseline);
      console.log('');
      printBudgets(budgetedRoutes(baseline), dialect);
      console.log('');
    }
    if (memory) {
      const { idle, afterLoad } = memory;
      const verdict = idle.rssMb < IDLE_RSS_LIMIT_MB ? 'under' : 'OVER';
      console.log(
        `Server RSS at idle:       ${mb(idle.rssMb)} ` +
          (idle.processes === 1
            ? `(${verdict} the ${IDLE_RSS_LIMIT_MB} MB budget)`
            : `(${idle.processes} processes; the ${IDLE_RSS_LIMIT_MB} MB budget is one process's, WORKERS=1)`),
      );
      console.log(`Server RSS after load:    ${mb(afterLoad.rssMb)} (idle again after ${SETTLE_MS / 1000} s)`);
      console.log(`Server peak RSS (VmHWM):  ${mb(afterLoad.peakRssMb)}`);
      console.log(
        `Load average (1 min) after the run: ${memory.loadAfter.toFixed(2)} on ${availableParallelism()} cores ` +
          '(the bench itself accounts for about 2; more means other work competed with it).',
      );
    }

    const result = {
      dialect,
      users: USERS,
      seedMs: Math.round(seedMs),
      node: process.version,
      connections: CONNECTIONS,
      durationS: DURATION_S,
      cores: availableParallelism(),
      workers: WORKERS,
      loadAverage: memory?.loadAfter ?? loadavg()[0],
      budgetsPassed: budgets,
      ...(users && {
        throughput: Object.fromEntries(
          Object.entries(users.throughput).map(([name, t]) => [
            name,
            { ...t, vsTrivial: t.reqPerSec / t.trivial.reqPerSec },
          ]),
        ),
        signIn: { sequential: users.signInSequential, concurrent: users.signInConcurrent },
      }),
      ...(links && linkSeed && { linkSeed, links }),
      ...(imported && { import: imported }),
      ...(collections && { collections }),
      ...(following && { following }),
      ...(previews && { previews }),
      ...(readable && { readable }),
      ...(search && { search }),
      ...(linkChecks && { linkChecks }),
      ...(baseline && { baseline: { dir: BASELINE, ...baseline } }),
      ...(memory && {
        memory: {
          idleRssMb: memory.idle.rssMb,
          idleRssLimitMb: IDLE_RSS_LIMIT_MB,
          idleRssUnderLimit: memory.idle.rssMb < IDLE_RSS_LIMIT_MB,
          processes: memory.idle.processes,
          afterLoadRssMb: memory.afterLoad.rssMb,
          peakRssMb: memory.afterLoad.peakRssMb,
        },
      }),
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
