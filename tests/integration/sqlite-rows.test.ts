import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../server/db';

type Tables = { notes: { id: number; title: string; body: string | null; score: number } };

/** SQLite only: rows made in JavaScript from raw values (server/db/sqlite-rows.ts). */
describe('SQLite rows [sqlite]', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'supercurate-rows-'));
  let db: Db;
  let k: Kysely<Tables>;

  beforeAll(async () => {
    db = openDatabase({ dataDir });
    k = db.kysely as unknown as Kysely<Tables>;
    await sql`create table notes (id integer primary key, title text not null, body text, score real not null)`.execute(k);
    await k
      .insertInto('notes')
      .values([
        { id: 1, title: 'Première', body: null, score: 1.5 },
        { id: 2, title: 'Second "quoted"', body: 'text', score: -2 },
      ])
      .execute();
  });
  afterAll(async () => {
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers each row as a plain object of its columns, with their values and types', async () => {
    const rows = await k.selectFrom('notes').selectAll().orderBy('id').execute();
    expect(rows).toEqual([
      { id: 1, title: 'Première', body: null, score: 1.5 },
      { id: 2, title: 'Second "quoted"', body: 'text', score: -2 },
    ]);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    expect(Object.keys(rows[1] as object)).toEqual(['id', 'title', 'body', 'score']);
  });

  it('keeps columns of any name, a later one of the same name winning, and never sets a prototype', async () => {
    const { rows } = await sql<Record<string, unknown>>`select 1 as "a b", 2 as "it's", 3 as "x", 4 as "x", 5 as "__proto__"`.execute(k);
    const [row] = rows;
    expect(row).toMatchObject({ 'a b': 1, "it's": 2, x: 4 });
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe(5);
  });

  it('answers writes with their counts and rows written with RETURNING', async () => {
    const updated = await k.updateTable('notes').set({ score: 0 }).where('id', '=', 2).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
    const inserted = await k.insertInto('notes').values({ id: 3, title: 'Third', body: null, score: 3 }).returning(['id', 'title']).execute();
    expect(inserted).toEqual([{ id: 3, title: 'Third' }]);
  });

  it('streams rows as objects', async () => {
    const titles: string[] = [];
    for await (const row of k.selectFrom('notes').select(['title']).orderBy('id').stream()) titles.push(row.title);
    expect(titles).toEqual(['Première', 'Second "quoted"', 'Third']);
  });
});
