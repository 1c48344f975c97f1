import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { authOptions } from '../../server/auth';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db';
import { migrate } from '../../server/db/migrate';
import { TEMPLATE_ENV, createDatabase, databaseUrlOf, dropDatabase, reachable, releaseDatabase } from './databases';

/**
 * Vitest's global setup: when the run has a PostgreSQL (TEST_DATABASE_URL), one database migrated
 * as the server migrates it on start, which each test's PostgreSQL database is then copied from
 * (tests/support/databases.ts). Dropped when the run ends. Without PostgreSQL it does nothing, and
 * testDatabases() decides what an unreachable one means.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  // Each project of a run names this setup: the first one's template serves them all.
  if (process.env[TEMPLATE_ENV] || !adminUrl || !(await reachable(adminUrl))) return undefined;
  const name = `supercurate_template_${randomBytes(6).toString('hex')}`;
  await createDatabase(adminUrl, name, null);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'supercurate-template-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrlOf(adminUrl, name), LOG_LEVEL: 'silent' });
    const db = openDatabase(config);
    try {
      await migrate(db, authOptions(config, db));
    } finally {
      await db.close();
    }
    await releaseDatabase(adminUrl, name);
  } catch (err) {
    await dropDatabase(adminUrl, name);
    throw err;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.env[TEMPLATE_ENV] = name;
  return () => dropDatabase(adminUrl, name);
}
