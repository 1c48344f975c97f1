import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app';
import { authOptions } from './auth';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db';
import { migrate } from './db/migrate';
import { EXIT_CONFIG, EXIT_CRASH } from './supervisor';

let logger: FastifyBaseLogger | undefined;

/**
 * Logs the error and exits: after an uncaught error the process's state is unknown, and the
 * supervisor (npm start) restarts a clean one.
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

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(EXIT_CONFIG);
    }
    throw err;
  }
  const db = openDatabase(config);
  await migrate(db, authOptions(config, db));
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
  server.log.info(`Supercurate is running at ${config.publicUrl} (${db.dialect})`);
}

main().catch(crash('could not start'));
