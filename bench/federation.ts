/**
 * The federation section of `npm run bench` (issue 21): one new resource of a public collection
 * sent to its BENCH_FEDIVERSE_FOLLOWERS (10,000) remote followers, spread over
 * BENCH_FEDIVERSE_INBOXES (500) servers on loopback (127.0.0.1, 127.0.0.2, …, one port), each with
 * a shared inbox: one signed POST per server. The servers answer 202 at once without checking the
 * signature (their cost is not ours). The followers are written straight into the database, as
 * their Follows would have left them; the resource goes through the API. The server runs alone
 * with FEDERATION=true and PREVIEW_ALLOW_PRIVATE=true (loopback inboxes). Reported, per resource
 * (BENCH_FEDIVERSE_RESOURCES, 3): time from the add to the last inbox reached, deliveries a second,
 * and server CPU per delivery (all processes; plus the database's backends on PostgreSQL).
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../server/config';
import { type Db, openDatabase } from '../server/db';
import { type CpuProbe, intEnv, listenOnHosts, loadAverages, printTable, rate, us } from './common';

const FOLLOWERS = intEnv('BENCH_FEDIVERSE_FOLLOWERS', 10_000);
const INBOXES = intEnv('BENCH_FEDIVERSE_INBOXES', 500);
const RESOURCES = intEnv('BENCH_FEDIVERSE_RESOURCES', 3);
const DELIVERY_TIMEOUT_MS = 300_000;

export const FEDERATION_ENV = { FEDERATION: 'true', PREVIEW_ALLOW_PRIVATE: 'true' };

/** The k-th server (0-based): 127.0.0.1 … 127.0.0.254, then 127.0.1.1 … */
const hostName = (k: number) => `127.0.${Math.floor(k / 254)}.${1 + (k % 254)}`;

interface Inboxes {
  port: number;
  hosts: string[];
  /** Bodies received, with the time (performance.now()) and whether the POST was signed. */
  received: { at: number; body: string; signed: boolean }[];
  close(): Promise<void>;
}

async function startInboxes(count: number): Promise<Inboxes> {
  const hosts = Array.from({ length: count }, (_, k) => hostName(k));
  const received: Inboxes['received'] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ at: performance.now(), body: Buffer.concat(chunks).toString('utf8'), signed: typeof req.headers.signature === 'string' });
      res.writeHead(202).end();
    });
  };
  const { port, close } = await listenOnHosts(hosts, () => handler);
  return { port, hosts, received, close };
}

/** FOLLOWERS remote followers of the collection, round-robin over the servers, stored as their Follows leave them. */
async function seedFollowers(db: Db, supercurationId: string, inboxes: Inboxes): Promise<void> {
  const at = new Date().toISOString();
  const rows = Array.from({ length: FOLLOWERS }, (_, n) => {
    const origin = `http://${inboxes.hosts[n % inboxes.hosts.length]}:${inboxes.port}`;
    return {
      supercuration_id: supercurationId,
      actor_uri: `${origin}/users/f${n}`,
      host: new URL(origin).host,
      inbox_uri: `${origin}/users/f${n}/inbox`,
      shared_inbox_uri: `${origin}/inbox`,
      follow_uri: `${origin}/users/f${n}#follow`,
      created_at: at,
    };
  });
  await db.kysely.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 1000) await trx.insertInto('federation_followers').values(rows.slice(i, i + 1000)).execute();
    await trx.updateTable('supercurations').set({ fediverse_followers_count: FOLLOWERS }).where('id', '=', supercurationId).execute();
  });
}

export interface FanOut {
  ms: number;
  deliveries: number;
  signed: number;
  serverCpuS: number;
  dbCpuS: number | null;
}

export interface FederationResult {
  followers: number;
  inboxes: number;
  fanOuts: FanOut[];
  loadAverage: string;
  /** The server's RSS before any fediverse request (Fedify not loaded yet), and after the fan-outs. */
  rssBeforeMb: number;
  rssAfterMb: number;
}

