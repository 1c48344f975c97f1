import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOptions } from '../../server/auth';
import { loadConfig } from '../../server/config';
import { type Db, openDatabase } from '../../server/db';
import { migrate } from '../../server/db/migrate';
import { SKIPPED_TABLES } from '../../server/db/to-postgres/tables';
import { mailDir } from '../../server/mail/mailer';
import { type ApiClient, createApiClient } from '../../shared/api/client';
import { http, signedInUser, testClient } from '../support/client';
import { counterMismatches } from '../support/counters';
import { testDatabases } from '../support/databases';
import { type DbSnapshot, dbSnapshot } from '../support/db-snapshot';
import { parseEml } from '../support/eml';
import { waitForOutboxIdle } from '../support/outbox';
import { type TestServer, startTestServerOn } from '../support/server';
import { type User, createCollection } from '../support/supercurations';

const ROOT = path.resolve(import.meta.dirname, '../..');
const postgres = (await testDatabases()).find((d) => d.name === 'postgres');

/** `npm run migrate:to-postgres`, as a user runs it: its exit code and output. */
async function migrateToPostgres(env: { DATA_DIR: string; DATABASE_URL?: string }) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  try {
    const { stdout, stderr } = await promisify(execFile)('npm', ['run', '--silent', 'migrate:to-postgres'], { cwd: ROOT, env: childEnv });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * Every row of the copied tables, as JSON lines sorted per table, in SQLite's types: PostgreSQL's
 * booleans as 0/1 and timestamps as ISO text (what Better Auth writes on SQLite), without the
 * PostgreSQL-only search column.
 */
async function copiedRows(db: Db, tables: string[]): Promise<Record<string, string[]>> {
  const asSqlite = (value: unknown) => (typeof value === 'boolean' ? Number(value) : value instanceof Date ? value.toISOString() : value);
  const result: Record<string, string[]> = {};
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db.kysely);
    result[table] = rows
      .map((row) => JSON.stringify(Object.entries(row).flatMap(([k, v]) => (k === 'search_doc' ? [] : [[k, asSqlite(v)]]))))
      .sort();
  }
  return result;
}

/** Definitions of every index and constraint of a PostgreSQL schema. */
async function schemaOf(db: Db): Promise<string[]> {
  const { rows } = await sql<{ definition: string }>`
    select pg_get_indexdef(x.indexrelid) as definition
      from pg_index x join pg_class c on c.oid = x.indexrelid where c.relnamespace = current_schema()::regnamespace
    union all
    select k.conrelid::regclass || ' ' || k.conname || ' ' || pg_get_constraintdef(k.oid)
      from pg_constraint k where k.connamespace = current_schema()::regnamespace
    order by 1`.execute(db.kysely);
  return rows.map((r) => r.definition);
}

/** A PostgreSQL database migrated as the server migrates it on start. */
async function migratedDatabase(dataDir: string, databaseUrl: string): Promise<Db> {
  const db = openDatabase({ dataDir, databaseUrl });
  await migrate(db, authOptions(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl }), db));
  return db;
}

interface World {
  owner: User;
  collaborator: User;
  follower: User;
  publicSlug: string;
  privateId: string;
  links: string[];
  token: string;
}

/** Opens the verification link the server mailed to this address (its outbox writes .eml files to DATA_DIR/mail). */
async function verifyEmail(server: TestServer, address: string): Promise<void> {
  await waitForOutboxIdle(server.db);
  const dir = mailDir(server.config.dataDir);
  const link = readdirSync(dir)
    .map((f) => parseEml(readFileSync(path.join(dir, f), 'utf8')))
    .filter((m) => m.header('to') === address)
    .map((m) => m.text?.match(/http\S+\/api\/auth\/verify-email\?token=\S+/)?.[0])
    .find(Boolean);
  if (!link) throw new Error(`no verification link mailed to ${address}`);
  expect((await http(link, { redirect: 'manual' })).status).toBe(302);
}

/**
 * Users (one with a verified address), links (a repost among them), likes, topics, collections with
 * tags, collaborators, follows, e-mail subscribers, a token: the outbox has the mails they caused.
 */
