import { afterAll, beforeAll, describe } from 'vitest';
import { testDatabases } from './databases';
import { type TestServer, startTestServer } from './server';

const databases = await testDatabases();

/**
 * Runs a suite once per database (SQLite, and PostgreSQL when configured), each against its
 * own real server. `ctx.server` is ready inside tests. `env` may be a function, called once per
 * database (e.g. for a key prefix of its own).
 */
export function describeEachDatabase(
  title: string,
  suite: (ctx: { server: TestServer }) => void,
  env: Record<string, string> | (() => Record<string, string>) = {},
): void {
  for (const database of databases) {
    describe(`${title} [${database.name}]`, () => {
      const ctx = {} as { server: TestServer };
      beforeAll(async () => {
        ctx.server = await startTestServer(database, typeof env === 'function' ? env() : env);
      });
      afterAll(async () => {
        await ctx.server?.destroy();
      });
      suite(ctx);
    });
  }
}
