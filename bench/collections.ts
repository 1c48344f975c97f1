/**
 * The collections section of `npm run bench`: BENCH_COLLECTIONS (100,000) collections
 * seeded straight into the database, mostly public, with word-list titles, descriptions and
 * topics, and one public collection with BENCH_COLLECTION_RESOURCES (5,000) resources. Measures
 * the public collection (its API, its resources' first page and its server-rendered HTML), the
 * directory search over all collections and adding a resource, each beside GET /api/health/live.
 *
 * Adding a resource is measured twice: all 32 connections adding to the one big collection as its
 * owner (the worst case: every add of a collection is serialised, on PostgreSQL by the collection
 * row's lock, see services/memberships.ts), and 32 curators each adding to their own collection
 * (what many people curating at once looks like). Both are reported; neither replaces the other.
 *
 * Budgets (budgets.ts): the public collection's API and HTML, the directory search and adding a resource.
 *
 * The directory index needs no work here (migrations 0004 and 0010): SQLite's FTS5 table is filled
 * by insert triggers, PostgreSQL's tsvector is a stored generated column.
 */
import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import { type Insertable, sql } from 'kysely';
import { DEFAULT_TOPIC_NAMES, TOPIC_PALETTE } from '../shared/domain';
import type { Db } from '../server/db';
import { directoryMergeDue, mergeDirectorySegments } from '../server/db/directory-index';
import type { Database } from '../server/db/schema';
import { storeCollectionTopics } from '../server/services/collection-topics';
import { topicIdFor } from '../server/services/topics';
import { BUDGETS } from './budgets';
import { type CpuProbe, type Load, type MeasuredRoute, type NamedLoad, loadAverages, measureRoutes, pool, printRoutes } from './common';
import { seedEmail } from './seed';

/** Search words; the first ones are common in titles and descriptions, the last ones rare. */
export const COLLECTION_WORDS = (
  'design research climate history startup music writing science travel cooking health finance ' +
  'education photography architecture gardening philosophy economics psychology poetry cinema ' +
  'javascript typescript database security privacy robotics astronomy biology chemistry physics ' +
  'football chess painting sculpture fashion podcasts newsletters documentaries interviews essays ' +
  'tutorials recipes maps datasets archives manuscripts typography calligraphy origami beekeeping'
).split(' ');

/** Words measured in the directory search: frequent, medium and rare ones. */
const SEARCH_WORDS = ['design', 'music', 'science', 'privacy', 'chess', 'origami', 'beekeeping', 'typography'];

/** mulberry32: the same collections on SQLite and PostgreSQL. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface CollectionsPlan {
  ownerEmail: string;
  id: string;
  slug: string;
  /** Curators (seeded users 1…SPREAD_CURATORS) and one collection of each, for the spread adds. */
  curators: { email: string; id: string }[];
  collections: number;
  resources: number;
  ms: number;
}

const BATCH = 500;
const PUBLIC_SHARE = 0.9;
const OWNERS = 1_000;
const SPREAD_CURATORS = 32;
const DAY_MS = 86_400_000;

/** Inserts rows in batches (SQLite binds at most 32,766 values a statement). */
async function insertBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}

/**
 * Seeds `count` collections over the first OWNERS seeded users (with their default topics, which
 * collection topics reference) and one public collection of `resources` links owned by user 0.
 * Before the server starts.
 */
