import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIRECTORY_SEGMENTS_MAX, directorySegments } from '../../server/db/directory-index';
import { signedInUser, testClient } from '../support/client';
import { testDatabases } from '../support/databases';
import { type TestServer, startTestServer } from '../support/server';
import { createCollection } from '../support/supercurations';

const sqlite = (await testDatabases()).find((d) => d.name === 'sqlite');
if (!sqlite) throw new Error('no SQLite test database');

/** FTS5's own merging of the directory index as collections are written (4 segments a level by default; 0: none). */
const automerge = (server: TestServer, segments: number) =>
  sql`insert into supercurations_search (supercurations_search, rank) values ('automerge', ${sql.lit(segments)})`.execute(server.db.kysely);

describe('directory index (SQLite): merged back into one segment by the server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(sqlite);
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it('a server finds its index in more segments than allowed, merges it into one, and a search answers the same', async () => {
    const owner = await signedInUser(server.url);
    const word = `segmented${Date.now().toString(36).replace(/\d/g, (d) => 'qrstuvwxyz'.charAt(Number(d)))}`;
    const search = async (url: string) => (await testClient(url).api.directory({ q: word })).items.map((c) => c.title);
    // Each write of a public collection adds a segment; with FTS5's own merging off they all stay.
    await automerge(server, 0);
    const titles: string[] = [];
    for (let i = 0; i <= DIRECTORY_SEGMENTS_MAX + 1; i++) {
      titles.unshift(`Curated ${word} ${i}`);
      await createCollection(owner, { title: titles[0], isPublic: true });
    }
    await automerge(server, 4);
    expect(await directorySegments(server.db.kysely)).toBeGreaterThan(DIRECTORY_SEGMENTS_MAX);
    expect(await search(server.url)).toEqual(titles);

    // A server counts the segments when it starts (then every 10 minutes), and merges them.
    const twin = await server.twin();
    try {
      await expect.poll(() => directorySegments(twin.db.kysely), { timeout: 10_000 }).toBe(1);
      expect(await search(twin.url)).toEqual(titles);
      expect(await search(server.url)).toEqual(titles);
    } finally {
      await twin.destroy();
    }
  });
});
