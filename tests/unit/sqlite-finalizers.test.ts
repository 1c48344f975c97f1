import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { expect, test } from 'vitest';

/**
 * better-sqlite3 12 compiled against Node 24.19+ headers aborts the process when a GC outside
 * JavaScript finalises a statement (nodejs/node#65446): a server would die at a random moment
 * after some queries. Every query Kysely runs prepares a statement, so this is what a busy server
 * does; the installed binary must live through it (docs/decisions.md, "Installs").
 */
test('the installed better-sqlite3 survives statements finalised by an idle garbage collection', () => {
  const addon = createRequire(import.meta.url).resolve('better-sqlite3');
  const script = `
    const Database = require(${JSON.stringify(addon)});
    const db = new Database(':memory:');
    for (let round = 0; round < 20; round++) for (let i = 0; i < 20000; i++) db.prepare('select ' + i).get();
    setTimeout(() => console.log('alive'), 3000);
  `;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
  expect({ status: run.status, signal: run.signal, out: run.stdout.trim() }).toEqual({ status: 0, signal: null, out: 'alive' });
  // The child's 400,000 statements and 3 s wait take about 5 s on a busy 2-core machine: its own limit is the spawn's.
}, 60_000);
