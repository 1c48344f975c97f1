import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../../server/db';
import { signedInUser, testClient } from '../support/client';
import { counterMismatches } from '../support/counters';
import { testDatabases } from '../support/databases';
import { outboxCounts } from '../support/outbox';
import { childPids } from '../support/proc';
import { type SmtpSink, messageIdOf, startSmtpSink } from '../support/smtp-sink';
import { createCollection } from '../support/supercurations';
import { jsonLines, until } from './support/process-output';
import { type ServerProcess, startServerProcess } from './support/server-process';

const databases = await testDatabases();
const WORKERS = 2;
const SHUTDOWN_MESSAGE = 'shutting down: finishing in-flight requests';
const ascending = (pids: Iterable<number>) => [...pids].sort((a, b) => a - b);

/** A line of the cluster primary (server/cluster.ts). */
interface ClusterLine {
  event: 'migrated' | 'started' | 'crashed' | 'ended';
  worker?: number;
  workerPid?: number;
  signal?: string | null;
  cause?: string;
  restartInMs?: number;
  msg: string;
}

/** GET on a connection of its own (closed after it): the primary hands each new connection to the next worker. */
function getOnNewConnection(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { ...headers, connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

/** A site whose page answers only when released: a slow upstream for an in-flight link preview. */
async function startHeldSite() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let asked = false;
  const server = http.createServer((_req, res) => {
    asked = true;
    void released.then(() => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><head><title>Held page</title></head><body>Worth the wait</body></html>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/held`,
    asked: () => asked,
    release,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

for (const database of databases) {
  describe(`WORKERS=${WORKERS}: one server process per core under npm start [${database.name}]`, () => {
    let server: ServerProcess | undefined;
    let sink: SmtpSink | undefined;
    let db: Db | undefined;
    const running = () => {
      if (!server) throw new Error('npm start is not running');
      return server;
    };
    const lines = () => jsonLines(running().output());
    const clusterLines = () => lines().filter((line) => line.name === 'cluster') as unknown as ClusterLine[];
    /** The cluster primary: the server process npm start's supervisor started. */
    const primaryPid = () => {
      const pid = lines().findLast((line) => line.name === 'supervisor' && line.event === 'started')?.serverPid;
      if (typeof pid !== 'number') throw new Error('no server pid in the output');
      return pid;
    };
    /** The workers now running: the primary's children in /proc, each started as the primary logged. */
    const workerPids = () => {
      const started = new Set(clusterLines().flatMap((line) => (line.event === 'started' ? [line.workerPid] : [])));
      return ascending(childPids(primaryPid()).filter((pid) => started.has(pid)));
    };
    /** The process that served a request: its request log line (pino's `pid`); nothing in the answer tells. */
    const servedBy = (marker: string) =>
      until(`the request log line of ${marker}`, () => {
        const line = lines().find((l) => l.msg === 'incoming request' && (l.req as { url?: string } | undefined)?.url?.includes(marker));
        return typeof line?.pid === 'number' && line.pid;
      });
    /** Sends requests on new connections until each of `pids` has served one. */
    const servingFrom = async (pids: number[]) => {
      const served = new Set<number>();
      await until(`requests served by ${pids.join(' and ')}`, async () => {
        const marker = randomBytes(6).toString('hex');
        expect(await getOnNewConnection(`${running().url}/api/health/live?probe=${marker}`)).toBe(200);
        served.add(await servedBy(marker));
        return pids.every((pid) => served.has(pid));
      });
      return ascending(served);
    };

    beforeAll(async () => {
      sink = await startSmtpSink();
      // An empty database: the primary is seen running every migration.
      server = await startServerProcess(
        database.empty(),
        {
          WORKERS: String(WORKERS),
          // Request log lines tell which worker served a request.
          LOG_LEVEL: 'info',
          SMTP_URL: sink.url,
          MAIL_POLL_SECONDS: '1',
          MAIL_RETRY_SECONDS: '1',
          MAIL_MAX_ATTEMPTS: '50',
          DIGEST_INTERVAL_SECONDS: '1',
          PREVIEW_ALLOW_PRIVATE: 'true',
          PREVIEW_TIMEOUT_MS: '30000',
        },
        'npm start',
      );
      db = openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
    });
    afterAll(async () => {
      await db?.close();
      await server?.destroy();
      await sink?.close();
    });

    test('the primary migrates once, then requests are served by its two workers', async () => {
      const workers = await until('two workers running', () => workerPids().length === WORKERS && workerPids());
      expect(clusterLines().filter((line) => line.event === 'migrated')).toEqual([
        expect.objectContaining({ msg: expect.stringMatching(/^database schema up to date \(applied .*0001_core_schema.*\); starting 2 workers$/) }),
      ]);
      expect(clusterLines().filter((line) => line.event === 'started').map((line) => line.worker)).toEqual([1, 2]);
      expect(workers).not.toContain(primaryPid());
      expect(await servingFrom(workers)).toEqual(workers);
    });

    test('a worker killed with kill -9 is logged by the primary and replaced; the primary and its migration stay', async () => {
      const primary = primaryPid();
      const [victim, survivor] = workerPids() as [number, number];
      process.kill(victim, 'SIGKILL');
      const crashed = await until('the crash in the primary log', () =>
        clusterLines().find((line) => line.event === 'crashed' && line.workerPid === victim),
      );
      expect(crashed).toMatchObject({
        signal: 'SIGKILL',
        cause: 'killed (kill -9, or the system ran out of memory)',
        restartInMs: 250,
        msg: expect.stringMatching(new RegExp(`^worker ${crashed.worker} \\(pid ${victim}, up [\\d.]+ s\\) crashed with signal SIGKILL`)),
      });
      const replacement = await until("a new worker in the crashed one's place", () => {
        const pids = workerPids();
        return pids.length === WORKERS && !pids.includes(victim) && pids.find((pid) => pid !== survivor);
      });
      expect(clusterLines().findLast((line) => line.event === 'started')).toMatchObject({ worker: crashed.worker, workerPid: replacement });
      expect(await servingFrom([survivor, replacement])).toEqual(ascending([survivor, replacement]));
      expect(primaryPid()).toBe(primary);
      expect(clusterLines().filter((line) => line.event === 'migrated')).toHaveLength(1);
      expect(lines().filter((line) => line.name === 'supervisor' && line.event === 'crashed')).toEqual([]);
    });

    test('a session signed out through one worker is refused by every worker on its next request', async () => {
      const { url } = running();
      const user = await signedInUser(url, 'Sid Session');
      const cookie = user.cookieHeader();
      // Each new connection goes to the next worker: both read the session (and trust it a while).
      for (let i = 0; i < 2 * WORKERS; i++) expect(await getOnNewConnection(`${url}/api/me`, { cookie })).toBe(200);
      await user.api.signOut();
      for (let i = 0; i < 2 * WORKERS; i++) expect(await getOnNewConnection(`${url}/api/me`, { cookie })).toBe(401);
    });

    test('concurrent likes and resource adds through both workers all succeed and every counter equals its rows', async () => {
      const { url } = running();
      const owner = await signedInUser(url, 'Cora Cluster');
      const links = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          owner.api.createLink({
            title: `Liked in parallel ${i}`,
            description: 'Liked by everyone at once',
            url: `https://example.com/parallel-${i}`,
            thumbnailUrl: '',
            format: 'article',
            topicIds: [],
            isOriginalContent: false,
          }),
        ),
      );
      const likers = await Promise.all(Array.from({ length: 6 }, (_, i) => signedInUser(url, `Liker ${i}`)));
      const collection = await createCollection(owner, { title: 'Filled in parallel' });
      // 40 requests at once: fetch opens a connection per request in flight, spread over the workers.
      await Promise.all([
        ...likers.flatMap((liker) => links.map((link) => liker.api.toggleLike(link.id))),
        ...Array.from({ length: 10 }, (_, i) =>
          owner.api.addResource(collection.id, { link: { title: `Added ${i}`, description: 'x', url: `https://example.com/added-${i}` } }),
        ),
      ]);
      for (const link of links) expect((await owner.api.getLink(link.id)).likes).toBe(likers.length);
      expect((await owner.api.getSupercuration(collection.id)).linksCount).toBe(10);
      expect(await counterMismatches(db as Db)).toEqual([]);
    });

    test('mail queued in both workers (confirmations, a digest) is sent exactly once', async () => {
      const { url } = running();
      const smtp = sink as SmtpSink;
      const kysely = (db as Db).kysely;
      const owner = await signedInUser(url, 'Mona Many');
      const collection = await createCollection(owner, { isPublic: true, title: 'News for all' });
      const visitors = Array.from({ length: 8 }, () => testClient(url).api);
      const confirmations = visitors.map((_, i) => `confirm-${i}@example.com`);
      await Promise.all(visitors.map((visitor, i) => visitor.subscribeByEmail(collection.id, confirmations[i] as string)));

      // Confirmed readers of the collection: both workers' digest timers find it due, one claims it.
      const day = 86_400_000;
      const readers = Array.from({ length: 60 }, (_, i) => `reader-${i}@example.com`);
      const longAgo = new Date(Date.now() - day).toISOString();
      await kysely
        .insertInto('email_subscribers')
        .values(
          readers.map((email) => ({
            id: randomBytes(12).toString('hex'),
            supercuration_id: collection.id,
            email,
            confirmed_at: longAgo,
            token_hash: randomBytes(32).toString('hex'),
            created_at: longAgo,
            confirm_sent_at: longAgo,
          })),
        )
        .execute();
      await kysely.insertInto('digest_state').values({ supercuration_id: collection.id, last_sent_at: longAgo }).execute();
      await owner.api.addResource(collection.id, { link: { title: 'Fresh', description: 'x', url: 'https://example.com/fresh' } });

      await until(
        'the digest queued and every mail sent',
        async () => {
          const digests = await kysely.selectFrom('mail_outbox').select('id').where('kind', '=', 'digest').execute();
          const counts = await outboxCounts(db as Db);
          return digests.length > 0 && Object.keys(counts).join() === 'sent';
        },
        45_000,
      );
      const rows = await kysely.selectFrom('mail_outbox').select(['message_id', 'recipient', 'kind']).execute();
      expect(rows.filter((r) => r.kind === 'digest').map((r) => r.recipient).sort()).toEqual([...readers].sort());
      const mine = new Set([owner.input.email, ...confirmations, ...readers]);
      const received = smtp.received.filter((m) => m.to.some((to) => mine.has(to)));
      expect(received.map((m) => m.to.join(',')).sort()).toEqual([...mine].sort());
      const ids = received.map(messageIdOf);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(rows.filter((r) => mine.has(r.recipient)).map((r) => r.message_id).sort());
    });

    test('SIGTERM lets every worker finish its in-flight requests; npm start exits 0 within 10 s', async () => {
      const { url } = running();
      const site = await startHeldSite();
      try {
        const user = await signedInUser(url, 'Patty Patient');
        const workers = workerPids();
        const preview = user.fetch(`${url}/api/preview?url=${encodeURIComponent(site.url)}`);
        await until('the preview fetch in flight', site.asked);

        const stoppedAt = Date.now();
        const stopped = running().stop();
        await until('every worker shutting down', () =>
          workers.every((pid) => lines().some((line) => line.pid === pid && line.msg === SHUTDOWN_MESSAGE)),
        );
        site.release();
        const res = await preview;
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ title: 'Held page' });
        expect(await stopped).toBe(0);
        expect(Date.now() - stoppedAt).toBeLessThan(10_000);

        const ended = clusterLines().filter((line) => line.event === 'ended');
        expect(ascending(ended.map((line) => line.workerPid as number))).toEqual(workers);
        expect(ended.map((line) => line.cause)).toEqual(workers.map(() => 'stopped cleanly'));
        expect(lines().filter((line) => line.name === 'supervisor').at(-1)).toMatchObject({ event: 'ended', exitCode: 0 });
        expect(childPids(primaryPid())).toEqual([]);
      } finally {
        site.release();
        await site.close();
      }
    });
  });
}