export async function seedCollections(db: Db, users: number, count: number, resources: number): Promise<CollectionsPlan> {
  const started = performance.now();
  const k = db.kysely;
  const rand = prng(4_2026);
  const pick = () => COLLECTION_WORDS[Math.floor(Math.pow(rand(), 2) * COLLECTION_WORDS.length)] ?? 'design';
  const phrase = (n: number) => Array.from({ length: n }, pick).join(' ');

  const owners = Math.min(OWNERS, users);
  const ownerIds: string[] = [];
  for (let i = 0; i < owners; i++) {
    const row = await k.selectFrom('user').select('id').where('email', '=', seedEmail(i)).executeTakeFirstOrThrow();
    ownerIds.push(row.id);
  }
  const topicIds = DEFAULT_TOPIC_NAMES.map((name) => topicIdFor(name));
  const created = new Date(Date.now() - 400 * DAY_MS).toISOString();
  const topicRows = ownerIds.flatMap((user_id) =>
    DEFAULT_TOPIC_NAMES.map((name, t) => ({
      user_id,
      id: topicIds[t] ?? '',
      name,
      color: TOPIC_PALETTE[t % TOPIC_PALETTE.length] ?? '#000000',
      created_at: created,
    })),
  );
  await k.transaction().execute((trx) =>
    insertBatches(topicRows, (b) =>
      trx
        .insertInto('topics')
        .values(b)
        .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
        .execute(),
    ),
  );

  const now = Date.now();
  const CHUNK = 10_000;
  const curators: CollectionsPlan['curators'] = [];
  for (let start = 0; start < count; start += CHUNK) {
    const collections: Insertable<Database['supercurations']>[] = [];
    const topics: Insertable<Database['supercuration_topics']>[] = [];
    for (let i = start; i < Math.min(count, start + CHUNK); i++) {
      const id = randomBytes(12).toString('hex');
      const owner = ownerIds[i % owners] ?? '';
      const isPublic = rand() < PUBLIC_SHARE ? 1 : 0;
      // Collection i < owners is user i's first: users 1…SPREAD_CURATORS curate one each.
      if (i >= 1 && i <= SPREAD_CURATORS && i < owners) curators.push({ email: seedEmail(i), id });
      const at = new Date(now - 365 * DAY_MS + (i * 365 * DAY_MS) / count).toISOString();
      collections.push({
        id,
        user_id: owner,
        title: `${phrase(2 + Math.floor(rand() * 4))} ${i}`,
        description: phrase(8 + Math.floor(rand() * 20)),
        thumbnail_url: null,
        is_public: isPublic,
        slug: isPublic ? `bench-collection-${i}` : null,
        links_count: 0,
        created_at: at,
        updated_at: at,
      });
      const first = Math.floor(rand() * topicIds.length);
      const n = 1 + Math.floor(rand() * 3);
      for (let t = 0; t < n; t++) {
        topics.push({ supercuration_id: id, user_id: owner, topic_id: topicIds[(first + t * 7) % topicIds.length] ?? '' });
      }
    }
    await k.transaction().execute(async (trx) => {
      await insertBatches(collections, (b) => trx.insertInto('supercurations').values(b).execute());
      await insertBatches(topics, (b) => trx.insertInto('supercuration_topics').values(b).execute());
      await insertBatches(collections, (b) => storeCollectionTopics(trx, b.map((c) => c.id)));
    });
  }

  // The big public collection: user 0's, newest of all, `resources` links added over 90 days.
  const owner = ownerIds[0] ?? '';
  const id = randomBytes(12).toString('hex');
  const slug = 'bench-big-collection';
  const at = new Date(now).toISOString();
  const links: Insertable<Database['links']>[] = [];
  const members: Insertable<Database['supercuration_links']>[] = [];
  for (let i = 0; i < resources; i++) {
    const linkId = randomBytes(12).toString('hex');
    const linkAt = new Date(now - 90 * DAY_MS + (i * 90 * DAY_MS) / resources).toISOString();
    links.push({
      id: linkId,
      user_id: owner,
      url: `https://example.org/bench-collection/${i}`,
      title: `${phrase(4)} ${i}`,
      description: phrase(15),
      thumbnail_url: i % 2 ? `https://img.example.org/${i}.jpg` : null,
      link_text: 'Visit Link',
      format: null,
      is_original_content: 0,
      original_post_id: null,
      in_main_feed: 1,
      likes_count: 0,
      reposts_count: 0,
      created_at: linkAt,
      updated_at: linkAt,
    });
    members.push({ supercuration_id: id, link_id: linkId, added_by: owner, created_at: linkAt });
  }
  await k.transaction().execute(async (trx) => {
    await trx
      .insertInto('supercurations')
      .values({
        id,
        user_id: owner,
        title: 'Design research bench collection',
        description: 'A public collection with many resources',
        thumbnail_url: null,
        is_public: 1,
        slug,
        links_count: resources,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await insertBatches(links, (b) => trx.insertInto('links').values(b).execute());
    await insertBatches(members, (b) => trx.insertInto('supercuration_links').values(b).execute());
  });
  if (db.dialect === 'postgres') {
    for (const t of ['supercurations', 'supercuration_topics', 'links', 'supercuration_links', 'topics']) {
      // Vacuumed too (as the links seed does), so insert-triggered autovacuum of these fresh rows
      // doesn't run, and count as PostgreSQL CPU, during the first measured routes.
      await sql`vacuum (analyze) ${sql.table(t)}`.execute(k);
    }
  } else {
    // What the server's background merge does first when it starts (search-index-merger.ts), done
    // here so that it doesn't run, and count as server CPU, during the first measured routes.
    let merging = await directoryMergeDue(k);
    while (merging) merging = await mergeDirectorySegments(k);
    await sql`analyze`.execute(k);
  }
  return { ownerEmail: seedEmail(0), id, slug, curators, collections: count + 1, resources, ms: performance.now() - started };
}

export interface CollectionsResult {
  connections: number;
  durationS: number;
  /** The plan, with the number of curators of the spread adds (not each one). */
  plan: Omit<CollectionsPlan, 'curators'> & { curators: number };
  /** Directory hits (first page, up to 24) per search word, to show the words vary. */
  searchHits: Record<string, number>;
  routes: MeasuredRoute[];
}

interface Options {
  baseUrl: string;
  origin: string;
  plan: CollectionsPlan;
  connections: number;
  durationS: number;
  cpu: CpuProbe;
  signIn: (email: string) => Promise<string>;
}

export async function benchCollections(o: Options): Promise<CollectionsResult> {
  const { baseUrl, plan } = o;
  const cookie = await o.signIn(plan.ownerEmail);
  const curators = await pool(plan.curators, 4, async (c) => ({ ...c, cookie: await o.signIn(c.email) }));
  const searchHits: Record<string, number> = {};
  for (const word of SEARCH_WORDS) {
    const res = await fetch(`${baseUrl}/api/directory?q=${word}`);
    if (!res.ok) throw new Error(`GET /api/directory?q=${word}: ${res.status} ${await res.text()}`);
    searchHits[word] = ((await res.json()) as { items: unknown[] }).items.length;
  }
  const resourcesPath = `/api/supercurations/${plan.id}/resources`;
  const first = await fetch(`${baseUrl}${resourcesPath}`);
  if (!first.ok) throw new Error(`GET ${resourcesPath}: ${first.status}`);

  const trivial: Load = { url: `${baseUrl}/api/health/live`, connections: o.connections };
  const get = (path: string, verifyBody: (b: string) => boolean): Load => ({
    url: `${baseUrl}${path}`,
    connections: o.connections,
    verifyBody,
  });
  let added = 0;
  const run = randomBytes(3).toString('hex');
  /** POST a new link as a resource of `collection`, as the user of `cookie`. */
  const addRequest = (req: autocannon.Request, collection: string, cookie: string): autocannon.Request => {
    const n = added++;
    return {
      ...req,
      method: 'POST',
      path: `/api/supercurations/${collection}/resources`,
      headers: { ...req.headers, cookie, origin: o.origin, 'content-type': 'application/json' },
      body: JSON.stringify({
        link: {
          url: `https://example.net/bench-${run}/${n}`,
          title: `Bench resource ${n}`,
          description: 'Added by the collections bench',
        },
      }),
    };
  };
  const routes: NamedLoad[] = [
    {
      name: 'Public collection (GET /api/supercurations/public/:slug)',
      budget: BUDGETS.publicApi,
      load: get(`/api/supercurations/public/${plan.slug}`, (b) => b.includes(`"id":"${plan.id}"`)),
    },
    {
      name: `Resources, first page (of ${plan.resources.toLocaleString('en-US')}, anonymous)`,
      budget: BUDGETS.publicApi,
      load: get(resourcesPath, (b) => b.startsWith('{"items":[{')),
    },
    {
      name: 'Public page HTML (GET /supercurations/public/:slug)',
      budget: BUDGETS.publicHtml,
      load: get(`/supercurations/public/${plan.slug}`, (b) => b.includes('Design research bench collection')),
    },
    {
      // As a browser asks for it: the server render's page, compressed (the body is brotli, so only its presence is checked).
      name: 'Public page HTML, Accept-Encoding: br, gzip',
      load: { ...get(`/supercurations/public/${plan.slug}`, (b) => b.length > 0), headers: { 'accept-encoding': 'br, gzip' } },
    },
    {
      name: `Directory search (?q=, ${SEARCH_WORDS.length} words)`,
      budget: BUDGETS.directory,
      load: {
        url: baseUrl,
        connections: o.connections,
        verifyBody: (b) => b.startsWith('{"items":'),
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          method: 'GET',
          path: `/api/directory?q=${SEARCH_WORDS[Math.floor(Math.random() * SEARCH_WORDS.length)]}`,
        }),
      },
    },
    {
      name: 'Add resource, one collection (POST /api/supercurations/:id/resources)',
      budget: BUDGETS.write,
      load: {
        url: baseUrl,
        connections: o.connections,
        verifyBody: (b) => b.includes('"id":'),
        setupRequest: (req: autocannon.Request) => addRequest(req, plan.id, cookie),
      },
    },
    ...(curators.length > 0
      ? [
          {
            name: `Add resource, ${curators.length} curators each to their own collection`,
            budget: BUDGETS.write,
            load: {
              url: baseUrl,
              connections: o.connections,
              verifyBody: (b: string) => b.includes('"id":'),
              setupRequest: (req: autocannon.Request) => {
                const c = curators[added % curators.length] as (typeof curators)[number];
                return addRequest(req, c.id, c.cookie);
              },
            },
          },
        ]
      : []),
  ];

  console.log(
    `Measuring collections: ${o.connections} connections, 1 s warm-up + ${o.durationS} s per route, ` +
      `each right after GET /api/health/live (load average ${loadAverages()})...`,
  );
  const results = await measureRoutes(trivial, routes, o.durationS, o.cpu);
  return {
    connections: o.connections,
    durationS: o.durationS,
    plan: { ...plan, curators: plan.curators.length },
    searchHits,
    routes: results,
  };
}

export function printCollections(r: CollectionsResult): void {
  printRoutes(`Collections, ${r.connections} connections`, r.routes);
  console.log(
    `${r.plan.collections.toLocaleString('en-US')} collections (~${100 * PUBLIC_SHARE}% public) seeded in ` +
      `${(r.plan.ms / 1000).toFixed(1)} s; the measured one has ${r.plan.resources.toLocaleString('en-US')} resources. ` +
      `Directory first-page hits per word: ${Object.entries(r.searchHits)
        .map(([w, n]) => `${w} ${n}`)
        .join(', ')}. ` +
      "'mismatch' counts 2xx responses without the expected body.",
  );
}
