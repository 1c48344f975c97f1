/**
 * The following section of `npm run bench`: a publisher (seeded user 3) with
 * BENCH_SUBSCRIBERS (10,000) subscribers and a public collection of theirs with as many confirmed
 * e-mail subscribers, seeded straight into the database. Measures the Subscriber Dashboard's first
 * page beside GET /api/health/live, the full CSV export, and the digest fan-out: a few resources
 * added through the API, then runDigestOnce in this process (server code, not the child) queueing
 * one mail per subscriber in the outbox ("time to queue"), then the server process's outbox worker
 * (SMTP_URL = the loopback sink of the tests, MAIL_POLL_SECONDS=1) sending them all ("time to send",
 * from the digest's commit until the sink has every message, so it includes up to 1 s of polling).
 * And the Following feed (GET /api/following) of a reader (seeded user 4) subscribed to
 * BENCH_FOLLOWED (1,000) seeded curators and following that collection: its first page, a format,
 * a time window and a deeper page, at BENCH_LINK_CONNECTIONS (the links are the links section's seed).
 * Then the personal digests of the same readers a week on (every follower, and that reader):
 * drainReaderDigests in this process ("time to build and queue"), then the server's worker sending.
 */
import { randomBytes } from 'node:crypto';
import { type Insertable, sql } from 'kysely';
import type { Config } from '../server/config';
import { type Db, openDatabase } from '../server/db';
import type { Database } from '../server/db/schema';
import { runDigestOnce } from '../server/mail/digest';
import { drainReaderDigests } from '../server/mail/reader-digest';
import type { SmtpSink } from '../tests/support/smtp-sink';
import { type CpuProbe, type Load, type MeasuredRoute, type NamedLoad, loadAverages, measureRoutes, ms, printRoutes, rate, us } from './common';
import { seedEmail } from './seed';

const BATCH = 500;
const DAY_MS = 86_400_000;
const DIGEST_RESOURCES = 3;
const CSV_RUNS = 5;

export interface FollowingPlan {
  publisherEmail: string;
  readerEmail: string;
  followed: number;
  collectionId: string;
  subscribers: number;
  emailSubscribers: number;
  ms: number;
}

const hex = () => randomBytes(12).toString('hex');

async function insertBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}

/**
 * `count` follower users (no password: they never sign in) subscribed to seeded user 3, counters
 * as subscribe() leaves them, and a public collection of user 3 with `count` confirmed e-mail
 * subscribers and its digest state (sent up to now). Before the server starts.
 */
