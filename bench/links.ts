/**
 * The links section of `npm run bench`: My Feed pages, the 'most liked' sort, a
 * format + topic filtered page and like toggles against the seeded links (seedLinks), each
 * beside GET /api/health/live measured in the same run at the same concurrency.
 *
 * Budgets (budgets.ts): the feed pages are BUDGETS.feed's routes, the like toggle a write.
 */
import { randomInt } from 'node:crypto';
import type autocannon from 'autocannon';
import { sql } from 'kysely';
import type { Db } from '../server/db';
import { BUDGETS } from './budgets';
import { type CpuProbe, type Load, type MeasuredRoute, type NamedLoad, loadAverages, measureRoutes, pool, printRoutes } from './common';
import { heavyUserCount, seedEmail } from './seed';

interface Filter {
  format: string;
  topic: string;
  /** How many of the user's main-feed links match. */
  matches: number;
}

interface PoolUser {
  index: number;
  id: string;
  /** Links in the user's main feed. */
  links: number;
  /** The user's commonest format + topic pair, so the filtered page is not empty. */
  filter: Filter | null;
}

export interface LinksPlan {
  /** Typical users (not heavy), drawn at random. */
  typical: PoolUser[];
  /** Heavy users (seed.ts: ~2,000 links each at the defaults), for the deep page. */
  heavy: PoolUser[];
}

/** Picks the users to sign in and, from the database, a filter with results for each. Before the server starts. */
export async function planLinksBench(db: Db, users: number, typicalCount: number, heavyCount: number): Promise<LinksPlan> {
  const heavyUsers = heavyUserCount(users);
  const typical = new Set<number>();
  const wanted = Math.min(typicalCount, users - heavyUsers);
  while (typical.size < wanted) typical.add(heavyUsers + randomInt(users - heavyUsers));
  const heavy = Array.from({ length: Math.min(heavyCount, heavyUsers) }, (_, i) => i);

  const load = async (indexes: number[]): Promise<PoolUser[]> => {
    const out: PoolUser[] = [];
    for (const index of indexes) {
      const user = await db.kysely
        .selectFrom('user')
        .select('id')
        .where('email', '=', seedEmail(index))
        .executeTakeFirstOrThrow();
      const { n } = await db.kysely
        .selectFrom('links')
        .select(sql<number>`count(*)`.as('n'))
        .where('user_id', '=', user.id)
        .where('in_main_feed', '=', 1)
        .executeTakeFirstOrThrow();
      const top = await db.kysely
        .selectFrom('links as l')
        .innerJoin('link_topics as lt', 'lt.link_id', 'l.id')
        .select(['l.format', 'lt.topic_id', sql<number>`count(*)`.as('n')])
        .where('l.user_id', '=', user.id)
        .where('l.in_main_feed', '=', 1)
        .where('l.format', 'is not', null)
        .groupBy(['l.format', 'lt.topic_id'])
        .orderBy('n', 'desc')
        .limit(1)
        .executeTakeFirst();
      out.push({
        index,
        id: user.id,
        links: Number(n),
        filter: top?.format ? { format: top.format, topic: top.topic_id, matches: Number(top.n) } : null,
      });
    }
    return out;
  };
  return { typical: await load([...typical]), heavy: await load(heavy) };
}

export interface LinksResult {
  connections: number;
  durationS: number;
  typicalUsers: number;
  heavyUsers: number;
  deepPage: number;
  feedLinksMedian: { typical: number; heavy: number };
  filterMatches: { typicalMedian: number; heavyMedian: number };
  routes: MeasuredRoute[];
}

interface Options {
  baseUrl: string;
  origin: string;
  plan: LinksPlan;
  connections: number;
  durationS: number;
  /** How many pages to follow before hammering the cursor reached. */
  deepPages: number;
  cpu: CpuProbe;
  signIn: (email: string) => Promise<string>;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const nonEmptyPage = (body: string) => body.startsWith('{"items":[{');
const likeState = (body: string) => body.includes('"liked":');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

interface Page {
  items: unknown[];
  nextCursor: string | null;
  hasMore: boolean;
}

async function getPage(baseUrl: string, path: string, cookie: string): Promise<Page> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { cookie } });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Page;
}

const feedPath = (params: Record<string, string>) => `/api/links?${new URLSearchParams({ scope: 'mine', ...params })}`;

