/**
 * The search section of `npm run bench` (issue 23): after the links section's seed (BENCH_LINKS,
 * 1,000,000 by default), 10% of the links get a readable copy of ~1,500 synthetic words (a
 * vocabulary of 20,000 made-up words, drawn by Zipf's law as real text is), the search index is
 * built as migration 0022 builds it (reindexAllLinks, in one transaction), and its size on disk
 * is read. Then heavy users (about 2,000 links each) search: a rare word, a common word, two words,
 * a phrase, a word with an exclusion and a title word, in turn. Budget: server plus database CPU ≤ 3 ms per search, p99 ≤ 50 ms
 * at 50 searches a second (open loop).
 */
import { gzipSync } from 'node:zlib';
import type autocannon from 'autocannon';
import { sql } from 'kysely';
import type { Db } from '../server/db';
import { mergeSearchSegments, reindexAllLinks } from '../server/db/link-search';
import { isPostgres } from '../server/db/query-templates';
import { BUDGETS } from './budgets';
import { type CpuProbe, type Load, type MeasuredRoute, type NamedLoad, intEnv, mb, measureRoutes, pool, printRoutes } from './common';
import { heavyUserCount, prng, seedEmail } from './seed';

const COPY_SHARE = 0.1;
const COPY_WORDS = intEnv('BENCH_COPY_WORDS', 1_500);
const VOCABULARY = 20_000;
const SEARCHERS = 8;
const BATCH = 500;

/** The i-th made-up word: syllables, so it tokenises as one word and reads like one. */
function wordOf(i: number): string {
  const syllables = ['ka', 'lo', 'mi', 'ten', 'ra', 'sul', 'ver', 'no', 'chi', 'dra', 'pel', 'qua', 'zor', 'fin', 'gu', 'bex'];
  let n = i + 17;
  let w = '';
  do {
    w += syllables[n % syllables.length];
    n = Math.floor(n / syllables.length);
  } while (n > 0);
  return w;
}

