/**
 * The link-checks section of `npm run bench`: the background link checker
 * (server/services/link-checks.ts) of the real server, run against fixture sites on loopback.
 *   sites   BENCH_CHECK_HOSTS (50) hosts named by loopback addresses 127.0.0.1, 127.0.0.2, ..., an
 *           HTTP server on each at the same port, answering /page/<n> by n: 80 % 200, 10 % 405 to
 *           HEAD and 200 to GET, 7 % 404, 3 % 500 (BENCH_CHECK_REDIRECTS=<percent>: that share
 *           answers 301 to /page/<n>/ first, on the same host). They note each request's arrival.
 *   links   BENCH_CHECK_LINKS (100,000) links of the seeded users (20 % by the 1 % heavy users),
 *           on the hosts with a few big sites (host k gets a share ~ 1/k), with their check rows
 *           due now (overdue by up to an hour: a backlog), written straight into the database.
 *   run     a server with LINK_CHECK_PER_MINUTE=BENCH_CHECK_PER_MINUTE (6000) and
 *           PREVIEW_ALLOW_PRIVATE=true, its own server (the other sections' runs with the checker
 *           off), measured for BENCH_CHECK_SECONDS (60) from when it answers /api/health.
 * Reported: checks done, server CPU per check and per request (all processes; plus the bench
 * database's backends on PostgreSQL), requests a minute against the limit and against what the
 * hosts allow (one a second each), and the most requests a host got within one second (PASS ≤ 1).
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Insertable, sql } from 'kysely';
import { LINK_CHECK_HOST_SPACING_MS } from '../shared/domain';
import type { Config } from '../server/config';
import { type Db, openDatabase } from '../server/db';
import { newId } from '../server/db/ids';
import type { Database } from '../server/db/schema';
import { type CpuProbe, intEnv, listenOnHosts, loadAverages, printTable, rate, us } from './common';
import { heavyUserCount, prng } from './seed';

const LINKS = intEnv('BENCH_CHECK_LINKS', 100_000);
const HOSTS = intEnv('BENCH_CHECK_HOSTS', 50);
const SECONDS = intEnv('BENCH_CHECK_SECONDS', 60);
const PER_MINUTE = intEnv('BENCH_CHECK_PER_MINUTE', 6000);
const REDIRECT_PERCENT = Number(process.env.BENCH_CHECK_REDIRECTS || 0);
const HEAVY_SHARE = 0.2;
const BACKLOG_MS = 3600_000;
/** Links a transaction, and a statement. */
const BATCH = 10_000;
const STATEMENT_ROWS = 1000;

/** The server's variables for this section, on top of the bench's (which turn the checker off). */
export const LINK_CHECK_ENV = { LINK_CHECK_PER_MINUTE: String(PER_MINUTE), PREVIEW_ALLOW_PRIVATE: 'true' };

/** The k-th fixture host (0-based): 127.0.0.1 ... 127.0.0.254, then 127.0.1.1 ... */
const hostName = (k: number) => `127.0.${Math.floor(k / 254)}.${1 + (k % 254)}`;

/** What /page/<n> answers: 80 % 200, 10 % 405 to HEAD (200 to GET), 7 % 404, 3 % 500. */
function statusOf(n: number, method: string): number {
  const r = n % 100;
  if (r < 80) return 200;
  if (r < 90) return method === 'HEAD' ? 405 : 200;
  return r < 97 ? 404 : 500;
}

interface Arrival {
  host: number;
  at: number;
  method: string;
  status: number;
}

export interface CheckFixtures {
  port: number;
  hosts: string[];
  /** Every request, in order of arrival (performance.now()). */
  arrivals: Arrival[];
  close(): Promise<void>;
}

/** The fixture sites: one HTTP server per loopback address, all on one port. */
export async function startCheckFixtures(hostCount: number): Promise<CheckFixtures> {
  const hosts = Array.from({ length: hostCount }, (_, k) => hostName(k));
  const arrivals: Arrival[] = [];
  const handler = (host: number) => (req: http.IncomingMessage, res: http.ServerResponse) => {
    const at = performance.now();
    const path = req.url ?? '';
    const n = Number(/^\/page\/(\d+)\/?$/.exec(path)?.[1] ?? NaN);
    const method = req.method ?? '?';
    let status = Number.isNaN(n) ? 400 : statusOf(n, method);
    const headers: http.OutgoingHttpHeaders = { 'content-type': 'text/html; charset=utf-8' };
    if (status !== 400 && !path.endsWith('/') && (n * 37) % 100 < REDIRECT_PERCENT) {
      status = 301;
      headers.location = `${path}/`;
    }
    arrivals.push({ host, at, method, status });
    res.writeHead(status, headers);
    res.end(method === 'HEAD' ? undefined : `<!doctype html><title>Page ${n}</title><p>Page ${n} of ${hosts[host]}.</p>`);
  };
  const { port, close } = await listenOnHosts(hosts, handler);
  return { port, hosts, arrivals, close };
}

