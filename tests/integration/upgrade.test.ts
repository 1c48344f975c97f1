import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { searchSegmentsPending } from '../../server/db/link-search';
import { LATEST_SCHEMA } from '../../server/db/migrate';
import { testClient } from '../support/client';
import { startTestServerOn } from '../support/server';

/**
 * tests/fixtures/upgrade-0001/data-dir: the DATA_DIR of the release with the oldest migration set
 * (0001_core_schema, commit bb4c373), filled through that release's API, and what that API read
 * back (expected.json). How it was made: tests/fixtures/upgrade-0001/README.md.
 */
const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/upgrade-0001');

interface ExpectedUser {
  input: { name: string; email: string; password: string };
  me: { id: string } & Record<string, unknown>;
  seenByOther: Record<string, unknown>;
  avatarSha256: string | null;
}
const expected = JSON.parse(readFileSync(path.join(FIXTURE, 'expected.json'), 'utf8')) as { users: ExpectedUser[] };

const appliedMigrations = (dataDir: string): string[] => {
  const db = new Database(path.join(dataDir, 'supercurate.db'), { readonly: true });
  try {
    return (db.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>).map((r) => r.name);
  } finally {
    db.close();
  }
};

describe('upgrade: a data directory from the oldest schema', () => {
  it('is migrated on start, and its accounts, profiles and avatars read as they did', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'supercurate-upgrade-'));
    cpSync(path.join(FIXTURE, 'data-dir'), dataDir, { recursive: true });
    expect(appliedMigrations(dataDir)).toEqual(['0001_core_schema']);
    const server = await startTestServerOn(dataDir);
    try {
      const health = (await (await fetch(`${server.url}/api/health`)).json()) as { schema: string };
      expect(health.schema).toBe(LATEST_SCHEMA);
      expect(appliedMigrations(dataDir).at(-1)).toBe(LATEST_SCHEMA);
      // The search index built by migration 0022 is merged by the server's background worker.
      await expect.poll(() => searchSegmentsPending(server.db.kysely), { timeout: 10_000 }).toBe(false);

      const clients = expected.users.map(() => testClient(server.url));
      for (const [i, user] of expected.users.entries()) {
        await clients[i]?.api.signIn({ email: user.input.email, password: user.input.password });
      }
      for (const [i, user] of expected.users.entries()) {
        const self = clients[i] as ReturnType<typeof testClient>;
        const other = clients[(i + 1) % clients.length] as ReturnType<typeof testClient>;
        expect(await self.api.me()).toMatchObject(user.me);
        expect(await other.api.getUser(user.me.id)).toMatchObject(user.seenByOther);
        const res = await self.fetch(new URL(user.me.avatarUrl as string, server.url));
        expect(res.status).toBe(200);
        // An uploaded avatar comes back byte for byte (a generated one is drawn anew).
        if (user.avatarSha256) {
          expect(createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex')).toBe(user.avatarSha256);
        }
      }
      expect(expected.users.some((user) => user.avatarSha256)).toBe(true);
    } finally {
      await server.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
