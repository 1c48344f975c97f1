import fc from 'fast-check';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { http, signedInUser, testClient } from '../support/client';
import { type DbSnapshot, changedTables, dbSnapshot, newRows } from '../support/db-snapshot';
import { describeEachDatabase } from '../support/each-database';
import { type FuzzInput, MARKERS, inputClasses } from '../support/fuzz-corpus';
import { type Route, callableRoutes } from '../support/routes';
import type { TestServer } from '../support/server';
import { createCollection } from '../support/supercurations';
import { standInWebDir } from '../support/web-dir';

/**
 * Malformed input to every route of the route table, signed in and anonymous, over real HTTP.
 * Fails on any answer ≥ 500 (or none), on a dead server, and on a write a 4xx left behind.
 * FUZZ_SEED and FUZZ_RUNS (inputs per class, route and caller) override the defaults.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 24);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type Client = ReturnType<typeof testClient>;

/** A user with a topic, a link, a public collection (the link tagged in it, a collaborator) and an image. */
async function fixtures(baseUrl: string) {
  const owner = await signedInUser(baseUrl, 'Fuzz Owner');
  const collaborator = await signedInUser(baseUrl, 'Fuzz Collaborator');
  const topic = await owner.api.createTopic({ name: 'Fuzzing', color: '#336699' });
  const link = await owner.api.createLink({ url: 'https://example.com/fuzz', title: 'A link', description: 'Fuzzed', topicIds: [topic.id] });
  const collection = await createCollection(owner, { isPublic: true });
  await owner.api.addResource(collection.id, { linkId: link.id });
  const category = await owner.api.createTagCategory(collection.id);
  await owner.api.addTag(collection.id, category.id, 'fuzz-tag');
  await owner.api.setResourceTags(collection.id, link.id, ['fuzz-tag']);
  await owner.api.addCollaborator(collection.id, collaborator.me.id);
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).png().toBuffer();
  const image = await owner.api.uploadImage(new Blob([png], { type: 'image/png' }));
  // Real values for a path parameter, by the path segment before it (/api/links/:id → links).
  const bySegment: Record<string, string[]> = {
    links: [link.id],
    resources: [link.id],
    supercurations: [collection.id],
    topics: [topic.id],
    users: [owner.me.id],
    profile: [owner.me.id],
    'tag-categories': [category.id],
    tags: ['fuzz-tag'],
    collaborators: [collaborator.me.id],
    images: [image.url.split('/').pop()!],
    public: [collection.slug!],
    s: [collection.slug!],
  };
  return { owner, bySegment };
}

const paramsOf = (url: string) => [...url.matchAll(/:(\w+)|\*/g)].map((m) => m[1] ?? '*');

function realParams(url: string, bySegment: Record<string, string[]>): Record<string, string[]> {
  const segments = url.split('/');
  return Object.fromEntries(
    paramsOf(url).map((param) => {
      const at = segments.findIndex((s) => s === `:${param}` || s === param);
      return [param, bySegment[segments[at - 1] ?? ''] ?? Object.values(bySegment).flat()];
    }),
  );
}

/** Writes that may delete the fixtures run last, the most specific first. */
const deletesLast = (a: Route, b: Route) =>
  Number(a.method === 'DELETE') - Number(b.method === 'DELETE') || (a.method === 'DELETE' ? b.url.length - a.url.length : 0);

/** A fixed seed for each route and input class, so that adding a route changes no other's inputs. */
const seedFor = (key: string) => [...key].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, SEED);

async function send(client: Client, baseUrl: string, route: Route, input: FuzzInput): Promise<number | string> {
  const path = route.url.replace(/:(\w+)|\*/g, (_, name: string | undefined) => input.params[name ?? '*']!);
  // Bytes, not a string: fetch would add a text/plain content type of its own.
  const body = typeof input.body === 'string' ? Buffer.from(input.body) : input.body;
  try {
    const res = await client.fetch(`${baseUrl}${path}${input.query}`, {
      method: route.method,
      headers: input.contentType ? { 'content-type': input.contentType } : {},
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(20_000),
    });
    await res.arrayBuffer();
    return res.status;
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    return `no answer (${cause})`;
  }
}