export interface FederationContext {
  config: Pick<Config, 'databaseUrl' | 'dataDir'>;
  /** Starts the server with these variables on top of the bench's; answers its address and CPU probe. */
  start(env: Record<string, string>): Promise<{ baseUrl: string; cpu: CpuProbe; rssMb(): number }>;
  stop(): Promise<void>;
  /** A seeded user's session cookie. */
  signIn(baseUrl: string): Promise<string>;
  origin: string;
}

export async function benchFederation(ctx: FederationContext): Promise<FederationResult> {
  const inboxes = await startInboxes(INBOXES);
  try {
    const { baseUrl, cpu, rssMb } = await ctx.start(FEDERATION_ENV);
    const cookie = await ctx.signIn(baseUrl);
    const rssBeforeMb = rssMb();
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { cookie, origin: ctx.origin, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string };
    };
    const collection = await call('/api/supercurations', { title: 'Fan-out', description: 'Followed from the fediverse', isPublic: true, slug: 'fan-out' });
    const db = openDatabase(ctx.config);
    try {
      await seedFollowers(db, collection.id, inboxes);
    } finally {
      await db.close();
    }
    // Its keys are made on first use: once here, not in the first fan-out.
    await fetch(`${baseUrl}/ap/actors/c-${collection.id}`, { headers: { accept: 'application/activity+json' } });
    console.log(`${FOLLOWERS.toLocaleString('en-US')} remote followers on ${INBOXES} servers (port ${inboxes.port}); load average ${loadAverages()}`);

    const fanOuts: FanOut[] = [];
    for (let r = 0; r < RESOURCES; r++) {
      const before = await cpu();
      const first = inboxes.received.length;
      const t0 = performance.now();
      const link = await call(`/api/supercurations/${collection.id}/resources`, {
        link: { title: `Fan-out ${r}`, description: 'One new resource, to every follower', url: `https://example.com/fan-out/${r}` },
      });
      const mine = () => inboxes.received.slice(first).filter((x) => x.body.includes(link.id));
      while (mine().length < INBOXES && performance.now() - t0 < DELIVERY_TIMEOUT_MS) await sleep(20);
      const reached = mine();
      const t1 = reached.reduce((last, x) => Math.max(last, x.at), t0);
      const after = await cpu();
      fanOuts.push({
        ms: t1 - t0,
        deliveries: reached.length,
        signed: reached.filter((x) => x.signed).length,
        serverCpuS: after.serverS - before.serverS,
        dbCpuS: after.dbS !== null && before.dbS !== null ? after.dbS - before.dbS : null,
      });
    }
    const loadAverage = loadAverages();
    const rssAfterMb = rssMb();
    await ctx.stop();
    return { followers: FOLLOWERS, inboxes: INBOXES, fanOuts, loadAverage, rssBeforeMb, rssAfterMb };
  } finally {
    await inboxes.close();
  }
}

export function printFederation(r: FederationResult): void {
  console.log(
    `Fediverse fan-out: one new resource to ${r.followers.toLocaleString('en-US')} followers on ${r.inboxes} servers (a shared inbox each); ` +
      `load average ${r.loadAverage}`,
  );
  printTable([
    ['resource', 'inboxes reached', 'signed', 'time to the last', 'deliveries/s', 'server CPU', 'CPU per delivery', 'database CPU per delivery'],
    ...r.fanOuts.map((f, i) => [
      String(i + 1),
      `${f.deliveries} of ${r.inboxes}`,
      String(f.signed),
      `${(f.ms / 1000).toFixed(2)} s`,
      rate(f.deliveries / (f.ms / 1000)),
      `${(f.serverCpuS * 1000).toFixed(0)} ms`,
      us((f.serverCpuS * 1e6) / Math.max(1, f.deliveries)),
      f.dbCpuS === null ? '-' : us((f.dbCpuS * 1e6) / Math.max(1, f.deliveries)),
    ]),
  ]);
  console.log(
    `Server RSS with FEDERATION on: ${r.rssBeforeMb.toFixed(1)} MB before any fediverse request (Fedify not loaded), ` +
      `${r.rssAfterMb.toFixed(1)} MB after the fan-outs`,
  );
}
