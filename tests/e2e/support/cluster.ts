import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Db, openDatabase } from '../../../server/db';
import type { TestDatabase } from '../../support/databases';
import { freePort } from '../../support/free-port';
import { type SmtpSink, startSmtpSink } from '../../support/smtp-sink';
import { BACKEND_HEADER, type LoadBalancer, startHaproxy } from './haproxy';
import { type RunningChild, spawnServer } from './server-process';
import { snapshotWebBuild } from './web-build';

const READY_DEADLINE_MS = 30_000;
const POLL_MS = 100;

export interface Backend {
  /** Its name in HAProxy's configuration (and in the X-Backend header of its answers). */
  name: string;
  url: string;
  /** Its own SMTP server: what each backend sent is told apart. */
  sink: SmtpSink;
  readonly process: RunningChild;
}

export interface Cluster {
  /** The load balancer's address, every server's PUBLIC_URL. */
  url: string;
  backends: Backend[];
  /** The test's own connection to the servers' database. */
  db: Db;
  destroy(): Promise<void>;
}

/** Polls `check` until it answers something other than undefined or false, or the deadline passes. */
export async function until<T>(what: string, check: () => Promise<T | undefined | false>, deadlineMs = 45_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Two independent built servers (dist/server.js) behind HAProxy (deploy/haproxy.cfg), as
 * docs/scaling.md describes: one database, the same AUTH_SECRET, one uploads folder, each its own
 * DATA_DIR on PostgreSQL (on SQLite the database file is in DATA_DIR, so they share that one).
 * Each sends mail to its own SMTP sink; digests and the outbox poll every second.
 */
export async function startCluster(database: TestDatabase): Promise<Cluster> {
  const root = mkdtempSync(path.join(tmpdir(), 'supercurate-cluster-'));
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(root, { recursive: true, force: true })];
  const destroy = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const web = await snapshotWebBuild();
    cleanups.push(() => web.remove());
    const fresh = await database.create();
    cleanups.push(() => fresh.drop());
    const uploadsDir = path.join(root, 'shared-uploads');
    const lbPort = await freePort();
    const url = `http://127.0.0.1:${lbPort}`;
    const base: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      AUTH_SECRET: randomBytes(32).toString('base64url'),
      TRUST_PROXY: 'true',
      UPLOADS_DIR: uploadsDir,
      WEB_DIR: web.dir,
      MAIL_POLL_SECONDS: '1',
      DIGEST_INTERVAL_SECONDS: '1',
      IMPORT_PREVIEW_PER_MINUTE: '0',
      LINK_CHECK_PER_MINUTE: '0',
      READABLE_COPY_PER_MINUTE: '0',
      // One process per machine: the test pauses and kills a machine by its server's pid.
      WORKERS: '1',
    };
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'AUTH_RATE_LIMIT']) delete base[name];
    if (fresh.databaseUrl) base.DATABASE_URL = fresh.databaseUrl;

    const backends: Backend[] = [];
    // One after the other: the first one migrates the fresh database, as a rolling start would.
    for (const name of ['app1', 'app2']) {
      const port = await freePort();
      const sink = await startSmtpSink();
      cleanups.push(() => sink.close());
      const backendUrl = `http://127.0.0.1:${port}`;
      const dataDir = fresh.databaseUrl ? path.join(root, name) : path.join(root, 'data');
      const child = await spawnServer('dist', { ...base, DATA_DIR: dataDir, PORT: String(port), SMTP_URL: sink.url }, backendUrl);
      cleanups.push(() => child.stop().then(() => {}));
      backends.push({ name, url: backendUrl, sink, process: child });
    }

    const lb: LoadBalancer = startHaproxy(root, lbPort, backends.map((b) => Number(new URL(b.url).port)));
    cleanups.push(() => lb.stop());
    const seen = new Set<string>();
    await until(
      'HAProxy to answer from both servers',
      async () => {
        const res = await fetch(`${url}/api/health`).catch(() => null);
        const name = res?.status === 200 ? res.headers.get(BACKEND_HEADER) : null;
        if (name) seen.add(name);
        return seen.size === backends.length;
      },
      READY_DEADLINE_MS,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n--- haproxy ---\n${lb.output()}`);
    });

    const db = openDatabase({ dataDir: path.join(root, 'data'), databaseUrl: fresh.databaseUrl });
    cleanups.push(() => db.close());
    return { url, backends, db, destroy };
  } catch (err) {
    await destroy();
    throw err;
  }
}