const storedMarkers = (row: Record<string, unknown>) =>
  Object.entries(row).filter(([, v]) => typeof v === 'string' && MARKERS.some((m) => v.includes(m))).map(([column]) => column);

async function fuzz(server: TestServer) {
  const started = performance.now();
  const { owner, bySegment } = await fixtures(server.url);
  let anonymous = testClient(server.url);
  const statuses: Record<string, number> = {};
  const findings: string[] = [];
  const storedJunk: string[] = [];
  let requests = 0;
  /** The database as the last write refused left it: the next write's "before", if nothing ran since. */
  let unchanged: DbSnapshot | null = null;

  // Requests that end the session (sign-out, revoke-sessions) or start another (sign-up) may succeed.
  const keepSignedIn = async () => {
    if ((await owner.api.me())?.id !== owner.me.id) await owner.api.signIn(owner.input);
  };

  const routes = callableRoutes(server).sort(deletesLast);
  routes: for (const route of routes) {
    const shape = { params: paramsOf(route.url), realParams: realParams(route.url, bySegment), hasBody: WRITES.has(route.method) };
    for (const { name, inputs } of inputClasses(shape)) {
      const corpus = fc.sample(inputs, { seed: seedFor(`${route.method} ${route.url} ${name}`), numRuns: RUNS });
      for (const [who, client] of [['signed in', owner], ['anonymous', anonymous]] as const) {
        for (const input of corpus) {
          const where = `${route.method} ${route.url} [${name}: ${input.note}] (${who})`;
          const before = WRITES.has(route.method) ? (unchanged ?? (await dbSnapshot(server.db))) : null;
          unchanged = null;
          const status = await send(client, server.url, route, input);
          requests += 1;
          const kind = typeof status === 'string' ? 'no answer' : `${Math.floor(status / 100)}xx`;
          statuses[kind] = (statuses[kind] ?? 0) + 1;
          if (typeof status === 'string' || status >= 500) findings.push(`${status} ← ${where}`);
          if (!before || typeof status === 'string') continue;
          const after = await dbSnapshot(server.db);
          if (status >= 400) {
            const changed = changedTables(before, after);
            if (changed.length > 0) findings.push(`${status} left a write in ${changed.join(', ')} ← ${where}`);
            else unchanged = after;
          } else {
            for (const { table, row } of newRows(before, after)) {
              for (const column of storedMarkers(row)) storedJunk.push(`${table}.${column} ← ${where}`);
            }
            if (who === 'signed in') await keepSignedIn();
          }
        }
      }
    }
    const health = await http(`${server.url}/api/health`).then((res) => res.status, (err: Error) => err.message);
    if (health !== 200) {
      findings.push(`server dead (health: ${health}) after ${route.method} ${route.url}`);
      break routes;
    }
    if (anonymous.cookieHeader()) anonymous = testClient(server.url);
  }

  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `fuzz [${server.db.dialect}] seed ${SEED} (FUZZ_SEED), ${RUNS} inputs per class, route and caller (FUZZ_RUNS): ` +
      `${requests} requests to ${routes.length} routes in ${seconds} s; ` +
      Object.entries(statuses).sort().map(([kind, n]) => `${kind} ${n}`).join(', '),
  );
  if (storedJunk.length > 0) console.log(`Accepted and stored NUL/bidi characters:\n${storedJunk.join('\n')}`);
  return findings;
}

describeEachDatabase(
  'fuzz: malformed input on every route',
  (ctx) => {
    it(
      'answers every malformed request below 500, stays up, and lets no 4xx leave a write behind',
      async () => {
        const findings = await fuzz(ctx.server);
        expect(findings).toEqual([]);
      },
      RUNS * 90_000,
    );
  },
  { WEB_DIR: standInWebDir() },
);
