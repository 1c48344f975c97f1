import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app';
import { authOptions } from '../../server/auth';
import { type Config, loadConfig } from '../../server/config';
import { type Db, openDatabase } from '../../server/db';
import { migrate } from '../../server/db/migrate';
import type { TestDatabase } from './databases';
import { freePort } from './free-port';
import { rememberedPasswordHashing } from './passwords';
import { type Route, routeRecorder } from './routes';

export interface TestServer {
  url: string;
  config: Config;
  db: Db;
  /** The route table, as registered (see callableRoutes in ./routes). */
  routes: Route[];
  /** Stops the server and closes its database, keeping the data (see restart). */
  stop(): Promise<void>;
  /** A new server process-equivalent on the same data and port. */
  restart(): Promise<TestServer>;
  /** A second server process-equivalent on the same database and data, on its own port; its destroy() only stops it. */
  twin(): Promise<TestServer>;
  /** Stops and deletes everything. */
  destroy(): Promise<void>;
}

/** The real app over real HTTP on 127.0.0.1, on a fresh database of the given kind. */
export async function startTestServer(database: TestDatabase, env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'supercurate-test-'));
  const fresh = await database.create();
  const port = await freePort();
  const cleanup = async () => {
    await fresh.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return launch({ dataDir, port, databaseUrl: fresh.databaseUrl, env, cleanup });
}

interface LaunchOptions {
  dataDir: string;
  port: number;
  databaseUrl: string | undefined;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

async function launch(opts: LaunchOptions): Promise<TestServer> {
  const config = loadConfig({
    DATA_DIR: opts.dataDir,
    PORT: String(opts.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${opts.port}`,
    LOG_LEVEL: 'silent',
    // Tests sign up many users from one address; the limit itself has its own test.
    AUTH_RATE_LIMIT: '1000',
    // Links point at made-up hosts: no background preview fetching, link checks or readable copies unless a test asks.
    IMPORT_PREVIEW_PER_MINUTE: '0',
    LINK_CHECK_PER_MINUTE: '0',
    READABLE_COPY_PER_MINUTE: '0',
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
    ...opts.env,
  });
  const db = openDatabase(config);
  await migrate(db, authOptions(config, db));
  const recorder = routeRecorder();
  const { server } = await buildApp(config, db, { onRoute: recorder.onRoute, password: rememberedPasswordHashing });
  await server.listen({ port: config.port, host: config.host });
  const stop = async () => {
    await server.close();
    await db.close();
    // Client and server share this process: let the client's sockets see the server's FIN
    // (an I/O-phase event) before the next request, or it reuses a dead keep-alive socket.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return {
    url: config.publicUrl,
    config,
    db,
    routes: recorder.routes,
    stop,
    restart: async () => {
      await stop();
      return launch(opts);
    },
    twin: async () => launch({ ...opts, port: await freePort(), cleanup: async () => {} }),
    destroy: async () => {
      await stop();
      await opts.cleanup();
    },
  };
}

/**
 * The real app on an existing SQLite data directory (an older release's, say), brought up to date
 * by the same migrate() as `npm start`. destroy() stops it and leaves the directory to the caller.
 */
export async function startTestServerOn(dataDir: string, env: Record<string, string> = {}): Promise<TestServer> {
  return launch({ dataDir, port: await freePort(), databaseUrl: undefined, env, cleanup: async () => {} });
}
