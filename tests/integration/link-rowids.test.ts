import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as rowidsMigration from '../../server/db/migrations/0027_link_rowids_by_author';
import { signedInUser } from '../support/client';
import { testDatabases } from '../support/databases';
import { type TestServer, startTestServer } from '../support/server';
import type { User } from '../support/supercurations';

/** server/db/link-rowids.ts: on SQLite a link's rowid is in its author's block (PostgreSQL has no rowid). */
const BLOCK = 2 ** 26;
const word = () => `zr${randomBytes(5).toString('hex').replace(/\d/g, (d) => 'abcdefghij'[Number(d)] as string)}`;
const bookmarks = (...titles: string[]) =>
  new Blob([`<DL><p>${titles.map((t) => `<DT><A HREF="https://example.com/${word()}">${t}</A>`).join('')}</DL><p>`], { type: 'text/html' });

describe('link rowids by author [sqlite]', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer((await testDatabases()).find((d) => d.name === 'sqlite') as Parameters<typeof startTestServer>[0]);
  });
  afterAll(async () => {
    await server?.destroy();
  });

  /** A user's links (rowid r) in the order they were saved, and the user's own rowid (u). */
  const rowsOf = async (user: User) =>
    (
      await sql<{ r: number; u: number; title: string }>`select l.rowid as r, u.rowid as u, l.title from links l inner join "user" u on u.id = l.user_id
        where l.user_id = ${user.me.id} order by l.rowid`.execute(server.db.kysely)
    ).rows;
  const found = async (user: User, q: string) => (await user.api.search({ q })).items.map((i) => i.link.title).sort();

  it("puts a user's links one after the other in their own block, however they are saved", async () => {
    const [ann, bob] = (await Promise.all(['Ann', 'Bob'].map((n) => signedInUser(server.url, n)))) as [User, User];
    const w = word();
    await ann.api.createLink({ title: `One ${w}`, description: 'd', url: `https://example.com/${word()}` });
    const bobs = await bob.api.createLink({ title: `Bob ${w}`, description: 'd', url: `https://example.com/${word()}` });
    await ann.api.repost(bobs.id);
    expect((await ann.api.importBookmarks(bookmarks(`Two ${w}`, `Three ${w}`))).created).toBe(2);
    await bob.api.createLink({ title: `Bob again ${w}`, description: 'd', url: `https://example.com/${word()}` });

    const anns = await rowsOf(ann);
    const u = anns[0]?.u as number;
    expect(anns.map((r) => r.r)).toEqual([1, 2, 3, 4].map((i) => u * BLOCK + i));
    expect(anns.map((r) => r.title)).toEqual([`One ${w}`, `Bob ${w}`, `Two ${w}`, `Three ${w}`]);
    const bobRows = await rowsOf(bob);
    expect(bobRows.map((r) => r.r)).toEqual([1, 2].map((i) => (bobRows[0]?.u as number) * BLOCK + i));
    expect(await found(ann, w)).toEqual([`Bob ${w}`, `One ${w}`, `Three ${w}`, `Two ${w}`]);
  });

  it('gives SQLite its own next rowid for a link whose author has filled their block, and indexes it there', async () => {
    const cam = await signedInUser(server.url, 'Cam');
    const w = word();
    const first = await cam.api.createLink({ title: `First ${w}`, description: 'd', url: `https://example.com/${word()}` });
    const u = (await rowsOf(cam))[0]?.u as number;
    // The block's last rowid taken (as by 67 million links); the index keeps it under its old one.
    await sql`update links set rowid = ${(u + 1) * BLOCK - 1} where id = ${first.id}`.execute(server.db.kysely);
    await cam.api.createLink({ title: `Later ${w}`, description: 'd', url: `https://example.com/${word()}` });
    expect((await cam.api.importBookmarks(bookmarks(`Imported ${w}`, `Imported too ${w}`))).created).toBe(2);
    const rows = await rowsOf(cam);
    expect(rows.map((r) => r.title)).toEqual([`First ${w}`, `Later ${w}`, `Imported ${w}`, `Imported too ${w}`]);
    expect(rows.slice(1).every((r) => r.r >= (u + 1) * BLOCK)).toBe(true);
    expect(await found(cam, w)).toEqual([`Imported ${w}`, `Imported too ${w}`, `Later ${w}`].sort());
  });

  it('migration 0027 moves the links saved before it into their blocks, in order, and search finds them there', async () => {
    const [dee, eve] = (await Promise.all(['Dee', 'Eve'].map((n) => signedInUser(server.url, n)))) as [User, User];
    const w = word();
    for (const user of [dee, eve, dee]) await user.api.createLink({ title: `${user.me.name} ${w}`, description: 'd', url: `https://example.com/${word()}` });
    const k = server.db.kysely;
    const before = [...(await rowsOf(dee)), ...(await rowsOf(eve))];
    // As saved before the migration: rowids in the order of saving, whoever the author.
    for (const [i, r] of [before[0], before[2], before[1]].entries()) await sql`update links set rowid = ${100 + i} where rowid = ${r?.r}`.execute(k);
    await rowidsMigration.up(k as Kysely<unknown>);
    const [d, e] = [before[0]?.u as number, before[2]?.u as number];
    expect([...(await rowsOf(dee)), ...(await rowsOf(eve))].map((r) => r.r)).toEqual([d * BLOCK + 100, d * BLOCK + 102, e * BLOCK + 101]);
    expect(await found(dee, w)).toEqual([`Dee ${w}`, `Dee ${w}`]);
    expect(await found(eve, w)).toEqual([`Eve ${w}`]);
  });
});