export async function benchLinks(o: Options): Promise<LinksResult> {
  const { baseUrl, plan } = o;
  console.log(
    `Signing in ${plan.typical.length} typical and ${plan.heavy.length} heavy users ` +
      `(each request of a run picks one at random)...`,
  );
  const signedIn = async (users: PoolUser[]) =>
    pool(users, 4, async (u) => ({ ...u, cookie: await o.signIn(seedEmail(u.index)) }));
  const typical = await signedIn(plan.typical);
  const heavy = await signedIn(plan.heavy);

  // Every request of a run must give a non-empty page: check each user's once first (its links' ids are kept for the like toggle).
  const withFeed = async <U extends { cookie: string }>(users: U[], path: (u: U) => string) =>
    (
      await pool(users, 4, async (u) => {
        const page = await getPage(baseUrl, path(u), u.cookie);
        return page.items.length > 0 ? { ...u, ids: page.items.map((item) => (item as { id: string }).id) } : null;
      })
    ).filter((u) => u !== null);
  const feedUsers = await withFeed(typical, () => feedPath({}));
  const typicalFiltered = await withFeed(
    typical.filter((u) => u.filter),
    (u) => feedPath({ format: u.filter?.format ?? '', topic: u.filter?.topic ?? '' }),
  );
  const heavyFiltered = await withFeed(
    heavy.filter((u) => u.filter),
    (u) => feedPath({ format: u.filter?.format ?? '', topic: u.filter?.topic ?? '' }),
  );
  if (feedUsers.length === 0) throw new Error('no signed-in user has links: seed links first');

  console.log(`Following My Feed cursors ${o.deepPages} pages deep for each heavy user...`);
  const deep = (
    await pool(heavy, 2, async (u) => {
      let cursor: string | null = null;
      let pages = 0;
      for (; pages < o.deepPages; pages++) {
        const page: Page = await getPage(baseUrl, feedPath(cursor ? { cursor } : {}), u.cookie);
        if (!page.hasMore || !page.nextCursor) break;
        cursor = page.nextCursor;
      }
      return cursor ? { cookie: u.cookie, path: feedPath({ cursor }), page: pages + 1 } : null;
    })
  ).filter((d) => d !== null);
  const deepPage = Math.min(...deep.map((d) => d.page));

  const trivial: Load = { url: `${baseUrl}/api/health/live`, connections: o.connections };
  /** A GET of a random one of `targets`, each with its user's cookie. */
  const rotating = (targets: { cookie: string; path: string }[]): Load => ({
    url: baseUrl,
    connections: o.connections,
    verifyBody: nonEmptyPage,
    setupRequest: (req: autocannon.Request) => {
      const t = pick(targets);
      return { ...req, method: 'GET', path: t.path, headers: { ...req.headers, cookie: t.cookie } };
    },
  });
  const filtered = (users: typeof typical) =>
    users.map((u) => ({
      cookie: u.cookie,
      path: feedPath({ format: u.filter?.format ?? '', topic: u.filter?.topic ?? '' }),
    }));

  const routes: NamedLoad[] = [
    {
      name: 'My Feed, first page',
      budget: BUDGETS.feed,
      load: rotating(feedUsers.map((u) => ({ cookie: u.cookie, path: feedPath({}) }))),
    },
    { name: `My Feed, page ${deepPage} (heavy users)`, budget: BUDGETS.feed, load: rotating(deep) },
    {
      name: 'Most liked, first page',
      budget: BUDGETS.feed,
      load: rotating(feedUsers.map((u) => ({ cookie: u.cookie, path: feedPath({ sort: 'most_liked' }) }))),
    },
    { name: 'Format + topic, first page', budget: BUDGETS.feed, load: rotating(filtered(typicalFiltered)) },
    { name: 'Format + topic (heavy users)', budget: BUDGETS.feed, load: rotating(filtered(heavyFiltered)) },
    {
      // Each user likes and unlikes links of their own first page: links they can see.
      name: 'Like toggle (POST)',
      budget: BUDGETS.write,
      load: {
        url: baseUrl,
        connections: o.connections,
        verifyBody: likeState,
        setupRequest: (req: autocannon.Request) => {
          const u = pick(feedUsers);
          return {
            ...req,
            method: 'POST',
            path: `/api/links/${pick(u.ids)}/like`,
            headers: { ...req.headers, cookie: u.cookie, origin: o.origin },
          };
        },
      },
    },
  ];
  if (deep.length === 0) routes.splice(1, 1);
  if (typicalFiltered.length === 0) routes.splice(routes.findIndex((r) => r.name.startsWith('Format + topic, first')), 1);
  if (heavyFiltered.length === 0) routes.splice(routes.findIndex((r) => r.name.startsWith('Format + topic (heavy')), 1);

  console.log(
    `Measuring links: ${o.connections} connections, 1 s warm-up + ${o.durationS} s per route, ` +
      `each right after GET /api/health/live at ${o.connections} connections (load average ${loadAverages()})...`,
  );
  const results = await measureRoutes(trivial, routes, o.durationS, o.cpu);
  return {
    connections: o.connections,
    durationS: o.durationS,
    typicalUsers: feedUsers.length,
    heavyUsers: heavy.length,
    deepPage,
    feedLinksMedian: { typical: median(plan.typical.map((u) => u.links)), heavy: median(plan.heavy.map((u) => u.links)) },
    filterMatches: {
      typicalMedian: median(typicalFiltered.map((u) => u.filter?.matches ?? 0)),
      heavyMedian: median(heavyFiltered.map((u) => u.filter?.matches ?? 0)),
    },
    routes: results,
  };
}

export function printLinks(r: LinksResult): void {
  printRoutes(`Links, ${r.connections} connections`, r.routes, 'empty');
  console.log(
    `Users: ${r.typicalUsers} typical users at random (median ${r.feedLinksMedian.typical} links in My Feed), ` +
      `${r.heavyUsers} heavy users (median ${r.feedLinksMedian.heavy}); deep page = page ${r.deepPage} ` +
      `(${r.deepPage - 1} cursors followed). Filter = each user's commonest format + topic pair: median ` +
      `${r.filterMatches.typicalMedian} matching links (typical), ${r.filterMatches.heavyMedian} (heavy). ` +
      "'empty' counts 2xx responses without items (or like state). CPU/req = CPU seconds used during the run / " +
      'requests; load avg = 1/5/15 min after the run.',
  );
}