async function seed(server: TestServer): Promise<World> {
  const { url } = server;
  const owner = await signedInUser(url, 'Olive Owner');
  const collaborator = await signedInUser(url, 'Carl Collaborator');
  const follower = await signedInUser(url, 'Fay Follower');
  await verifyEmail(server, owner.input.email);
  await owner.api.updateProfile(owner.me.id, { name: 'Olive Owner', bio: 'Curating since 2024', location: 'Lisbon', website: 'https://olive.example' });
  const topic = await owner.api.createTopic({ name: 'Migration Notes', color: '#16a34a' });
  const first = await owner.api.createLink({ url: 'https://example.com/one', title: 'One', description: 'The first', topicIds: [topic.id] });
  const second = await owner.api.createLink({ url: 'https://example.com/two', title: 'Two', description: 'The second' });
  const repost = await follower.api.repost(first.id);
  for (const user of [collaborator, follower]) await user.api.toggleLike(first.id);
  await collaborator.api.toggleLike(second.id);

  const shown = await createCollection(owner, { title: 'Migrating carefully', description: 'Moving houses', isPublic: true });
  const hidden = await createCollection(owner, { title: 'Private drafts' });
  await owner.api.addResource(shown.id, { linkId: first.id });
  await owner.api.addResource(shown.id, { linkId: second.id });
  const category = await owner.api.createTagCategory(shown.id);
  await owner.api.addTag(shown.id, category.id, 'essential');
  await owner.api.setResourceTags(shown.id, first.id, ['essential']);
  await owner.api.addCollaborator(hidden.id, collaborator.me.id);
  await collaborator.api.addResource(hidden.id, { link: { url: 'https://example.com/three', title: 'Three', description: 'By Carl' } });

  for (const user of [collaborator, follower]) await user.api.subscribe(owner.me.id);
  await testClient(url).api.subscribeByEmail(shown.id, 'reader@example.com');
  const { token } = await owner.api.createApiToken({ name: 'scripts' });
  return {
    owner,
    collaborator,
    follower,
    publicSlug: shown.slug as string,
    privateId: hidden.id,
    links: [first.id, second.id, repost.id],
    token,
  };
}

/** A user's session, made on another server of the same data, sent to the server at `url`. */
function session(url: string, user: User) {
  return createApiClient({
    baseUrl: url,
    fetchImpl: (input, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('cookie', user.cookieHeader());
      headers.set('origin', url);
      return http(input, { ...init, headers });
    },
  });
}

/** What the seeded users and a visitor read through the API (the server's origin left out of URLs). */
async function readAll(url: string, world: World): Promise<unknown> {
  const [owner, collaborator, follower] = [world.owner, world.collaborator, world.follower].map((user) => session(url, user)) as [
    ApiClient,
    ApiClient,
    ApiClient,
  ];
  const visitor = testClient(url).api;
  const answers = {
    me: await owner.me(),
    ownerSeenByFollower: await follower.getUser(world.owner.me.id),
    links: await owner.listLinks(),
    reposts: await follower.listLinks({ scope: 'reposts' }),
    linkDetails: await Promise.all(world.links.map((id) => collaborator.getLink(id))),
    topics: await owner.listTopics(),
    collections: await owner.listSupercurations(),
    collaborating: await collaborator.getSupercuration(world.privateId),
    privateResources: await collaborator.listResources(world.privateId),
    public: await visitor.getPublicSupercuration(world.publicSlug),
    directory: await visitor.directory({ q: 'migrat' }),
    subscribers: await owner.listSubscribers(),
    tokens: await owner.listApiTokens(),
  };
  return JSON.parse(JSON.stringify(answers).replaceAll(url, '')) as unknown;
}