export async function seedFollowing(db: Db, users: number, count: number, followed: number): Promise<FollowingPlan> {
  const started = performance.now();
  const k = db.kysely;
  const publisherEmail = seedEmail(Math.min(3, users - 1)); // 0 owns collections, 1 and 2 import
  const publisher = await k.selectFrom('user').select('id').where('email', '=', publisherEmail).executeTakeFirstOrThrow();
  const now = Date.now();
  const iso = (t: number) => new Date(t).toISOString();
  // Verified: each follower also gets the personal digest (weekly, from now), which goes to verified addresses only.
  const emailVerified = db.dialect === 'sqlite' ? 1 : true;

  const followers: Insertable<Database['user']>[] = [];
  const profiles: Insertable<Database['profiles']>[] = [];
  const subscriptions: Insertable<Database['user_subscriptions']>[] = [];
  const digests: Insertable<Database['reader_digests']>[] = [];
  for (let i = 0; i < count; i++) {
    const id = hex();
    const at = iso(now - 200 * DAY_MS + (i * 200 * DAY_MS) / count);
    followers.push({ id, name: `Bench Follower ${i}`, email: `bench-follower-${i}@bench.test`, emailVerified, image: null, createdAt: at, updatedAt: at });
    profiles.push({ user_id: id, bio: null, location: null, website: null, avatar_key: null, subscriptions_count: 1, subscribers_count: 0, updated_at: at });
    subscriptions.push({ id: hex(), subscriber_id: id, publisher_id: publisher.id, created_at: at });
    digests.push({ user_id: id, frequency: 'weekly', sent_up_to: iso(now) });
  }
  const collectionId = hex();
  const emailSubscribers: Insertable<Database['email_subscribers']>[] = Array.from({ length: count }, (_, i) => {
    const at = iso(now - 30 * DAY_MS + (i * 29 * DAY_MS) / count);
    return {
      id: hex(),
      supercuration_id: collectionId,
      email: `bench-reader-${i}@bench.test`,
      confirmed_at: at,
      token_hash: randomBytes(32).toString('hex'),
      created_at: at,
      confirm_sent_at: at,
    };
  });
  await k.transaction().execute(async (trx) => {
    await insertBatches(followers, (b) => trx.insertInto('user').values(b).execute());
    await insertBatches(profiles, (b) => trx.insertInto('profiles').values(b).execute());
    await insertBatches(subscriptions, (b) => trx.insertInto('user_subscriptions').values(b).execute());
    await insertBatches(digests, (b) => trx.insertInto('reader_digests').values(b).execute());
    await trx.updateTable('profiles').set({ subscribers_count: count }).where('user_id', '=', publisher.id).execute();
    await trx
      .insertInto('supercurations')
      .values({
        id: collectionId,
        user_id: publisher.id,
        title: 'Followed bench collection',
        description: 'A public collection with many e-mail subscribers',
        thumbnail_url: null,
        is_public: 1,
        slug: 'bench-followed-collection',
        links_count: 0,
        created_at: iso(now - 31 * DAY_MS),
        updated_at: iso(now - 31 * DAY_MS),
      })
      .execute();
    await insertBatches(emailSubscribers, (b) => trx.insertInto('email_subscribers').values(b).execute());
    await trx.insertInto('digest_state').values({ supercuration_id: collectionId, last_sent_at: iso(now) }).execute();
  });
  const readerEmail = seedEmail(Math.min(4, users - 1));
  await seedReader(db, readerEmail, collectionId, followed, iso(now));
  await sql`analyze`.execute(k);
  return {
    publisherEmail,
    readerEmail,
    followed,
    collectionId,
    subscribers: count,
    emailSubscribers: count,
    ms: performance.now() - started,
  };
}