export interface LinkChecksSeed {
  links: number;
  users: number;
  ms: number;
}

/**
 * LINKS links of the seeded users (seedUsers first) on the fixture hosts, each with its check row
 * due now, inserted in batches; then ANALYZE of both tables, as a settled database has.
 */
export async function seedLinkChecks(db: Db, fixtures: CheckFixtures, count = LINKS): Promise<LinkChecksSeed> {
  const started = performance.now();
  const users = (await db.kysely.selectFrom('profiles').select('user_id').orderBy('user_id').execute()).map((r) => r.user_id);
  if (users.length === 0) throw new Error('seedLinkChecks needs seeded users');
  const heavy = heavyUserCount(users.length);
  const rand = prng(20261128);
  // Host k's share ~ 1/(k+1): a few big sites and a long tail.
  let sum = 0;
  const cumulative = fixtures.hosts.map((_, k) => (sum += 1 / (k + 1)));
  const pickHost = () => {
    const r = rand.next() * sum;
    const k = cumulative.findIndex((c) => r < c);
    return k < 0 ? fixtures.hosts.length - 1 : k;
  };
  const now = Date.now();
  for (let start = 0; start < count; start += BATCH) {
    const links: Insertable<Database['links']>[] = [];
    const checks: Insertable<Database['link_checks']>[] = [];
    for (let n = start; n < Math.min(count, start + BATCH); n++) {
      const id = newId();
      const host = fixtures.hosts[pickHost()] as string;
      const author = rand.next() < HEAVY_SHARE ? rand.int(heavy) : rand.int(users.length);
      const createdAt = new Date(now - rand.next() * 365 * 24 * 3600_000).toISOString();
      links.push({
        id,
        user_id: users[author] as string,
        url: `http://${host}:${fixtures.port}/page/${n}`,
        title: `Page ${n} of ${host}`,
        description: `A page on one of the bench's fixture sites, number ${n}.`,
        thumbnail_url: null,
        link_text: 'Visit Link',
        format: null,
        original_post_id: null,
        created_at: createdAt,
        updated_at: createdAt,
        broken_at: null,
      });
      checks.push({ link_id: id, host, due_at: new Date(now - rand.next() * BACKLOG_MS).toISOString() });
    }
    await db.kysely.transaction().execute(async (trx) => {
      // A statement's parameters stay under SQLite's 32,766 (16 columns a link).
      for (let i = 0; i < links.length; i += STATEMENT_ROWS) {
        await trx.insertInto('links').values(links.slice(i, i + STATEMENT_ROWS)).execute();
        await trx.insertInto('link_checks').values(checks.slice(i, i + STATEMENT_ROWS)).execute();
      }
    });
  }
  for (const table of ['links', 'link_checks']) await sql`analyze ${sql.table(table)}`.execute(db.kysely);
  return { links: count, users: users.length, ms: performance.now() - started };
}

export interface LinkChecksResult {
  links: number;
  hosts: number;
  users: number;
  seedMs: number;
  perMinuteLimit: number;
  /** The measured window: from the server's first healthy answer, BENCH_CHECK_SECONDS long. */
  seconds: number;
  requests: number;
  heads: number;
  gets: number;
  /** Checks finished (checked_at set) in the window, and over the whole run. */
  checksInWindow: number;
  checksDone: number;
  /** HEAD answered with no success: a GET is due a second later (method GET, never checked yet). */
  waitingForGet: number;
  /** Finished checks by what they found ('ok', '404', '500'...). */
  results: Record<string, number>;
  serverCpuS: number;
  dbCpuS: number | null;
  serverCpuPerCheckUs: number;
  dbCpuPerCheckUs: number | null;
  serverCpuPerRequestUs: number;
  requestsPerMinute: number;
  /** Requests per second in the window, per whole second: lowest, median, highest. */
  perSecond: { min: number; p50: number; max: number };
  /** Requests in each 10 s of the window (whether the rate holds). */
  perTenSeconds: number[];
  /** What the hosts allow at one request a second each, a minute. */
  hostsAllowPerMinute: number;
  /** The most requests one host got within any 1,000 ms, and the closest two requests to one host. */
  perHostMax: number;
  closestMs: number;
  /** Pairs of consecutive requests to one host less than a second apart. */
  closePairs: number;
  loadAverage: string;
}

