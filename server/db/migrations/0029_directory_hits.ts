import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL: the public directory's rare-word search (server/services/directory.ts, pgSearch) reads
 * every hit of a tsquery from the GIN index on search_doc. The planner, which guesses the hits of a
 * prefix query badly, must not pick a sequential scan: a function's SET clause turns those off while
 * its query is planned and run, in the one statement that calls it. It replaces a transaction of
 * its own around `set local enable_seqscan = off` (three round trips more per search). Not
 * inlined (a SET clause prevents it): the caller materialises its rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create function directory_hits(q tsquery) returns table (id text, created_at text, is_public integer)
    language sql stable
    set enable_seqscan = off
    as $$ select s.id, s.created_at, s.is_public from supercurations s where s.search_doc @@ q $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop function directory_hits(tsquery)`.execute(db);
}
