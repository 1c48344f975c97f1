/**
 * Where one Add New Resource spends its SQL time, statement by statement, in process: a real server
 * on a fresh database (no ANALYZE statistics, as a new install has), one user and one public
 * collection; N adds of new links through the service. Prints µs per add per statement, the SQL
 * total, and the process CPU per add. The collection grows by N resources during the run.
 * - SQLite (default): each statement of better-sqlite3 timed around its run/all/get (CPU, as it is
 *   synchronous).
 * - PostgreSQL (DB=postgres, on TEST_DATABASE_URL): each query timed from its send to its answer
 *   (a round trip: client, socket and backend), and the CPU of the database's backends per add.
 *
 *   N=2000 npx tsx bench/statement-times.ts
 *   DB=postgres TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres N=2000 npx tsx bench/statement-times.ts
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { addResource } from '../server/services/resources';
import type { AddResource } from '../shared/domain';
import { signedInUser } from '../tests/support/client';
import { testDatabases } from '../tests/support/databases';
import { startTestServer } from '../tests/support/server';
import { cpuOfProcesses } from './server';

const N = Number(process.env.N ?? 2000);
const WARM_UP = 200;
const onPostgres = process.env.DB === 'postgres';

const database = (await testDatabases()).find((d) => d.name === (onPostgres ? 'postgres' : 'sqlite'));
if (!database) throw new Error(onPostgres ? 'DB=postgres needs TEST_DATABASE_URL' : 'no SQLite test database');
const server = await startTestServer(database);

const times = new Map<string, { runs: number; ns: bigint }>();
const record = (source: string, t0: bigint) => {
  const key = source.replace(/\s+/g, ' ').slice(0, 120);
  const entry = times.get(key) ?? { runs: 0, ns: 0n };
  entry.runs += 1;
  entry.ns += process.hrtime.bigint() - t0;
  times.set(key, entry);
};
if (onPostgres) {
  const client = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = client.query;
  client.query = function (this: unknown, ...args: unknown[]) {
    const t0 = process.hrtime.bigint();
    const query = args[0] as string | { text: string };
    const result = original.apply(this, args);
    if (result instanceof Promise) void result.then(() => record(typeof query === 'string' ? query : query.text, t0), () => {});
    return result;
  };
} else {
  const statement = Object.getPrototypeOf(new Database(':memory:').prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  for (const method of ['run', 'all', 'get', 'iterate']) {
    const original = statement[method] as (...args: unknown[]) => unknown;
    statement[method] = function (this: { source: string }, ...args: unknown[]) {
      const t0 = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        record(this.source, t0);
      }
    };
  }
}

/** CPU seconds of the test database's backends (PostgreSQL on this machine), else null. */
async function backendCpu(): Promise<{ sample: () => Promise<number | null>; close: () => Promise<void> }> {
  if (!onPostgres) return { sample: async () => null, close: async () => {} };
  const url = new URL(server.config.databaseUrl as string);
  const probe = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await probe.connect();
  const cpu = cpuOfProcesses();
  return {
    async sample() {
      const { rows } = await probe.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [url.pathname.slice(1)]);
      return cpu(rows.map((r) => r.pid));
    },
    close: () => probe.end(),
  };
}

try {
  const user = await signedInUser(server.url, 'Statement Timer');
  const collection = await user.api.createSupercuration({ title: 'Timed', isPublic: true, slug: `timed-${Date.now()}` });
  const viewer = { id: user.me.id, email: user.input.email, name: 'Statement Timer' };
  const add = (i: number, prefix: string) =>
    addResource(server.db, viewer, collection.id, {
      link: { url: `https://${prefix}.example/${i}`, title: `Resource ${i}`, description: 'A resource', thumbnailUrl: null, linkText: 'Visit Link', topicIds: [], inMainFeed: true },
    } satisfies AddResource);

  for (let i = 0; i < WARM_UP; i++) await add(i, 'warm');
  const dbCpu = await backendCpu();
  times.clear();
  const db0 = await dbCpu.sample();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await add(i, 'timed');
  const cpu = process.cpuUsage(cpu0);
  const db1 = await dbCpu.sample();
  await dbCpu.close();
  let total = 0;
  for (const [sql, t] of [...times].sort((a, b) => Number(b[1].ns - a[1].ns))) {
    const us = Number(t.ns) / 1e3 / N;
    total += us;
    console.log(`${us.toFixed(1).padStart(7)} µs  ×${(t.runs / N).toFixed(1)}  ${sql}`);
  }
  const database = db0 !== null && db1 !== null ? `; database backends' CPU ${(((db1 - db0) * 1e6) / N).toFixed(0)} µs per add` : '';
  console.log(
    `SQL ${total.toFixed(0)} µs per add; process CPU ${((cpu.user + cpu.system) / N).toFixed(0)} µs per add${database} (${N} adds, the collection ${WARM_UP} → ${WARM_UP + N} resources)`,
  );
} finally {
  await server.destroy();
}
