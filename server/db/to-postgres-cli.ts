import { ConfigError, loadConfig } from '../config';
import { EXIT_CONFIG } from '../supervisor';
import { CopyRefused, copySqliteToPostgres } from './to-postgres';

// `npm run migrate:to-postgres`: DATA_DIR's SQLite database into the empty PostgreSQL database of DATABASE_URL.
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(EXIT_CONFIG);
}
const { databaseUrl } = config;
if (!databaseUrl) {
  console.error('DATABASE_URL is not set: set it to the PostgreSQL database to copy into (postgres://user:pass@host:5432/db).');
  process.exit(EXIT_CONFIG);
}

const started = performance.now();
try {
  console.log(`Copying ${config.dataDir} (SQLite) into PostgreSQL ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}`);
  await copySqliteToPostgres({ ...config, databaseUrl }, (line) => console.log(line));
  console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s. Start the server with this DATABASE_URL.`);
} catch (err) {
  console.error(err instanceof CopyRefused ? err.message : `Copy failed, nothing was committed: ${err instanceof Error ? err.stack : err}`);
  process.exitCode = 1;
}