export interface LinkChecksContext {
  config: Pick<Config, 'databaseUrl' | 'dataDir'>;
  /** Starts the server with these variables on top of the bench's; answers its CPU probe. */
  start(env: Record<string, string>): Promise<CpuProbe>;
  stop(): Promise<void>;
}

/** Fixtures, links, a server with the checker on, SECONDS of it, then what the database says was done. */
export async function benchLinkChecks(ctx: LinkChecksContext): Promise<LinkChecksResult> {
  const fixtures = await startCheckFixtures(HOSTS);
  try {
    let db = openDatabase(ctx.config);
    let seed: LinkChecksSeed;
    try {
      seed = await seedLinkChecks(db, fixtures);
    } finally {
      await db.close();
    }
    console.log(
      `${seed.links.toLocaleString('en-US')} links with due checks on ${HOSTS} hosts (port ${fixtures.port}) seeded in ` +
        `${(seed.ms / 1000).toFixed(1)} s; starting the server with ${Object.entries(LINK_CHECK_ENV)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}; load average ${loadAverages()}`,
    );
    const cpu = await ctx.start(LINK_CHECK_ENV);
    const before = await cpu();
    const t0 = performance.now();
    const fromIso = new Date().toISOString();
    const first = fixtures.arrivals.length;
    console.log(`Measuring the link checker for ${SECONDS} s (${fixtures.arrivals.length} requests before it answered /api/health)...`);
    await sleep(SECONDS * 1000);
    const after = await cpu();
    const t1 = performance.now();
    const toIso = new Date().toISOString();
    const last = fixtures.arrivals.length;
    const loadAverage = loadAverages();
    await ctx.stop();

    db = openDatabase(ctx.config);
    let counts: Awaited<ReturnType<typeof countChecks>>;
    try {
      counts = await countChecks(db, fromIso, toIso);
    } finally {
      await db.close();
    }
    const window = fixtures.arrivals.slice(first, last);
    const seconds = (t1 - t0) / 1000;
    const serverCpuS = after.serverS - before.serverS;
    const dbCpuS = after.dbS !== null && before.dbS !== null ? after.dbS - before.dbS : null;
    const perCheck = (s: number) => (s * 1e6) / Math.max(1, counts.inWindow);
    return {
      links: seed.links,
      hosts: HOSTS,
      users: seed.users,
      seedMs: seed.ms,
      perMinuteLimit: PER_MINUTE,
      seconds,
      requests: window.length,
      heads: window.filter((a) => a.method === 'HEAD').length,
      gets: window.filter((a) => a.method === 'GET').length,
      checksInWindow: counts.inWindow,
      checksDone: counts.done,
      waitingForGet: counts.waitingForGet,
      results: counts.results,
      serverCpuS,
      dbCpuS,
      serverCpuPerCheckUs: perCheck(serverCpuS),
      dbCpuPerCheckUs: dbCpuS === null ? null : perCheck(dbCpuS),
      serverCpuPerRequestUs: (serverCpuS * 1e6) / Math.max(1, window.length),
      requestsPerMinute: (window.length / seconds) * 60,
      perSecond: summary(perInterval(window, t0, seconds, 1)),
      perTenSeconds: perInterval(window, t0, seconds, 10),
      hostsAllowPerMinute: HOSTS * 60,
      ...hostSpacing(fixtures.arrivals, HOSTS),
      loadAverage,
    };
  } finally {
    await fixtures.close();
  }
}

