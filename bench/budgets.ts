/**
 * The server-cost budgets (issue "Server cost per page"): server CPU per request, plus the
 * database's on PostgreSQL, measured at 32 connections beside the trivial route; and the p99 at a
 * fixed arrival rate of OPEN_LOOP_RATE requests per second. Every budgeted route ends the bench
 * with a PASS or MISS line.
 */
import type { MeasuredRoute } from './common';
import { us, wholeMs } from './common';

export interface Budget {
  /** What the route stands for in the budget table. */
  name: string;
  write: boolean;
  sqlite: { serverUs: number };
  /** Each side's, or (totalUs) the server's and the database's together. */
  postgres: { serverUs: number; dbUs: number } | { totalUs: number };
  /** Its open-loop run, when not at OPEN_LOOP_RATE against P99_BUDGET_MS. */
  openLoop?: { rate: number; p99Ms: number };
}

const read = (name: string, serverUs: number, dbUs: number): Budget => ({
  name,
  write: false,
  sqlite: { serverUs },
  postgres: { serverUs, dbUs },
});

export const BUDGETS = {
  feed: read('My Feed first page, most liked, format + topic, page 51', 350, 300),
  publicApi: read('public collection, first API page', 300, 250),
  publicHtml: read('public collection, server-rendered HTML', 1_500, 250),
  directory: read('directory search', 450, 400),
  // Issue 23: server plus database CPU ≤ 3 ms a search, p99 ≤ 50 ms at 50 searches a second.
  search: { name: 'personal search', write: false, sqlite: { serverUs: 3_000 }, postgres: { totalUs: 3_000 }, openLoop: { rate: 50, p99Ms: 50 } },
  write: {
    name: 'add a resource; like toggle',
    write: true,
    sqlite: { serverUs: 600 },
    postgres: { serverUs: 700, dbUs: 700 },
  },
} as const satisfies Record<string, Budget>;

/** Requests per second of the open-loop run, whatever the answers' latency (autocannon's overallRate). */
export const OPEN_LOOP_RATE = 500;
/** The arrival rate of a budgeted route's open-loop run. */
export const openLoopRate = (budget: Budget) => budget.openLoop?.rate ?? OPEN_LOOP_RATE;
/** The open-loop run counts as at that rate when it achieved this share of it. */
const ACHIEVED_SHARE = 0.95;
export const P99_BUDGET_MS = { read: 15, write: 25 } as const;

export type Dialect = 'sqlite' | 'postgres';

export interface Verdict {
  pass: boolean;
  line: string;
}

/** PASS or MISS for a budgeted route, with every figure it was judged on and each one missed named. */
export function verdictOf(route: MeasuredRoute, budget: Budget, dialect: Dialect): Verdict {
  const missed: string[] = [];
  const pg = dialect === 'postgres' ? budget.postgres : null;
  const server = pg === null ? budget.sqlite.serverUs : 'totalUs' in pg ? Number.POSITIVE_INFINITY : pg.serverUs;
  const p99Budget = budget.openLoop?.p99Ms ?? (budget.write ? P99_BUDGET_MS.write : P99_BUDGET_MS.read);
  const rateBudget = openLoopRate(budget);
  const open = route.openLoop;
  const serverUs = route.serverCpuUs ?? Number.POSITIVE_INFINITY;
  if (!(serverUs <= server)) missed.push('server CPU');
  let db = '';
  if (pg) {
    const dbUs = route.dbCpuUs ?? Number.POSITIVE_INFINITY;
    if ('totalUs' in pg) {
      if (!(serverUs + dbUs <= pg.totalUs)) missed.push('server + database CPU');
      db = ` + database ${us(route.dbCpuUs)}, together ≤ ${us(pg.totalUs)}`;
    } else {
      if (!(dbUs <= pg.dbUs)) missed.push('database CPU');
      db = ` + database ${us(route.dbCpuUs)} ≤ ${us(pg.dbUs)}`;
    }
  }
  if (!open || !(open.p99Ms <= p99Budget)) missed.push('p99');
  if (!open || open.reqPerSec < ACHIEVED_SHARE * rateBudget) missed.push('arrival rate');
  const wrong = route.non2xx + route.errors + route.mismatches + (open ? open.non2xx + open.errors + open.mismatches : 0);
  if (wrong > 0) missed.push(`${wrong} wrong answers`);
  const ratio = route.trivial.serverCpuUs ? (route.serverCpuUs ?? NaN) / route.trivial.serverCpuUs : NaN;
  const line =
    `${missed.length === 0 ? 'PASS' : 'MISS'}  ${route.name}: server CPU ${us(route.serverCpuUs)} ≤ ${us(server)}${db} ` +
    `(${ratio.toFixed(1)}× the trivial route's ${us(route.trivial.serverCpuUs)}); ` +
    `p99 ${open ? wholeMs(open.p99Ms) : '?'} ≤ ${p99Budget} ms at ${open ? Math.round(open.reqPerSec) : '?'} of ${rateBudget} req/s` +
    (missed.length > 0 ? `  [missed: ${missed.join(', ')}]` : '');
  return { pass: missed.length === 0, line };
}

/** The PASS/MISS lines of every budgeted route measured; true when all passed. */
export function printBudgets(routes: readonly MeasuredRoute[], dialect: Dialect): boolean {
  const budgeted = routes.filter((r): r is MeasuredRoute & { budget: Budget } => r.budget !== undefined);
  if (budgeted.length === 0) return true;
  console.log(
    `Budgets (${dialect === 'sqlite' ? 'SQLite: server CPU' : 'PostgreSQL: server + database CPU'} per request in the ` +
      `closed-loop run; p99 at a fixed ${OPEN_LOOP_RATE} req/s, ≤ ${P99_BUDGET_MS.read} ms reads, ≤ ${P99_BUDGET_MS.write} ms writes, unless a route says otherwise):`,
  );
  let all = true;
  for (const route of budgeted) {
    const v = verdictOf(route, route.budget, dialect);
    all &&= v.pass;
    console.log(v.line);
  }
  return all;
}
