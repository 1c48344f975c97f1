import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { hashPassword } from 'better-auth/crypto';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { DEFAULT_TOPIC_NAMES, FORMATS, TOPIC_PALETTE } from '../shared/domain';
import type { Db } from '../server/db';
import { rowidInBlock } from '../server/db/link-rowids';
import { LINK_COLUMNS } from '../server/services/links';
import { topicIdFor } from '../server/services/topics';

/** Every seeded user signs in with this password. */
export const SEED_PASSWORD = 'bench-password-1234';

/** The e-mail of the i-th seeded user (0-based). */
export const seedEmail = (i: number) => `bench-user-${i}@bench.test`;

/** Better Auth's credential account row; not part of our schema type (server/db/schema.ts). */
type AccountTable = {
  account: {
    id: string;
    accountId: string;
    providerId: string;
    userId: string;
    password: string;
    createdAt: string;
    updatedAt: string;
  };
};

const BATCH = 500;

/**
 * Inserts `count` users with a credential account and a profile straight into the database,
 * as Better Auth's sign-up would leave them. The password is hashed once (scrypt is slow by
 * design) and the hash shared by every user. Returns the time taken in milliseconds.
 */
export async function seedUsers(db: Db, count: number): Promise<number> {
  const started = performance.now();
  const hash = await hashPassword(SEED_PASSWORD);
  const kysely = db.kysely.withTables<AccountTable>();
  // better-sqlite3 binds no booleans; Better Auth stores them as 0/1 there.
  const emailVerified = db.dialect === 'sqlite' ? 0 : false;

  for (let start = 0; start < count; start += BATCH) {
    const now = new Date().toISOString();
    const ids = Array.from({ length: Math.min(BATCH, count - start) }, () => randomUUID());
    await kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('user')
        .values(
          ids.map((id, k) => ({
            id,
            name: `Bench User ${start + k}`,
            email: seedEmail(start + k),
            emailVerified,
            image: null,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .execute();
      await trx
        .insertInto('account')
        .values(
          ids.map((id) => ({
            id: randomUUID(),
            accountId: id,
            providerId: 'credential',
            userId: id,
            password: hash,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .execute();
      await trx
        .insertInto('profiles')
        .values(ids.map((id) => ({ user_id: id, updated_at: now })))
        .execute();
    });
  }
  return performance.now() - started;
}

// ---------------------------------------------------------------------------------------------
// Links at scale: links, their topics and likes, and every user's 20 default topics.

/**
 * The id of the i-th seeded link: 24 hex digits like the server's own (randomBytes(12)), scattered
 * over the key space as random ids are, and unique because the first 8 digits are a bijection of i.
 */
export function seedLinkId(i: number): string {
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return hex(mix32(i ^ 0x5bd1e995)) + hex(mix32(i + 0x68e31da4)) + hex(mix32(i * 3 + 0x1b873593));
}

/** murmur3's finaliser: a bijection on 32-bit integers. */
function mix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A small seeded PRNG (mulberry32), so SQLite and PostgreSQL get the same data set. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n) };
}

/**
 * The heavy users: the first 1% of seeded users (at least one) share 20% of all links, about
 * 2,000 links each at the defaults, so a feed 50 pages deep exists. Everyone else has ~80.
 */
export const heavyUserCount = (users: number) => Math.max(1, Math.round(users / 100));
const HEAVY_SHARE = 0.2;
const FORMAT_SHARE = 0.2;
const REPOST_SHARE = 0.05;
const NOT_IN_MAIN_FEED_SHARE = 0.02;
const THUMBNAIL_SHARE = 0.5;
const DAY_MS = 24 * 3600_000;
const SPAN_MS = 365 * DAY_MS;
const CHUNK = 20_000;

const WORDS = (
  'open source web browser curated links future work productivity design podcast video newsletter ' +
  'machine learning privacy startup growth product market social media silicon valley retail china ' +
  'neuroscience creator economy tourism strategy innovation tools tutorial developer platform data'
).split(' ');

function words(rand: ReturnType<typeof prng>, n: number): string {
  return Array.from({ length: n }, () => WORDS[rand.int(WORDS.length)]).join(' ');
}

export interface LinkSeedResult {
  ms: number;
  /** Time of each phase, in milliseconds. */
  phases: Record<string, number>;
  links: number;
  reposts: number;
  likes: number;
  linkTopics: number;
  topics: number;
  heavyUsers: number;
}

/** A bulk writer: rows of one table, in the columns given, as fast as the dialect allows. */
interface Bulk {
  insert(table: string, columns: readonly string[], rows: unknown[][]): Promise<void>;
  /** Runs `fn` in one transaction. */
  transaction(fn: () => Promise<void>): Promise<void>;
  /** The secondary indexes of `tables` (not those of primary keys or constraints): dropped now, recreated by the function returned. */
  dropIndexes(tables: readonly string[]): Promise<() => Promise<void>>;
  /** links.reposts_count = count for each [id, count]. */
  setRepostCounts(pairs: [string, number][]): Promise<void>;
  analyze(): Promise<void>;
  userIds(): Promise<Map<number, string>>;
  /** SQLite: each seeded user's `user` rowid, whose block their links' rowids are in (server/db/link-rowids.ts); PostgreSQL: null. */
  userRowids(): Promise<Map<number, number> | null>;
  close(): Promise<void>;
}

const SEEDED_TABLES = ['topics', 'links', 'link_topics', 'likes'] as const;
const INT_COLUMNS = new Set(['is_original_content', 'in_main_feed', 'likes_count', 'reposts_count']);

const emailIndex = (email: string) => Number(/^bench-user-(\d+)@/.exec(email)?.[1] ?? NaN);

/** SQLite: our own better-sqlite3 connection to the server's file, multi-row prepared inserts. */
function sqliteBulk(file: string): Bulk {
  const conn = new SQLite(file);
  conn.pragma('journal_mode = WAL');
  conn.pragma('synchronous = OFF');
  conn.pragma('foreign_keys = OFF'); // consistent by construction; checking 4 M rows costs minutes
  conn.pragma('cache_size = -1048576'); // 1 GB: the random-key primary key b-trees stay in memory
  conn.pragma('temp_store = MEMORY');
  const statements = new Map<string, SQLite.Statement>();
  const statement = (table: string, columns: readonly string[], rows: number) => {
    const key = `${table} ${rows}`;
    let s = statements.get(key);
    if (!s) {
      const tuple = `(${columns.map(() => '?').join(', ')})`;
      s = conn.prepare(`insert into "${table}" (${columns.join(', ')}) values ${Array(rows).fill(tuple).join(', ')}`);
      statements.set(key, s);
    }
    return s;
  };
  return {
    async insert(table, columns, rows) {
      const per = Math.max(1, Math.min(500, Math.floor(32_000 / columns.length)));
      let i = 0;
      for (; i + per <= rows.length; i += per) statement(table, columns, per).run(rows.slice(i, i + per).flat());
      for (; i < rows.length; i++) statement(table, columns, 1).run(rows[i]);
    },
    async transaction(fn) {
      conn.exec('begin');
      try {
        await fn();
        conn.exec('commit');
      } catch (err) {
        conn.exec('rollback');
        throw err;
      }
    },
    async dropIndexes(tables) {
      const indexes = conn
        .prepare(
          `select name, sql from sqlite_master where type = 'index' and sql is not null
           and tbl_name in (${tables.map(() => '?').join(', ')})`,
        )
        .all(...tables) as { name: string; sql: string }[];
      for (const { name } of indexes) conn.exec(`drop index "${name}"`);
      return async () => {
        for (const { sql } of indexes) conn.exec(sql);
      };
    },
    async setRepostCounts(pairs) {
      const update = conn.prepare('update links set reposts_count = ? where id = ?');
      conn.transaction(() => {
        for (const [id, count] of pairs) update.run(count, id);
      })();
    },
    async analyze() {
      conn.exec('analyze');
      conn.pragma('wal_checkpoint(TRUNCATE)');
    },
    async userIds() {
      const rows = conn.prepare('select id, email from "user"').all() as { id: string; email: string }[];
      return new Map(rows.map((r) => [emailIndex(r.email), r.id]));
    },
    async userRowids() {
      const rows = conn.prepare('select rowid as r, email from "user"').all() as { r: number; email: string }[];
      return new Map(rows.map((r) => [emailIndex(r.email), r.r]));
    },
    async close() {
      conn.close();
    },
  };
}

/** PostgreSQL: one client; each batch is one `insert ... select * from unnest($1::text[], ...)`. */
async function postgresBulk(url: string): Promise<Bulk> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("set maintenance_work_mem = '512MB'");
  await client.query('set synchronous_commit = off');
  try {
    // Skips the foreign-key triggers (superuser only): the data is consistent by construction.
    await client.query('set session_replication_role = replica');
  } catch {
    // not a superuser: foreign keys are checked row by row, which is slower but fine
  }
  return {
    async insert(table, columns, rows) {
      for (let start = 0; start < rows.length; start += 10_000) {
        const batch = rows.slice(start, start + 10_000);
        const arrays = columns.map((_, c) => batch.map((r) => r[c]));
        const casts = columns.map((col, c) => `$${c + 1}::${INT_COLUMNS.has(col) ? 'int' : 'text'}[]`);
        await client.query(
          `insert into "${table}" (${columns.join(', ')}) select * from unnest(${casts.join(', ')})`,
          arrays,
        );
      }
    },
    async transaction(fn) {
      await client.query('begin');
      try {
        await fn();
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw err;
      }
    },
    async dropIndexes(tables) {
      const { rows } = await client.query<{ name: string; def: string }>(
        `select c.relname as name, pg_get_indexdef(x.indexrelid) as def
           from pg_index x join pg_class c on c.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
          where t.relname = any($1) and t.relnamespace = current_schema()::regnamespace
            and not exists (select 1 from pg_constraint k where k.conindid = x.indexrelid)`,
        [tables],
      );
      for (const { name } of rows) await client.query(`drop index "${name}"`);
      return async () => {
        for (const { def } of rows) await client.query(def);
      };
    },
    async setRepostCounts(pairs) {
      await client.query(
        `update links set reposts_count = v.n
           from unnest($1::text[], $2::int[]) as v(id, n) where links.id = v.id`,
        [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
      );
    },
    async analyze() {
      // VACUUM too: autovacuum may be off, and without the visibility map index-only scans
      // visit the heap; this is the state a long-lived database settles in.
      for (const table of SEEDED_TABLES) await client.query(`vacuum (analyze) "${table}"`);
      await client.query('analyze "user"');
      await client.query('analyze profiles');
    },
    async userIds() {
      const { rows } = await client.query<{ id: string; email: string }>('select id, email from "user"');
      return new Map(rows.map((r) => [emailIndex(r.email), r.id]));
    },
    async userRowids() {
      return null;
    },
    async close() {
      await client.end();
    },
  };
}

/**
 * Seeds `count` links over the `users` seeded users (seedUsers first), straight into the
 * database and with no server running:
 * - every user gets the 20 default topics (as seedDefaultTopics gives them), in bulk;
 * - links are created over the last year (ISO text), oldest first, 20% of them by the heavy
 *   users; ~20% have a format, ~50% a thumbnail, ~2% are out of the main feed;
 * - ~5% are reposts of an older link of someone else (a user reposts a link once), which copy
 *   the original and raise its reposts_count;
 * - 1 or 2 topics per link (a few topics are much more popular), ~2 likes per link on average
 *   with a long tail of popular links, likes_count equal to the like rows.
 * The secondary indexes are dropped during the load and rebuilt after it; then ANALYZE.
 */
export async function seedLinks(
  target: { databaseUrl?: string; dataDir: string; sqliteFile?: string },
  users: number,
  count: number,
): Promise<LinkSeedResult> {
  const started = performance.now();
  const phases: Record<string, number> = {};
  let mark = started;
  const phase = (name: string) => {
    const t = performance.now();
    phases[name] = t - mark;
    mark = t;
  };
  const bulk = target.databaseUrl
    ? await postgresBulk(target.databaseUrl)
    : sqliteBulk(path.join(target.dataDir, target.sqliteFile ?? 'supercurate.db'));
  try {
    const ids = await bulk.userIds();
    const userRowids = await bulk.userRowids();
    const linksOf = new Uint32Array(users);
    /** A new link's rowid in its author's block, as the server gives it (SQLite). */
    const rowidOf = (author: number) => {
      if (!userRowids) return [];
      linksOf[author] = (linksOf[author] as number) + 1;
      return [rowidInBlock(userRowids.get(author) as number, linksOf[author] as number)];
    };
    const userId = (i: number) => {
      const id = ids.get(i);
      if (!id) throw new Error(`seeded user ${i} not found`);
      return id;
    };
    if (ids.size < users) throw new Error(`seedLinks needs ${users} seeded users, found ${ids.size}`);
    const recreateIndexes = await bulk.dropIndexes(SEEDED_TABLES);

    // Topics: the 20 defaults of every user, a millisecond apart in the spec's order.
    const topicIds = DEFAULT_TOPIC_NAMES.map((name) => topicIdFor(name));
    const topicStart = Date.now() - SPAN_MS - DAY_MS;
    for (let start = 0; start < users; start += 2_000) {
      const rows: unknown[][] = [];
      for (let u = start; u < Math.min(users, start + 2_000); u++) {
        DEFAULT_TOPIC_NAMES.forEach((name, k) =>
          rows.push([
            userId(u),
            topicIds[k],
            name,
            TOPIC_PALETTE[k % TOPIC_PALETTE.length],
            new Date(topicStart + k).toISOString(),
          ]),
        );
      }
      await bulk.transaction(() => bulk.insert('topics', ['user_id', 'id', 'name', 'color', 'created_at'], rows));
    }
    phase('topics');

    // Topic popularity ~ 1/(rank+1): 'Future of Work' is the most used, 'Neuroscience' the least.
    const weights = topicIds.map((_, k) => 1 / (k + 1));
    const total = weights.reduce((a, b) => a + b, 0);
    let sum = 0;
    const cumulative = weights.map((w) => (sum += w / total));
    const rand = prng(20260101);
    const pickTopic = () => {
      const r = rand.next();
      const k = cumulative.findIndex((c) => r < c);
      return k < 0 ? topicIds.length - 1 : k;
    };

    const heavy = heavyUserCount(users);
    const authorOf = new Uint32Array(count);
    const formatOf = new Uint8Array(count); // 0 = none, else FORMATS[n - 1]
    const isRepost = new Uint8Array(count);
    const repostsCount = new Uint32Array(count);
    const reposted = new Set<number>(); // user * count + original
    const now = Date.now();
    const epoch = now - SPAN_MS;
    const title = (i: number) => `${words(prng(i), 3 + (i % 5))} ${i}`;
    const description = (i: number) => words(prng(i + 7), 12 + (i % 20));
    const url = (i: number) => `https://example.com/${WORDS[i % WORDS.length]}/${i}`;
    const thumbnail = (i: number) => (mix32(i) / 4294967296 < THUMBNAIL_SHARE ? `https://img.example.com/${i}.jpg` : null);
    const isOriginal = (i: number) => (mix32(i + 1) % 10 === 0 ? 1 : 0);
    let reposts = 0;
    let likes = 0;
    let linkTopics = 0;

    for (let start = 0; start < count; start += CHUNK) {
      const end = Math.min(count, start + CHUNK);
      const links: unknown[][] = [];
      const topicRows: unknown[][] = [];
      const likeRows: unknown[][] = [];
      for (let i = start; i < end; i++) {
        const id = seedLinkId(i);
        const author = rand.next() < HEAVY_SHARE ? rand.int(heavy) : rand.int(users);
        authorOf[i] = author;
        const createdMs = epoch + ((i + rand.next()) * SPAN_MS) / count;
        const createdAt = new Date(createdMs).toISOString();
        // A repost copies an older original (never a repost) of someone else, once per user.
        let original = -1;
        if (i > 100 && rand.next() < REPOST_SHARE) {
          for (let tries = 0; tries < 10 && original < 0; tries++) {
            const j = rand.int(i);
            if (!isRepost[j] && authorOf[j] !== author && !reposted.has(author * count + j)) original = j;
          }
        }
        const source = original >= 0 ? original : i;
        if (original >= 0) {
          isRepost[i] = 1;
          repostsCount[original] = (repostsCount[original] ?? 0) + 1;
          reposted.add(author * count + original);
          reposts++;
          formatOf[i] = formatOf[original] ?? 0;
        } else {
          formatOf[i] = rand.next() < FORMAT_SHARE ? 1 + rand.int(FORMATS.length) : 0;
        }
        const format = formatOf[i] ? FORMATS[(formatOf[i] ?? 1) - 1]?.id : null;

        // Likes: ~2 a link on average (an exponential), plus a rare popular link with 100-1,000.
        let n = Math.floor(-Math.log(1 - rand.next()) * 2.3);
        if (rand.next() < 0.0005) n += 100 + rand.int(900);
        n = Math.min(n, users);
        const likers = new Set<number>();
        while (likers.size < n) likers.add(rand.int(users));
        for (const u of likers) {
          const likedMs = createdMs + rand.next() * (now - createdMs);
          likeRows.push([id, userId(u), new Date(likedMs).toISOString()]);
        }
        likes += n;

        const topicCount = rand.next() < 0.5 ? 1 : 2;
        const chosen = new Set<number>();
        while (chosen.size < topicCount) chosen.add(pickTopic());
        for (const k of chosen) topicRows.push([id, userId(author), topicIds[k]]);
        linkTopics += chosen.size;

        links.push([
          ...rowidOf(author),
          id,
          userId(author),
          url(source),
          title(source),
          description(source),
          thumbnail(source),
          'Visit Link',
          format ?? null,
          isOriginal(source),
          original >= 0 ? seedLinkId(original) : null,
          rand.next() < NOT_IN_MAIN_FEED_SHARE ? 0 : 1,
          n,
          0,
          createdAt,
          createdAt,
          null, // broken_at
          // The page's facts, about as often as the preview corpus has them (by source, not drawn:
          // the random sequence of the rest stays as it was).
          `Site ${source % 997}`,
          null, // favicon_url
          source % 10 < 7 ? `Author ${source % 5000}` : null,
          source % 20 < 13 ? createdAt : null,
          'en',
          [...chosen].map((k) => topicIds[k]).join(','),
        ]);
      }
      await bulk.transaction(async () => {
        await bulk.insert('links', userRowids ? ['rowid', ...LINK_COLUMNS] : LINK_COLUMNS, links);
        await bulk.insert('link_topics', ['link_id', 'user_id', 'topic_id'], topicRows);
        await bulk.insert('likes', ['link_id', 'user_id', 'created_at'], likeRows);
      });
    }
    phase('links, topics, likes');

    const counts: [string, number][] = [];
    repostsCount.forEach((n, i) => {
      if (n > 0) counts.push([seedLinkId(i), n]);
    });
    await bulk.setRepostCounts(counts);
    phase('reposts_count');
    await recreateIndexes();
    phase('indexes');
    await bulk.analyze();
    phase('analyze');
    return {
      ms: performance.now() - started,
      phases,
      links: count,
      reposts,
      likes,
      linkTopics,
      topics: users * DEFAULT_TOPIC_NAMES.length,
      heavyUsers: heavy,
    };
  } finally {
    await bulk.close();
  }
}