/** Word ranks drawn by Zipf's law (s = 1): rank r with probability ∝ 1/r. */
function zipf(rand: ReturnType<typeof prng>) {
  const cumulative = new Float64Array(VOCABULARY);
  let sum = 0;
  for (let r = 0; r < VOCABULARY; r++) cumulative[r] = sum += 1 / (r + 1);
  return () => {
    const x = rand.next() * sum;
    let lo = 0;
    let hi = VOCABULARY - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface SearchPlan {
  copies: number;
  copySeedMs: number;
  indexMs: number;
  /** Merging the build's segments afterwards (SQLite): total, steps (transactions), the longest. */
  merge: { ms: number; steps: number; longestMs: number };
  indexBytes: number;
  searcherEmails: string[];
  queries: { name: string; q: string }[];
}

/** Readable copies for 10% of the links, then the whole index, as an install's migration builds it. */
export async function seedSearch(db: Db, users: number): Promise<SearchPlan> {
  const started = performance.now();
  const rand = prng(23);
  const draw = zipf(rand);
  const k = db.kysely;
  const total = Number((await k.selectFrom('links').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  let copies = 0;
  let after = '';
  for (;;) {
    const rows = await k.selectFrom('links').select(['id', 'url']).where('id', '>', after).where('url', 'is not', null).orderBy('id').limit(BATCH * 10).execute();
    if (rows.length === 0) break;
    after = rows[rows.length - 1]?.id as string;
    const chosen = rows.filter(() => rand.next() < COPY_SHARE);
    for (let i = 0; i < chosen.length; i += BATCH) {
      const values = chosen.slice(i, i + BATCH).map((r) => {
        const paragraphs: string[] = [];
        for (let p = 0; p < COPY_WORDS; p += 100) paragraphs.push(Array.from({ length: Math.min(100, COPY_WORDS - p) }, () => wordOf(draw())).join(' '));
        const text = paragraphs.join('\n');
        return {
          link_id: r.id,
          host: new URL(r.url as string).hostname,
          queue: 0,
          source: 'server',
          html_gz: gzipSync(paragraphs.map((p) => `<p>${p}</p>`).join('')),
          text_gz: gzipSync(text),
          word_count: COPY_WORDS,
          lang: 'en',
          captured_at: new Date().toISOString(),
        };
      });
      await k.insertInto('link_copies').values(values).execute();
      copies += values.length;
    }
  }
  const copySeedMs = performance.now() - started;
  console.log(`${copies.toLocaleString('en-US')} readable copies of ${COPY_WORDS} words for ${total.toLocaleString('en-US')} links in ${(copySeedMs / 1000).toFixed(1)} s; building the search index...`);
  // The copies' pages out of the WAL first: an install migrates a database at rest, and every page
  // read in the build's transaction otherwise looks through a WAL of GBs (walFindFrame).
  if (!isPostgres(k)) {
    const [checkpoint] = (await sql<{ busy: number; log: number; checkpointed: number }>`pragma wal_checkpoint(truncate)`.execute(k)).rows;
    if (checkpoint?.busy) console.log(`WAL checkpoint blocked: ${checkpoint.checkpointed} of ${checkpoint.log} frames copied`);
  }
  const indexStarted = performance.now();
  await k.transaction().execute((trx) => reindexAllLinks(trx));
  const indexMs = performance.now() - indexStarted;
  // SQLite: the build's segments merged as the server's background worker merges them, step by step.
  const merge = { ms: 0, steps: 0, longestMs: 0 };
  for (let more = true; more; ) {
    const t0 = performance.now();
    more = await mergeSearchSegments(k);
    const ms = performance.now() - t0;
    merge.ms += ms;
    merge.steps += 1;
    merge.longestMs = Math.max(merge.longestMs, ms);
  }
  const indexBytes = isPostgres(k)
    ? Number((await sql<{ n: string }>`select pg_total_relation_size('link_search') as n`.execute(k)).rows[0]?.n ?? 0)
    : Number((await sql<{ n: number }>`select sum(pgsize) as n from dbstat where name like 'link_search%'`.execute(k)).rows[0]?.n ?? 0);
  if (isPostgres(k)) await sql`analyze link_search`.execute(k);
  const heavy = Math.min(SEARCHERS, heavyUserCount(users));
  return {
    copies,
    copySeedMs,
    indexMs,
    merge,
    indexBytes,
    searcherEmails: Array.from({ length: heavy }, (_, i) => seedEmail(i)),
    queries: [
      // Ranks: 0 is in nearly every copy, 5,000 in a few hundred, 19,000 in a handful.
      { name: 'rare word', q: wordOf(19_000) },
      { name: 'common word', q: wordOf(3) },
      { name: 'two words', q: `${wordOf(40)} ${wordOf(900)}` },
      { name: 'phrase', q: `"${wordOf(0)} ${wordOf(1)}"` },
      { name: 'word -exclusion', q: `${wordOf(200)} -${wordOf(5)}` },
      // A title word of the links seed: matches by title across every user's links.
      { name: 'title word', q: 'design' },
    ],
  };
}

export interface SearchResult {
  copies: number;
  copySeedMs: number;
  indexMs: number;
  merge: SearchPlan['merge'];
  indexBytes: number;
  hits: Record<string, number>;
  routes: MeasuredRoute[];
}

interface Options {
  baseUrl: string;
  origin: string;
  connections: number;
  durationS: number;
  cpu: CpuProbe;
  signIn: (email: string) => Promise<string>;
  plan: SearchPlan;
}

export async function benchSearch(o: Options): Promise<SearchResult> {
  const cookies = await pool(o.plan.searcherEmails, 4, o.signIn);
  const hits: Record<string, number> = {};
  for (const { name, q } of o.plan.queries) {
    const res = await fetch(`${o.baseUrl}/api/search?q=${encodeURIComponent(q)}`, { headers: { cookie: cookies[0] as string } });
    if (!res.ok) throw new Error(`GET /api/search?q=${q}: ${res.status} ${await res.text()}`);
    hits[name] = ((await res.json()) as { items: unknown[] }).items.length;
  }
  const trivial: Load = { url: `${o.baseUrl}/api/health/live`, connections: o.connections };
  let n = 0;
  /** Each request: the next searcher, and the next query of the route's list. */
  const searching = (queries: readonly string[]): Load => ({
    url: o.baseUrl,
    connections: o.connections,
    verifyBody: (b) => b.startsWith('{"items":'),
    setupRequest: (req: autocannon.Request) => {
      const i = n++;
      return {
        ...req,
        path: `/api/search?q=${encodeURIComponent(queries[i % queries.length] as string)}`,
        headers: { ...req.headers, cookie: cookies[i % cookies.length] as string },
      };
    },
  });
  const routes: NamedLoad[] = [
    { name: `Search, the ${o.plan.queries.length} queries in turn (GET /api/search)`, budget: BUDGETS.search, load: searching(o.plan.queries.map((x) => x.q)) },
    ...o.plan.queries.map((x) => ({ name: `Search: ${x.name} (${x.q})`, load: searching([x.q]) })),
  ];
  return {
    copies: o.plan.copies,
    copySeedMs: o.plan.copySeedMs,
    indexMs: o.plan.indexMs,
    merge: o.plan.merge,
    indexBytes: o.plan.indexBytes,
    hits,
    routes: await measureRoutes(trivial, routes, o.durationS, o.cpu),
  };
}

/** SQLite's background merge of the build's segments, when there was one. */
export const mergeNote = (m: SearchPlan['merge']) =>
  m.steps > 1 ? `, its segments merged in ${(m.ms / 1000).toFixed(1)} s more (${m.steps.toLocaleString('en-US')} steps, the longest ${m.longestMs.toFixed(0)} ms)` : '';

export function printSearch(r: SearchResult): void {
  console.log(
    `Search index: ${r.copies.toLocaleString('en-US')} readable copies; built in ${(r.indexMs / 1000).toFixed(1)} s${mergeNote(r.merge)}; ` +
      `${mb(r.indexBytes / 1024 / 1024)} on disk. First-page hits: ${Object.entries(r.hits).map(([k, v]) => `${k} ${v}`).join(', ')}`,
  );
  printRoutes('Personal search', r.routes);
}