async function countChecks(db: Db, fromIso: string, toIso: string) {
  const checked = await db.kysely
    .selectFrom('link_checks')
    .select((eb) => ['last_result', eb.fn.countAll<string>().as('n')])
    .where('checked_at', 'is not', null)
    .groupBy('last_result')
    .execute();
  const inWindow = await db.kysely
    .selectFrom('link_checks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('checked_at', '>=', fromIso)
    .where('checked_at', '<', toIso)
    .executeTakeFirstOrThrow();
  const waiting = await db.kysely
    .selectFrom('link_checks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('method', '=', 'GET')
    .where('checked_at', 'is', null)
    .executeTakeFirstOrThrow();
  const results = Object.fromEntries(checked.map((r) => [r.last_result ?? '?', Number(r.n)]));
  return {
    results,
    done: Object.values(results).reduce((a, b) => a + b, 0),
    inWindow: Number(inWindow.n),
    waitingForGet: Number(waiting.n),
  };
}

/** Requests in each whole `step` seconds of the window. */
function perInterval(window: readonly Arrival[], t0: number, seconds: number, step: number): number[] {
  const counts = new Array<number>(Math.max(1, Math.floor(seconds / step))).fill(0);
  for (const a of window) {
    const i = Math.floor((a.at - t0) / 1000 / step);
    if (i < counts.length) counts[i] = (counts[i] ?? 0) + 1;
  }
  return counts;
}

function summary(counts: readonly number[]) {
  const sorted = [...counts].sort((a, b) => a - b);
  return { min: sorted[0] ?? 0, p50: sorted[Math.floor(sorted.length / 2)] ?? 0, max: sorted.at(-1) ?? 0 };
}

/** Over the whole run, each host's requests: the most within any LINK_CHECK_HOST_SPACING_MS, the closest two. */
function hostSpacing(arrivals: readonly Arrival[], hosts: number) {
  const byHost = Array.from({ length: hosts }, () => [] as number[]);
  for (const a of arrivals) byHost[a.host]?.push(a.at);
  let perHostMax = 0;
  let closestMs = Infinity;
  let closePairs = 0;
  for (const times of byHost) {
    let from = 0;
    for (let i = 0; i < times.length; i++) {
      const at = times[i] as number;
      while (at - (times[from] as number) >= LINK_CHECK_HOST_SPACING_MS) from++;
      perHostMax = Math.max(perHostMax, i - from + 1);
      if (i > 0) {
        const gap = at - (times[i - 1] as number);
        closestMs = Math.min(closestMs, gap);
        if (gap < LINK_CHECK_HOST_SPACING_MS) closePairs++;
      }
    }
  }
  return { perHostMax, closestMs, closePairs };
}

export function printLinkChecks(r: LinkChecksResult): void {
  const n = (x: number) => x.toLocaleString('en-US');
  const share = (x: number) => `${((100 * x) / Math.max(1, r.checksDone)).toFixed(0)} %`;
  printTable([
    [`Link checker, ${n(r.links)} due links on ${r.hosts} hosts, ${r.seconds.toFixed(0)} s`, 'figure'],
    ['Requests (HEAD / GET)', `${n(r.requests)} (${n(r.heads)} / ${n(r.gets)})`],
    ['Checks finished in the window (whole run)', `${n(r.checksInWindow)} (${n(r.checksDone)})`],
    [
      'Found (whole run)',
      Object.entries(r.results)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${n(v)} (${share(v)})`)
        .join(', '),
    ],
    ['HEAD answered, GET not asked yet', n(r.waitingForGet)],
    ['Requests a second (lowest / median / highest)', `${r.perSecond.min} / ${r.perSecond.p50} / ${r.perSecond.max}`],
    ['Requests in each 10 s', r.perTenSeconds.join(', ')],
    ['Server CPU per check (per request)', `${us(r.serverCpuPerCheckUs)} (${us(r.serverCpuPerRequestUs)}), ${r.serverCpuS.toFixed(1)} s in all`],
    ...(r.dbCpuPerCheckUs === null || r.dbCpuS === null
      ? []
      : [['PostgreSQL CPU per check', `${us(r.dbCpuPerCheckUs)}, ${r.dbCpuS.toFixed(1)} s in all`]]),
    ['Load average (1, 5, 15 min) at the end', r.loadAverage],
  ]);
  const perHost = r.perHostMax <= 1;
  console.log(
    `${perHost ? 'PASS' : 'MISS'}  one request per host per second: at most ${r.perHostMax} to a host within 1 s; ` +
      `closest two ${r.closestMs.toFixed(0)} ms apart; ${n(r.closePairs)} pairs under 1 s`,
  );
  console.log(
    `${r.requestsPerMinute <= r.perMinuteLimit ? 'PASS' : 'MISS'}  LINK_CHECK_PER_MINUTE: ${rate(r.requestsPerMinute)} requests a minute ≤ ${n(r.perMinuteLimit)} ` +
      `(the ${r.hosts} hosts allow ${n(r.hostsAllowPerMinute)} at one a second each)`,
  );
}
