import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  /**
   * A fresh database: a new PostgreSQL database (already migrated when the run made a template), or
   * undefined for a SQLite file in DATA_DIR.
   */
  create(): Promise<{ databaseUrl: string | undefined; drop(): Promise<void> }>;
  /** The same kind of database, whose create() gives one with no schema at all (for tests of a first start's migrations). */
  empty(): TestDatabase;
}

const sqlite: TestDatabase = {
  name: 'sqlite',
  create: async () => ({ databaseUrl: undefined, drop: async () => {} }),
  empty: () => sqlite,
};

/** Runs `work` with a client of the admin database. */
async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrlOf(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Resolves once nobody is connected to database `name`: pg's pool.end() resolves before its
 * sockets have closed, and a database is neither dropped nor copied while it has a session.
 */
async function untilUnused(client: pg.Client, name: string): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
    if ((rows[0]?.n ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Creates database `name`, a copy of `template` if given (null: an empty one). */
export async function createDatabase(adminUrl: string, name: string, template: string | null): Promise<void> {
  await withAdmin(adminUrl, (client) => client.query(`create database ${name}${template ? ` template ${template}` : ''}`));
}

/** Drops database `name` once its last session has gone (a forced drop would make those sessions' clients raise 57P01). */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, async (client) => {
    await untilUnused(client, name);
    await client.query(`drop database if exists ${name} with (force)`);
  });
}

/** Waits until database `name` has no session, so that it can be copied. */
export async function releaseDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, (client) => untilUnused(client, name));
}

/**
 * The migrated database each test database is copied from, when the run's global setup made one
 * (tests/support/postgres-template.ts): a copy takes ~40 ms, running every migration again ~0.5 s.
 */
export const TEMPLATE_ENV = 'SUPERCURATE_TEST_TEMPLATE_DB';

/** `template`: the database copied for each new one; null for empty ones. */
function postgres(adminUrl: string, template: string | null): TestDatabase {
  return {
    name: 'postgres',
    empty: () => postgres(adminUrl, null),
    async create() {
      const name = `supercurate_test_${randomBytes(6).toString('hex')}`;
      await createDatabase(adminUrl, name, template);
      return {
        databaseUrl: databaseUrlOf(adminUrl, name),
        async drop() {
          await dropDatabase(adminUrl, name);
        },
      };
    },
  };
}

export async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. With REQUIRE_POSTGRES=1 an
 * unreachable PostgreSQL fails the run instead of being left out.
 */
export async function testDatabases(): Promise<TestDatabase[]> {
  const url = process.env.TEST_DATABASE_URL;
  const required = process.env.REQUIRE_POSTGRES === '1';
  if (!url) {
    if (required) throw new Error('REQUIRE_POSTGRES=1 but TEST_DATABASE_URL is not set');
    return [sqlite];
  }
  if (!(await reachable(url))) {
    if (required) throw new Error(`PostgreSQL at ${url} is unreachable and REQUIRE_POSTGRES=1`);
    console.warn(`PostgreSQL at ${url} is unreachable: running on SQLite only`);
    return [sqlite];
  }
  return [sqlite, postgres(url, process.env[TEMPLATE_ENV] ?? null)];
}