/** The Following feed's reader: subscribed to `followed` other seeded users and following the collection, counters as the API leaves them. */
async function seedReader(db: Db, readerEmail: string, collectionId: string, followed: number, at: string): Promise<void> {
  const k = db.kysely;
  const reader = await k.selectFrom('user').select('id').where('email', '=', readerEmail).executeTakeFirstOrThrow();
  const curators = await k
    .selectFrom('user')
    .select('id')
    .where('email', 'like', 'bench-user-%')
    .where('id', '!=', reader.id)
    .orderBy('email')
    .limit(followed)
    .execute();
  const ids = curators.map((c) => c.id);
  await k.transaction().execute(async (trx) => {
    await insertBatches(ids, (b) =>
      trx
        .insertInto('user_subscriptions')
        .values(b.map((publisher_id) => ({ id: hex(), subscriber_id: reader.id, publisher_id, created_at: at })))
        .execute(),
    );
    await insertBatches(ids, (b) =>
      trx.updateTable('profiles').set({ subscribers_count: sql`subscribers_count + 1` }).where('user_id', 'in', b).execute(),
    );
    await trx.updateTable('profiles').set({ subscriptions_count: sql`subscriptions_count + ${ids.length}` }).where('user_id', '=', reader.id).execute();
    await trx.insertInto('supercuration_followers').values({ supercuration_id: collectionId, user_id: reader.id, created_at: at }).execute();
    await trx.insertInto('reader_digests').values({ user_id: reader.id, frequency: 'weekly', sent_up_to: at }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
    await trx.updateTable('user').set({ emailVerified: db.dialect === 'sqlite' ? 1 : true }).where('id', '=', reader.id).execute();
    await trx.updateTable('supercurations').set({ followers_count: 1 }).where('id', '=', collectionId).execute();
  });
}

export interface FollowingResult {
  connections: number;
  plan: FollowingPlan;
  dashboard: MeasuredRoute;
  /** GET /api/following: first page, a format, a time window, a deeper page. */
  feed: MeasuredRoute[];
  csv: { runs: number; medianMs: number; maxMs: number; bytes: number; rows: number };
  digest: {
    resources: number;
    mails: number;
    queueMs: number;
    /** From the digest's commit until the sink received every mail. */
    sendMs: number;
    received: number;
    distinctMessageIds: number;
    mailsPerS: number;
    /** Server process CPU while sending, per mail. */
    serverCpuUsPerMail: number;
    dbCpuUsPerMail?: number;
    bytes: number;
    transport: string;
  };
  /** The personal digests of the same period (drainReaderDigests in this process), then sent by the server. */
  readerDigest: {
    readers: number;
    mails: number;
    /** Finding the due readers, their items and rendering, claim + insert: until every mail is queued. */
    buildMs: number;
    /** This process's CPU (our code and the driver; on SQLite the database too) per reader. */
    cpuUsPerReader: number;
    dbCpuUsPerReader?: number;
    /** From the last queued mail until the sink received every one. */
    sendMs: number;
    received: number;
  };
}

interface Options {
  baseUrl: string;
  origin: string;
  config: Config;
  plan: FollowingPlan;
  connections: number;
  durationS: number;
  cpu: CpuProbe;
  signIn: (email: string) => Promise<string>;
  /** The SMTP sink of the server's SMTP_URL. */
  sink: SmtpSink;
}

const SEND_DEADLINE_MS = 10 * 60_000;
const DEEP_FEED_PAGE = 5;

/** The Following feed's measured requests; the deeper page's cursor is found by walking there first. */
async function feedRoutes(baseUrl: string, cookie: string, followed: number, connections: number): Promise<NamedLoad[]> {
  const url = (query: string) => `${baseUrl}/api/following${query}`;
  let cursor = '';
  for (let i = 1; i < DEEP_FEED_PAGE; i++) {
    const res = await fetch(url(cursor ? `?cursor=${cursor}` : ''), { headers: { cookie } });
    const page = (await res.json()) as { nextCursor: string | null };
    if (!res.ok || !page.nextCursor) throw new Error(`GET /api/following, page ${i}: ${res.status}`);
    cursor = page.nextCursor;
  }
  const of = `${followed.toLocaleString('en-US')} curators + 1 collection`;
  const routes: [string, string][] = [
    [`GET /api/following, first page (${of})`, ''],
    ['GET /api/following?format=video', '?format=video'],
    ['GET /api/following?window=week', '?window=week'],
    [`GET /api/following, page ${DEEP_FEED_PAGE}`, `?cursor=${cursor}`],
  ];
  return routes.map(([name, query]) => ({
    name,
    load: { url: url(query), connections, headers: { cookie }, verifyBody: (b: string) => b.startsWith('{"items":[{') },
  }));
}

export async function benchFollowing(o: Options): Promise<FollowingResult> {
  const { baseUrl, plan } = o;
  const cookie = await o.signIn(plan.publisherEmail);
  const trivial: Load = { url: `${baseUrl}/api/health/live`, connections: o.connections };
  console.log(
    `Measuring following: GET /api/me/subscribers and GET /api/following at ${o.connections} connections (load average ${loadAverages()})...`,
  );
  const feed = await measureRoutes(trivial, await feedRoutes(baseUrl, await o.signIn(plan.readerEmail), plan.followed, o.connections), o.durationS, o.cpu);
  const [dashboard] = await measureRoutes(
    trivial,
    [
      {
        name: `GET /api/me/subscribers, first page (of ${plan.subscribers.toLocaleString('en-US')})`,
        load: {
          url: `${baseUrl}/api/me/subscribers`,
          connections: o.connections,
          headers: { cookie },
          verifyBody: (b) => b.startsWith('{"items":[{'),
        },
      },
    ],
    o.durationS,
    o.cpu,
  );
  if (!dashboard) throw new Error('the subscribers route was left out: BENCH_ROUTES must match it in this section');

  console.log(`Exporting the subscribers CSV ${CSV_RUNS} times...`);
  const times: number[] = [];
  let bytes = 0;
  let rows = 0;
  for (let i = 0; i < CSV_RUNS; i++) {
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}/api/me/subscribers.csv`, { headers: { cookie } });
    const text = await res.text();
    times.push(performance.now() - t0);
    if (!res.ok) throw new Error(`GET /api/me/subscribers.csv: ${res.status} ${text.slice(0, 200)}`);
    bytes = Buffer.byteLength(text);
    rows = text.trimEnd().split('\n').length - 1;
  }
  times.sort((a, b) => a - b);

  console.log(`Adding ${DIGEST_RESOURCES} resources, then sending the digest in-process to the loopback SMTP sink...`);
  for (let i = 0; i < DIGEST_RESOURCES; i++) {
    const res = await fetch(`${baseUrl}/api/supercurations/${plan.collectionId}/resources`, {
      method: 'POST',
      headers: { cookie, origin: o.origin, 'content-type': 'application/json' },
      body: JSON.stringify({
        link: { url: `https://example.net/digest-${hex()}`, title: `Digest resource ${i}`, description: 'New in the collection' },
      }),
    });
    if (res.status !== 201) throw new Error(`add resource: ${res.status} ${await res.text()}`);
  }
  const { sink } = o;
  const db = openDatabase(o.config);
  let digest: FollowingResult['digest'];
  let readerDigest: FollowingResult['readerDigest'];
  try {
    const interval = o.config.digestIntervalSeconds;
    // The digest is due `interval` after the seeded last_sent_at (now): run it as if then, so the
    // server's own digest timer (real time) never claims it first.
    const at = new Date(Date.now() + (interval + 10) * 1000);
    const receivedBefore = sink.received.length;
    const t0 = performance.now();
    const run = await runDigestOnce(
      // The server process's worker sends: it polls every second (nothing to wake across processes).
      { db, wakeOutbox: () => {}, publicUrl: o.config.publicUrl, secret: o.config.authSecret, intervalSeconds: interval },
      at,
    );
    const queueMs = performance.now() - t0;
    const cpu0 = await o.cpu();
    while (sink.received.length - receivedBefore < run.mails) {
      if (performance.now() - t0 > SEND_DEADLINE_MS) throw new Error(`only ${sink.received.length - receivedBefore} of ${run.mails} mails arrived`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const sendMs = performance.now() - t0 - queueMs;
    const cpu1 = await o.cpu();
    const mails = sink.received.slice(receivedBefore);
    const ids = new Set(mails.map((m) => /^message-id:\s*(\S+)/im.exec(m.raw)?.[1]));
    digest = {
      resources: DIGEST_RESOURCES,
      mails: run.mails,
      queueMs,
      sendMs,
      received: mails.length,
      distinctMessageIds: ids.size,
      mailsPerS: (run.mails * 1000) / sendMs,
      serverCpuUsPerMail: ((cpu1.serverS - cpu0.serverS) * 1e6) / run.mails,
      ...(cpu0.dbS !== null && cpu1.dbS !== null ? { dbCpuUsPerMail: ((cpu1.dbS - cpu0.dbS) * 1e6) / run.mails } : {}),
      bytes: mails.reduce((sum, m) => sum + m.raw.length, 0),
      transport: `server outbox worker, SMTP (nodemailer pool of 3) to loopback sink ${sink.url}`,
    };
    readerDigest = await benchReaderDigests(db, o, DIGEST_RESOURCES);
  } finally {
    await db.close();
  }
  return {
    connections: o.connections,
    plan,
    dashboard,
    feed,
    csv: { runs: CSV_RUNS, medianMs: times[Math.floor(times.length / 2)] ?? NaN, maxMs: times[times.length - 1] ?? NaN, bytes, rows },
    digest,
    readerDigest,
  };
}

/**
 * The personal digests a week on: every follower of the publisher (weekly, from the seed's now) has
 * the resources just added as news, and the Following feed's reader those of its curators too.
 */
async function benchReaderDigests(db: Db, o: Options, resources: number): Promise<FollowingResult['readerDigest']> {
  const readers = o.plan.subscribers + 1;
  console.log(`Building and queueing the personal digests of ${readers.toLocaleString('en-US')} readers (${resources} new links each), then sending them...`);
  const at = new Date(Date.now() + 7 * DAY_MS + 60_000);
  const receivedBefore = o.sink.received.length;
  const cpu0 = await o.cpu();
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  const run = await drainReaderDigests({ db, wakeOutbox: () => {}, publicUrl: o.config.publicUrl, secret: o.config.authSecret }, at);
  const buildMs = performance.now() - t0;
  const own = process.cpuUsage(own0);
  const cpu1 = await o.cpu();
  while (o.sink.received.length - receivedBefore < run.mails) {
    if (performance.now() - t0 > SEND_DEADLINE_MS) throw new Error(`only ${o.sink.received.length - receivedBefore} of ${run.mails} digests arrived`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    readers: run.readers,
    mails: run.mails,
    buildMs,
    cpuUsPerReader: (own.user + own.system) / Math.max(1, run.readers),
    ...(cpu0.dbS !== null && cpu1.dbS !== null ? { dbCpuUsPerReader: ((cpu1.dbS - cpu0.dbS) * 1e6) / Math.max(1, run.readers) } : {}),
    sendMs: performance.now() - t0 - buildMs,
    received: o.sink.received.length - receivedBefore,
  };
}

export function printFollowing(r: FollowingResult): void {
  printRoutes(`Following, ${r.connections} connections`, [r.dashboard, ...r.feed]);
  const c = r.csv;
  console.log(
    `GET /api/me/subscribers.csv: ${c.rows.toLocaleString('en-US')} rows, ${(c.bytes / 1024).toFixed(0)} KiB; ` +
      `median ${ms(c.medianMs)}, max ${ms(c.maxMs)} over ${c.runs} sequential exports.`,
  );
  const g = r.digest;
  console.log(
    `Digest of ${g.resources} new resources to ${g.mails.toLocaleString('en-US')} subscribers: time to queue ` +
      `(runDigestOnce in-process: render, then claim + insert in one transaction) ${(g.queueMs / 1000).toFixed(2)} s; time to send ${(g.sendMs / 1000).toFixed(2)} s = ` +
      `${rate(g.mailsPerS)} mails/s (${g.received.toLocaleString('en-US')} received, ${g.distinctMessageIds.toLocaleString('en-US')} distinct ` +
      `Message-IDs, ${(g.bytes / 1048576).toFixed(1)} MiB), server CPU ${us(g.serverCpuUsPerMail)}/mail` +
      `${g.dbCpuUsPerMail !== undefined ? `, PostgreSQL CPU ${us(g.dbCpuUsPerMail)}/mail` : ''}; ${g.transport}.`,
  );
  const d = r.readerDigest;
  console.log(
    `Personal digests: ${d.readers.toLocaleString('en-US')} readers claimed, ${d.mails.toLocaleString('en-US')} digests queued in ` +
      `${(d.buildMs / 1000).toFixed(2)} s (drainReaderDigests in-process; CPU ${us(d.cpuUsPerReader)}/reader` +
      `${d.dbCpuUsPerReader !== undefined ? `, PostgreSQL CPU ${us(d.dbCpuUsPerReader)}/reader` : ''}); ` +
      `the server's outbox worker (polling every second meanwhile) had sent the last ${(d.sendMs / 1000).toFixed(2)} s later (${d.received.toLocaleString('en-US')} received).`,
  );
  console.log(
    `Seeded ${r.plan.subscribers.toLocaleString('en-US')} subscribers and ${r.plan.emailSubscribers.toLocaleString('en-US')} ` +
      `confirmed e-mail subscribers in ${(r.plan.ms / 1000).toFixed(1)} s.`,
  );
}
