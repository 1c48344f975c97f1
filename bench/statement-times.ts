/**
 * Where one Add New Resource spends its SQL time, statement by statement (SQLite, in process):
 * a real server on a fresh database (no ANALYZE statistics, as a new install has), one user and
 * one public collection; N adds of new links through the service, each statement of
 * better-sqlite3 timed around its run/all/get. Prints µs per add per statement, the SQL total,
 * and the process CPU per add. The collection grows by N resources during the run.
 *
 *   N=2000 npx tsx bench/statement-times.ts
 */
import Database from 'better-sqlite3';
import { addResource } from '../server/services/resources';
import type { AddResource } from '../shared/domain';
import { signedInUser } from '../tests/support/client';
import { testDatabases } from '../tests/support/databases';
import { startTestServer } from '../tests/support/server';

const N = Number(process.env.N ?? 2000);
const WARM_UP = 200;

const [sqlite] = await testDatabases();
if (!sqlite) throw new Error('no SQLite test database');
const server = await startTestServer(sqlite);
try {
  const user = await signedInUser(server.url, 'Statement Timer');
  const collection = await user.api.createSupercuration({ title: 'Timed', isPublic: true, slug: `timed-${Date.now()}` });
  const viewer = { id: user.me.id, email: user.input.email, name: 'Statement Timer' };
  const add = (i: number, prefix: string) =>
    addResource(server.db, viewer, collection.id, {
      link: { url: `https://${prefix}.example/${i}`, title: `Resource ${i}`, description: 'A resource', thumbnailUrl: null, linkText: 'Visit Link', topicIds: [], inMainFeed: true },
    } satisfies AddResource);

  const times = new Map<string, { runs: number; ns: bigint }>();
  const statement = Object.getPrototypeOf(new Database(':memory:').prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  for (const method of ['run', 'all', 'get', 'iterate']) {
    const original = statement[method] as (...args: unknown[]) => unknown;
    statement[method] = function (this: { source: string }, ...args: unknown[]) {
      const t0 = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        const key = this.source.replace(/\s+/g, ' ').slice(0, 120);
        const entry = times.get(key) ?? { runs: 0, ns: 0n };
        entry.runs += 1;
        entry.ns += process.hrtime.bigint() - t0;
        times.set(key, entry);
      }
    };
  }

  for (let i = 0; i < WARM_UP; i++) await add(i, 'warm');
  times.clear();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await add(i, 'timed');
  const cpu = process.cpuUsage(cpu0);
  let total = 0;
  for (const [sql, t] of [...times].sort((a, b) => Number(b[1].ns - a[1].ns))) {
    const us = Number(t.ns) / 1e3 / N;
    total += us;
    console.log(`${us.toFixed(1).padStart(7)} µs  ×${(t.runs / N).toFixed(1)}  ${sql}`);
  }
  console.log(`SQL ${total.toFixed(0)} µs per add; process CPU ${((cpu.user + cpu.system) / N).toFixed(0)} µs per add (${N} adds, the collection ${WARM_UP} → ${WARM_UP + N} resources)`);
} finally {
  await server.destroy();
}
