/**
 * Where a server's CPU went, from a V8 CPU profile written by `BENCH_CPU_PROF=<dir> npm run bench`
 * (see bench/README.md): each sample's own frame, or for native code the nearest JavaScript frame
 * that called it, decides its part (SQL, Kysely, session, HTTP, Fastify, serialisation, ...).
 *
 *   npx tsx bench/profile-breakdown.ts <file.cpuprofile>            per-second busy timeline
 *   npx tsx bench/profile-breakdown.ts <file.cpuprofile> 36 45      parts of seconds 36 to 45
 *
 * The timeline shows where the measured route ran: the bench measures GET /api/health/live just
 * before each route, so pick the route's own seconds (the last busy stretch with one route).
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Parts, tried in this order on a sample's frame; the first that matches takes the sample. */
const PARTS: [string, (f: CallFrame) => boolean][] = [
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  // better-sqlite3's native run/all/iterate count with their JavaScript caller: Kysely's driver, or
  // the statement of server/db/sqlite-rows.ts (withFastRows), whose methods are named so.
  [
    'SQL: SQLite (the driver running a statement)',
    (f) => /kysely\/.*sqlite-driver\.js$|better-sqlite3/.test(f.url) || (/^(all|run|iterate)$/.test(f.functionName) && /\/(dist|server)\//.test(f.url)),
  ],
  ['SQL: pg driver (protocol, parsing rows)', (f) => /node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//.test(f.url)],
  ['Kysely (building, compiling, running queries)', (f) => /node_modules\/kysely\//.test(f.url)],
  ['serialisation (JSON)', (f) => f.functionName === 'stringify' || /fast-json-stringify|lib\/reply\.js$/.test(f.url) && f.functionName === 'serialize'],
  ['validation (zod)', (f) => /node_modules\/(zod|fastify-type-provider-zod)\//.test(f.url)],
  ['compression', (f) => /node_modules\/@fastify\/compress\/|node:zlib/.test(f.url)],
  ['session cookie signature (HMAC)', (f) => /^(Hmac|digest|timingSafeEqual)$/.test(f.functionName)],
  ['Fastify and its plugins', (f) => /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|fast-querystring|secure-json-parse|fastq|toad-cache|helmet|pino)/.test(f.url)],
  ['HTTP and socket writes (Node)', (f) => /^node:(_http|net|internal\/(stream|streams|http|net))/.test(f.url) || /^(writev|writeUtf8String|writeLatin1String|writeBuffer)$/.test(f.functionName)],
  ['promises and async hooks (Node)', (f) => /^node:internal\/(async_hooks|process\/(task_queues|promises))/.test(f.url) || f.functionName === 'runMicrotasks'],
  ['our code (services, presenters, policies, session)', (f) => /\/(dist|server|shared)\//.test(f.url) && !/node_modules/.test(f.url)],
];

function breakdown(profile: Profile, from: number, to: number) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const partOf = new Map<number, string>();
  const part = (id: number): string => {
    let cached = partOf.get(id);
    if (cached) return cached;
    const leaf = (nodes.get(id) as ProfileNode).callFrame;
    // Native code has no URL: it is counted with the JavaScript that called it.
    let frame = leaf;
    for (let at: number | undefined = id; at !== undefined && frame.url === ''; at = parent.get(at)) frame = (nodes.get(at) as ProfileNode).callFrame;
    cached = PARTS.find(([, matches]) => matches(leaf) || matches(frame))?.[0] ?? `other: ${frame.functionName || '(anonymous)'} ${frame.url}`;
    partOf.set(id, cached);
    return cached;
  };
  const counts = new Map<string, number>();
  let busy = 0;
  let t = 0;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (t / 1e6 < from || t / 1e6 > to) return;
    const name = (nodes.get(id) as ProfileNode).callFrame.functionName;
    if (name === '(idle)' || name === '(program)') return;
    busy += 1;
    const p = part(id);
    counts.set(p, (counts.get(p) ?? 0) + 1);
  });
  console.log(`${busy} busy samples between ${from} s and ${to} s`);
  for (const [name, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    console.log(`${((100 * n) / busy).toFixed(1).padStart(5)} %  ${name}`);
  }
}

function timeline(profile: Profile) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const seconds: { busy: number; all: number }[] = [];
  let t = 0;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    const s = (seconds[Math.floor(t / 1e6)] ??= { busy: 0, all: 0 });
    s.all += 1;
    if ((nodes.get(id) as ProfileNode).callFrame.functionName !== '(idle)') s.busy += 1;
  });
  console.log('second: share of samples busy');
  console.log(seconds.map((s, i) => `${i}: ${s ? Math.round((100 * s.busy) / s.all) : 0}%`).join('  '));
}

const [file, from, to] = process.argv.slice(2);
if (!file) throw new Error('usage: npx tsx bench/profile-breakdown.ts <file.cpuprofile> [from-second to-second]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
if (from === undefined) timeline(profile);
else breakdown(profile, Number(from), Number(to ?? Infinity));
