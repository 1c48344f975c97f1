import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../server/db';
import { GROUP_COMMIT_MAX, groupCommit } from '../../server/db/group-commit';

type Tables = { grouped: { n: number } };

/** SQLite only: PostgreSQL's writes never share a transaction (server/services/resources.ts). */
describe('group commit [sqlite]', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'supercurate-group-'));
  let db: Db;
  let k: Kysely<Tables>;
  /** A second connection to the file: it sees only what was committed. */
  let other: SQLite.Database;
  const together = groupCommit<Tables>();
  const committed = () => (other.prepare('select n from grouped order by n').all() as { n: number }[]).map((r) => r.n);

  beforeAll(async () => {
    db = openDatabase({ dataDir });
    k = db.kysely as unknown as Kysely<Tables>;
    await sql`create table grouped (n integer primary key)`.execute(k);
    other = new SQLite(path.join(dataDir, 'supercurate.db'), { readonly: true });
  });
  afterAll(async () => {
    other?.close();
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers each write after the commit, and a failed write leaves nothing while the others commit', async () => {
    const heard: number[][] = [];
    const write = (n: number) =>
      together(k, async (trx) => {
        await trx.insertInto('grouped').values({ n }).execute();
        if (n === 3) throw new Error('write 3 fails after its insert');
        return n;
      }).then((value) => {
        heard.push(committed());
        return value;
      });
    const outcomes = await Promise.allSettled([1, 2, 3, 4, 5].map(write));
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([1, 2, 'write 3 fails after its insert', 4, 5]);
    // Every caller that heard success could already read its own row (and the rest of its batch) from elsewhere.
    for (const seen of heard) expect(seen).toEqual([1, 2, 4, 5]);
    expect(committed()).toEqual([1, 2, 4, 5]);
  });

  it("keeps the full-text index of the writes that commit when one rolls back after indexing (FTS5's savepoints)", async () => {
    await sql`create virtual table grouped_search using fts5(body)`.execute(k);
    const search = (word: string) => (other.prepare('select rowid from grouped_search where grouped_search match ? order by rowid').all(word) as { rowid: number }[]).map((r) => r.rowid);
    const index = (n: number) =>
      together(k, async (trx) => {
        await sql`insert into grouped_search (rowid, body) values (${n}, ${`shared word${n}`})`.execute(trx);
        if (n === 2) throw new Error('write 2 fails after indexing');
        return n;
      });
    const outcomes = await Promise.allSettled([1, 2, 3].map(index));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(search('shared')).toEqual([1, 3]);
    expect(search('word2')).toEqual([]);
    expect(other.prepare("select count(*) as n from grouped_search where grouped_search match 'word1 OR word3'").get()).toEqual({ n: 2 });
    // FTS5's own check of its index against its content: throws when they disagree.
    await sql`insert into grouped_search (grouped_search) values ('integrity-check')`.execute(k);
  });

  it('commits more writes than one transaction takes, each once, in the order they came', async () => {
    await sql`delete from grouped`.execute(k);
    const count = GROUP_COMMIT_MAX * 2 + 5;
    const order: number[] = [];
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        together(k, async (trx) => {
          order.push(i);
          await trx.insertInto('grouped').values({ n: i }).execute();
          return i * 10;
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: count }, (_, i) => i * 10));
    expect(order).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(committed()).toEqual(Array.from({ length: count }, (_, i) => i));
  });
});
