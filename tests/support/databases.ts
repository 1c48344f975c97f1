import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  /** A fresh database: a new PostgreSQL database, or undefined for a SQLite file in DATA_DIR. */
  create(): Promise<{ databaseUrl: string | undefined; drop(): Promise<void> }>;
}

const sqlite: TestDatabase = {
  name: 'sqlite',
  create: async () => ({ databaseUrl: undefined, drop: async () => {} }),
};

function postgres(adminUrl: string): TestDatabase {
  return {
    name: 'postgres',
    async create() {
      const name = `supercurate_test_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        await admin.query(`create database ${name}`);
      } finally {
        await admin.end();
      }
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return {
        databaseUrl: url.toString(),
        async drop() {
          const client = new pg.Client({ connectionString: adminUrl });
          await client.connect();
          try {
            // pg's pool.end() resolves before its sockets have closed; a forced drop would then
            // terminate those backends and their clients would raise 57P01 as an uncaught error.
            for (let i = 0; i < 100; i += 1) {
              const { rows } = await client.query<{ n: number }>(
                'select count(*)::int as n from pg_stat_activity where datname = $1',
                [name],
              );
              if ((rows[0]?.n ?? 0) === 0) break;
              await new Promise((resolve) => setTimeout(resolve, 20));
            }
            await client.query(`drop database if exists ${name} with (force)`);
          } finally {
            await client.end();
          }
        },
      };
    },
  };
}

async function reachable(url: string): Promise<boolean> {
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
  return [sqlite, postgres(url)];
}
