import cluster from 'node:cluster';
import { setFlagsFromString } from 'node:v8';
import type { FastifyBaseLogger } from 'fastify';
import { authOptions } from './auth';
import { releaseBetterAuthStorage } from './auth-storage';
import { startWorkers } from './cluster';
import { relaySessionChanges } from './http/session-cache';
import { type Config, ConfigError, loadConfig } from './config';
import { type Db, openDatabase } from './db';
import { migrate } from './db/migrate';
import { EXIT_CONFIG, EXIT_CRASH } from './supervisor';

let logger: FastifyBaseLogger | undefined;

/**
 * V8 lets the old generation grow to up to four times what its last full collection kept before it
 * collects again, which suits a browser tab, not a server with a memory budget: each 50,000-row
 * import left ~75 MB more RSS than the last (three in a row: 251, 325, 400 MB), dead objects that
 * no full collection came for. At 100% growth they peaked at 259, 308, 297 MB, with the same CPU
 * per request on the public page, directory search and add-resource routes (20% cost those
 * 18-25% more CPU: bench/README.md, "Imports by format"). Set before the app is loaded, so every
 * full collection uses it.
 */
setFlagsFromString('--heap-growing-percent=100');

/**
 * Logs the error and exits: after an uncaught error the process's state is unknown, and the
 * supervisor (npm start, or the cluster primary for a worker) restarts a clean one.
 */
function crash(what: string) {
  return (err: unknown) => {
    if (logger) logger.fatal({ err }, `${what}: exiting`);
    else console.error(`${what}: exiting`, err);
    process.exit(EXIT_CRASH);
  };
}
process.on('uncaughtException', crash('uncaught exception'));
process.on('unhandledRejection', crash('unhandled promise rejection'));

function configOrExit() {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(EXIT_CONFIG);
    }
    throw err;
  }
}

/** Runs the app on an up-to-date database until SIGTERM/SIGINT, which drain in-flight requests. */
async function serve(config: Config, db: Db) {
  // Loaded here, not by the cluster primary, which only migrates: ~35 MB less for it.
  const { buildApp } = await import('./app');
  const { server } = await buildApp(config, db);
  logger = server.log;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    server.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      server.log.error('shutdown took over 10 s, exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    await server.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await server.listen({ port: config.port, host: config.host });
  // Better Auth's start (its migrations, its context) may have enabled its storages.
  releaseBetterAuthStorage();
  server.log.info(`Supercurate is running at ${config.publicUrl} (${db.dialect})`);
}

async function main() {
  const config = configOrExit();
  // A cluster worker: its primary brought the database up to date before forking it.
  if (cluster.isWorker) return serve(config, openDatabase(config));
  const db = openDatabase(config);
  const migrated = await migrate(db, authOptions(config, db));
  if (config.workers === 1) return serve(config, db);
  await db.close();
  // Workers tell each other, through the primary, when sessions changed (server/http/session-cache.ts).
  relaySessionChanges();
  startWorkers(config.workers, migrated);
}

main().catch(crash('could not start'));
