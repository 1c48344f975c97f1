import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, bulkWrites, openDatabase } from '../../server/db';
import { startCheckpointer } from '../../server/db/checkpointer';
import { rowsTemplate } from '../../server/db/query-templates';
import SQLite from 'better-sqlite3';
import { testDatabases } from '../support/databases';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const databases = await testDatabases();

/** How server/db/index.ts sets up each connection, seen from the database itself. */
for (const database of databases) {
  describe(`database connection [${database.name}]`, () => {
    let db: Db;
    let drop: () => Promise<void>;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'supercurate-db-'));
    beforeAll(async () => {
      const fresh = await database.create();
      drop = fresh.drop;
      db = openDatabase({ databaseUrl: fresh.databaseUrl, dataDir });
    });
    afterAll(async () => {
      await db?.close();
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("runs a many-row template with each call's rows in their own columns, whatever the row count", async () => {
      await sql`create table template_rows (a text not null, b integer, c text not null, d text not null)`.execute(db.kysely);
      // The Kysely types know only the app's tables: the template is typed by the rows it takes.
      type Row = { a: string; b: number | null; c: string };
      const insert = rowsTemplate<Row, { a: string; b: number | null }>(['a', 'b', 'c'], (k, rows) =>
        (k as unknown as Kysely<{ template_rows: Row & { d: string } }>)
          .insertInto('template_rows')
          .values(rows.map((r) => ({ ...r, d: 'fixed' })))
          .returning(['a', 'b']) as never,
      );
      const batch = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ a: `${tag}-${i}`, b: i % 3 === 0 ? null : i, c: `c${tag}${i}` }));
      // More row counts than are kept compiled, then the first ones again.
      const sizes = [3, 1, 12, 2, 5, 7, 4, 9, 6, 11, 3, 1];
      for (const [k, n] of sizes.entries()) {
        const rows = batch(n, `t${k}`);
        expect(await insert(db.kysely, rows)).toEqual(rows.map((r) => ({ a: r.a, b: r.b })));
      }
      const stored = await sql<{ a: string; b: number | null; c: string; d: string }>`select a, b, c, d from template_rows order by a`.execute(db.kysely);
      const expected = sizes.flatMap((n, k) => batch(n, `t${k}`).map((r) => ({ ...r, d: 'fixed' })));
      expect(stored.rows).toEqual(expected.sort((x, y) => (x.a < y.a ? -1 : 1)));
      await expect(insert(db.kysely, [{ a: 'x', b: 1 } as Row])).rejects.toThrow('rows template: no value for c');
    });

    if (database.name === 'sqlite') {
      it('runs SQLite in WAL mode with foreign keys enforced', async () => {
        const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db.kysely);
        const fks = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db.kysely);
        expect(journal.rows[0]?.journal_mode).toBe('wal');
        expect(fks.rows[0]?.foreign_keys).toBe(1);
      });

      it('keeps 64 MiB of pages in memory', async () => {
        const cache = await sql<{ cache_size: number }>`pragma cache_size`.execute(db.kysely);
        expect(cache.rows[0]?.cache_size).toBe(-65_536);
      });

      it('keeps a 64 MiB page cache, 2 MiB while a bulk write (an import) runs, and checkpoints itself only as a backstop', async () => {
        const settings = async () => ({
          pages: (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db.kysely)).rows[0]?.wal_autocheckpoint,
          cacheKib: -((await sql<{ cache_size: number }>`pragma cache_size`.execute(db.kysely)).rows[0]?.cache_size ?? 0),
        });
        const ordinary = { pages: 16_000, cacheKib: 65_536 };
        const bulk = { pages: 16_000, cacheKib: 2_048 };
        expect(await settings()).toEqual(ordinary);
        let release = () => {};
        const first = bulkWrites(db, () => new Promise<void>((resolve) => (release = resolve)));
        await expect.poll(settings).toEqual(bulk);
        // A second import in the same process: the settings stay until both are done.
        await bulkWrites(db, async () => expect(await settings()).toEqual(bulk));
        expect(await settings()).toEqual(bulk);
        release();
        await first;
        expect(await settings()).toEqual(ordinary);
        // The WAL file is cut back to the backstop's size after a checkpoint.
        expect((await sql<{ journal_size_limit: number }>`pragma journal_size_limit`.execute(db.kysely)).rows[0]?.journal_size_limit).toBe(16_000 * 4096);
      });

      it('copies committed writes into the database file from a thread of its own', async () => {
        const file = 'checkpointed.db';
        const writer = openDatabase({ dataDir, sqliteFile: file });
        try {
          await sql`create table notes (n integer)`.execute(writer.kysely);
          await sql`insert into notes (n) values (1), (2), (3)`.execute(writer.kysely);
          // Far fewer pages than the backstop: only the thread can have copied them.
          const inFile = () => {
            // The database file alone, without its WAL: what has been checkpointed.
            const copy = path.join(dataDir, 'file-only.db');
            copyFileSync(path.join(dataDir, file), copy);
            const alone = new SQLite(copy, { readonly: true });
            try {
              return (alone.prepare("select count(*) as n from sqlite_schema where name = 'notes'").get() as { n: number }).n === 1
                ? (alone.prepare('select count(*) as n from notes').get() as { n: number }).n
                : 0;
            } finally {
              alone.close();
              rmSync(copy);
            }
          };
          await expect.poll(inFile, { timeout: 5_000 }).toBe(3);
        } finally {
          await writer.close();
        }
      });

      it('hands checkpoints back to the connection when the thread cannot open the file', async () => {
        const failure = await new Promise<Error>((resolve) => startCheckpointer(path.join(dataDir, 'no-such-dir', 'x.db'), resolve));
        expect(failure.message).toMatch(/unable to open database file|directory does not exist/);
      });

      it("drops the per-value samples of an ANALYZE and its counts of FTS5's tables on opening, and keeps its averages", async () => {
        const file = 'analysed.db';
        const analysed = openDatabase({ dataDir, sqliteFile: file });
        await sql`create table t (k text primary key, v text)`.execute(analysed.kysely);
        await sql`create index t_v on t (v)`.execute(analysed.kysely);
        await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 200)
          insert into t select 'k' || i, 'v' || (i % 7) from n`.execute(analysed.kysely);
        // An FTS5 index analysed while small: its pages are then found by key, not by a scan.
        await sql`create virtual table f using fts5(x)`.execute(analysed.kysely);
        await sql`insert into f (x) values ('one'), ('two')`.execute(analysed.kysely);
        await sql`analyze`.execute(analysed.kysely);
        const count = async (d: Db, table: string) =>
          Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(d.kysely)).rows[0]?.n);
        const ftsCounts = async (d: Db) =>
          Number((await sql<{ n: number }>`select count(*) as n from sqlite_stat1 where tbl glob 'f_*'`.execute(d.kysely)).rows[0]?.n);
        expect(await count(analysed, 'sqlite_stat4')).toBeGreaterThan(0);
        expect(await ftsCounts(analysed)).toBeGreaterThan(0);
        await analysed.close();

        const reopened = openDatabase({ dataDir, sqliteFile: file });
        try {
          expect(await count(reopened, 'sqlite_stat4')).toBe(0);
          expect(await count(reopened, 'sqlite_stat1')).toBeGreaterThan(0);
          expect(await ftsCounts(reopened)).toBe(0);
          const plan = await sql<{ detail: string }>`explain query plan select id from f_data where id >= ${1} and id <= ${9}`.execute(reopened.kysely);
          expect(plan.rows.map((r) => r.detail)).toEqual([expect.stringMatching(/^SEARCH f_data USING INTEGER PRIMARY KEY/)]);
        } finally {
          await reopened.close();
        }
      });
    } else {
      it('prepares a parameterised query once per connection, but not one with an array parameter', async () => {
        await db.kysely.connection().execute(async (conn) => {
          const scalar = sql<{ n: number }>`select ${41}::int + 1 as n`;
          const array = sql<{ n: number }>`select cardinality(${['a', 'b']}::text[]) as n`;
          for (let i = 0; i < 3; i += 1) {
            expect((await scalar.execute(conn)).rows[0]?.n).toBe(42);
            expect((await array.execute(conn)).rows[0]?.n).toBe(2);
          }
          const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(conn);
          const statements = prepared.rows.map((r) => r.statement);
          expect(statements).toContain('select $1::int + 1 as n');
          expect(statements.some((s) => s.includes('cardinality'))).toBe(false);
        });
      });

      it("begins a transaction with its first statement, keeping a transaction's statements, isolation level and rollback", async () => {
        await sql`create table pipelined (n int primary key)`.execute(db.kysely);
        const txid = sql<{ id: string }>`select txid_current()::text as id`;
        const ids = await db.kysely.transaction().execute(async (trx) => {
          await sql`insert into pipelined values (${1})`.execute(trx);
          return [(await txid.execute(trx)).rows[0]?.id, (await txid.execute(trx)).rows[0]?.id];
        });
        expect(ids[0]).toBeDefined();
        expect(ids[1]).toBe(ids[0]);
        const level = await db.kysely
          .transaction()
          .setIsolationLevel('serializable')
          .execute(async (trx) => (await sql<{ level: string }>`select current_setting('transaction_isolation') as level`.execute(trx)).rows[0]?.level);
        expect(level).toBe('serializable');
        // A failing statement, first or later, rolls back everything before it; the connections stay usable.
        await expect(db.kysely.transaction().execute((trx) => sql`insert into pipelined values (${1})`.execute(trx))).rejects.toThrow(/duplicate key/);
        await expect(
          db.kysely.transaction().execute(async (trx) => {
            await sql`insert into pipelined values (${2})`.execute(trx);
            await sql`insert into pipelined values (${1})`.execute(trx);
          }),
        ).rejects.toThrow(/duplicate key/);
        await expect(
          db.kysely.transaction().execute(async (trx) => {
            await sql`insert into pipelined values (${3})`.execute(trx);
            throw new Error('changed my mind');
          }),
        ).rejects.toThrow('changed my mind');
        // A transaction that runs no statement commits nothing and leaves no transaction open.
        await db.kysely.transaction().execute(async () => undefined);
        const left = await sql<{ n: number }>`select n from pipelined order by n`.execute(db.kysely);
        expect(left.rows).toEqual([{ n: 1 }]);
        const open = await db.kysely.connection().execute((conn) => sql<{ id: string | null }>`select txid_current_if_assigned()::text as id`.execute(conn));
        expect(open.rows[0]?.id).toBeNull();
      });

      it('writes a statement the transaction does not wait for before its commit: it runs inside it, and its failure rolls the commit back', async () => {
        await sql`create table behind_commit (n int primary key, tx text not null)`.execute(db.kysely);
        const write = (trx: typeof db.kysely, n: number) => sql`insert into behind_commit values (${n}, txid_current()::text)`.execute(trx);
        const run = async (first: number, behind: number) => {
          let pending: Promise<unknown> = Promise.resolve();
          await db.kysely.transaction().execute(async (trx) => {
            await write(trx, first);
            // As insertNewResource does: handed to pg, not awaited, so Kysely's commit goes right behind it.
            pending = write(trx, behind).then(() => null, (err: Error) => err);
          });
          return pending;
        };
        expect(await run(1, 2)).toBeNull();
        const rows = await sql<{ n: number; tx: string }>`select n, tx from behind_commit order by n`.execute(db.kysely);
        expect(rows.rows.map((r) => r.n)).toEqual([1, 2]);
        expect(rows.rows[1]?.tx).toBe(rows.rows[0]?.tx);
        // The statement behind fails (a duplicate key): PostgreSQL answers the commit with a rollback.
        expect(String(await run(3, 1))).toMatch(/duplicate key/);
        const left = await sql<{ n: number }>`select n from behind_commit order by n`.execute(db.kysely);
        expect(left.rows.map((r) => r.n)).toEqual([1, 2]);
      });
    }
  });
}