describe.skipIf(!postgres)('npm run migrate:to-postgres [postgres]', () => {
  const database = postgres as NonNullable<typeof postgres>;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'supercurate-to-pg-'));
  const cleanups: (() => Promise<void>)[] = [];
  let world: World;
  let before: unknown;

  const freshTarget = async () => {
    const target = await database.empty().create();
    cleanups.push(target.drop);
    return target.databaseUrl as string;
  };

  beforeAll(async () => {
    const server = await startTestServerOn(dataDir);
    try {
      world = await seed(server);
      expect((await world.owner.api.me())?.emailVerified).toBe(true);
      await waitForOutboxIdle(server.db);
      before = await readAll(server.url, world);
    } finally {
      await server.destroy();
    }
  }, 120_000);

  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies every table, and the server on PostgreSQL answers as it did on SQLite', async () => {
    const databaseUrl = await freshTarget();
    const run = await migrateToPostgres({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^links: 4 \/ 4 rows \(100%\), [\d,]+ rows\/s, [\d.]+ s$/m);

    const sqliteDb = openDatabase({ dataDir });
    const pgDb = openDatabase({ dataDir, databaseUrl });
    try {
      // link_search is rebuilt, not copied (SQLite's is an FTS5 table): its documents are checked below.
      const tables = (await pgDb.kysely.introspection.getTables()).map((t) => t.name).filter((t) => !(t in SKIPPED_TABLES) && t !== 'link_search');
      const copied = await copiedRows(pgDb, tables);
      expect(copied).toEqual(await copiedRows(sqliteDb, tables));
      const indexed = await sql<{ n: number }>`select count(*)::int as n from link_search`.execute(pgDb.kysely);
      expect(indexed.rows[0]?.n).toBe(copied.links?.length);
      expect(run.stdout).toMatch(/^Search index: 4 links$/m);
      for (const table of ['user', 'session', 'account', 'likes', 'collaborators', 'user_subscriptions', 'email_subscribers', 'mail_outbox']) {
        expect(copied[table]?.length, table).toBeGreaterThan(0);
      }
      // The indexes and foreign keys set aside during the copy are all back.
      const reference = await migratedDatabase(dataDir, await freshTarget());
      try {
        expect(await schemaOf(pgDb)).toEqual(await schemaOf(reference));
      } finally {
        await reference.close();
      }
    } finally {
      await sqliteDb.close();
      await pgDb.close();
    }

    const server = await startTestServerOn(dataDir, { DATABASE_URL: databaseUrl });
    try {
      expect(server.db.dialect).toBe('postgres');
      // The sessions made on SQLite still hold: same rows, and the same AUTH_SECRET in DATA_DIR signs the cookies.
      expect(await readAll(server.url, world)).toEqual(before);
      expect(await counterMismatches(server.db)).toEqual([]);

      const again = testClient(server.url);
      await again.api.signIn({ email: world.follower.input.email, password: world.follower.input.password });
      expect((await again.api.me())?.id).toBe(world.follower.me.id);
      const byToken = await http(`${server.url}/api/me`, { headers: { authorization: `Bearer ${world.token}` } });
      expect(byToken.status).toBe(200);
      // Counters go on from the copied values.
      const [, second] = world.links as [string, string];
      expect(await again.api.toggleLike(second)).toEqual({ liked: true, likes: 2 });
    } finally {
      await server.destroy();
    }
  }, 180_000);

  it('refuses a PostgreSQL database that holds rows, and writes nothing to it', async () => {
    const databaseUrl = await freshTarget();
    const otherDir = mkdtempSync(path.join(tmpdir(), 'supercurate-to-pg-other-'));
    cleanups.push(async () => rmSync(otherDir, { recursive: true, force: true }));
    const server = await startTestServerOn(otherDir, { DATABASE_URL: databaseUrl });
    let snapshot: DbSnapshot;
    try {
      await signedInUser(server.url, 'Already Here');
      await waitForOutboxIdle(server.db);
      snapshot = await dbSnapshot(server.db);
    } finally {
      await server.destroy();
    }

    const run = await migrateToPostgres({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/The PostgreSQL database is not empty \(rows in [^)]*\buser\b[^)]*\): nothing was written/);
    expect(run.stdout).not.toMatch(/rows \(100%\)/);
    const db = openDatabase({ dataDir: otherDir, databaseUrl });
    try {
      expect(await dbSnapshot(db)).toEqual(snapshot);
    } finally {
      await db.close();
    }
  }, 120_000);
});

describe('npm run migrate:to-postgres, DATABASE_URL not PostgreSQL', () => {
  it('says DATABASE_URL must name a PostgreSQL database, and exits 78', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'supercurate-to-pg-url-'));
    try {
      for (const databaseUrl of ['mysql://root@127.0.0.1:3306/supercurate', path.join(dataDir, 'supercurate.db')]) {
        const run = await migrateToPostgres({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
        expect([run.code, run.stderr]).toEqual([78, expect.stringContaining('DATABASE_URL must be a postgres or postgresql URL')]);
      }
      const unset = await migrateToPostgres({ DATA_DIR: dataDir });
      expect([unset.code, unset.stderr]).toEqual([78, expect.stringContaining('DATABASE_URL is not set')]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
