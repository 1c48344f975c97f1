import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const url = (name: string, protocols: string[]) =>
  z
    .string()
    .trim()
    .refine((v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, `${name} must be a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL`);

/** A browser extension's origin: one extension (its id) or `*` for every extension of that browser. */
const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension|safari-web-extension):\/\/([a-z0-9-]+|\*)$/i;
/** Any installed extension may talk to the server: see docs/decisions.md ("The browser extension"). */
const DEFAULT_EXTENSION_ORIGINS = 'chrome-extension://*,moz-extension://*';

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
}

/** WORKERS when unset: one server process per core, up to this many (docs/decisions.md, "All cores: WORKERS"). */
const DEFAULT_MAX_WORKERS = 8;
const MAX_WORKERS = 64;

const envSchema = z.object({
  PORT: z.coerce.number({ error: 'PORT must be a number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  PUBLIC_URL: url('PUBLIC_URL', ['http:', 'https:']).optional(),
  DATABASE_URL: url('DATABASE_URL', ['postgres:', 'postgresql:']).optional(),
  SMTP_URL: url('SMTP_URL', ['smtp:', 'smtps:']).optional(),
  REDIS_URL: url('REDIS_URL', ['redis:', 'rediss:']).optional(),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:._-]{1,64}$/, 'REDIS_KEY_PREFIX must be 1 to 64 letters, digits or : . _ -')
    .default('supercurate:'),
  UPLOADS_DIR: z.string().trim().min(1).optional(),
  MAIL_FROM: z.string().trim().min(3).default('Supercurate <no-reply@localhost>'),
  AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters').optional(),
  AUTH_RATE_LIMIT: z.coerce
    .number({ error: 'AUTH_RATE_LIMIT must be a number' })
    .int()
    .min(1, 'AUTH_RATE_LIMIT must be at least 1')
    .default(10),
  TRUSTED_ORIGINS: z.string().default(''),
  EXTENSION_ORIGINS: z
    .string()
    .trim()
    .default(DEFAULT_EXTENSION_ORIGINS)
    .refine(
      (v) => v === 'none' || splitList(v).every((o) => EXTENSION_ORIGIN.test(o)),
      'EXTENSION_ORIGINS must be "none" or a comma-separated list like chrome-extension://<id>, chrome-extension://* or moz-extension://*',
    ),
  TRUST_PROXY: bool,
  PREVIEW_ALLOW_PRIVATE: bool,
  // Unset: on when PUBLIC_URL is https (a server the fediverse can reach); see loadConfig.
  FEDERATION: z.enum(['true', 'false', '1', '0', '']).optional(),
  FEDERATION_BLOCKED_HOSTS: z
    .string()
    .trim()
    .default('')
    .refine((v) => splitList(v).every((h) => /^[a-z0-9.-]+$/i.test(h)), 'FEDERATION_BLOCKED_HOSTS must be a comma-separated list of host names'),
  PREVIEW_TIMEOUT_MS: z.coerce
    .number({ error: 'PREVIEW_TIMEOUT_MS must be a number' })
    .int()
    .min(100, 'PREVIEW_TIMEOUT_MS must be at least 100')
    .max(60_000, 'PREVIEW_TIMEOUT_MS must be at most 60000')
    .default(5000),
  IMAGE_CACHE_MB: z.coerce
    .number({ error: 'IMAGE_CACHE_MB must be a number' })
    .int()
    .min(1, 'IMAGE_CACHE_MB must be at least 1')
    .max(1_048_576, 'IMAGE_CACHE_MB must be at most 1048576')
    .default(256),
  IMPORT_PREVIEW_PER_MINUTE: z.coerce
    .number({ error: 'IMPORT_PREVIEW_PER_MINUTE must be a number' })
    .int()
    .min(0, 'IMPORT_PREVIEW_PER_MINUTE must be at least 0')
    .max(6000, 'IMPORT_PREVIEW_PER_MINUTE must be at most 6000')
    .default(120),
  LINK_CHECK_PER_MINUTE: z.coerce
    .number({ error: 'LINK_CHECK_PER_MINUTE must be a number' })
    .int()
    .min(0, 'LINK_CHECK_PER_MINUTE must be at least 0')
    .max(6000, 'LINK_CHECK_PER_MINUTE must be at most 6000')
    .default(60),
  READABLE_COPY_PER_MINUTE: z.coerce
    .number({ error: 'READABLE_COPY_PER_MINUTE must be a number' })
    .int()
    .min(0, 'READABLE_COPY_PER_MINUTE must be at least 0')
    .max(6000, 'READABLE_COPY_PER_MINUTE must be at most 6000')
    .default(30),
  DIGEST_INTERVAL_SECONDS: z.coerce
    .number({ error: 'DIGEST_INTERVAL_SECONDS must be a number' })
    .int()
    .min(1, 'DIGEST_INTERVAL_SECONDS must be at least 1')
    .default(3600),
  MAIL_POLL_SECONDS: z.coerce
    .number({ error: 'MAIL_POLL_SECONDS must be a number' })
    .int()
    .min(1, 'MAIL_POLL_SECONDS must be at least 1')
    .max(3600, 'MAIL_POLL_SECONDS must be at most 3600')
    .default(10),
  MAIL_RETRY_SECONDS: z.coerce
    .number({ error: 'MAIL_RETRY_SECONDS must be a number' })
    .int()
    .min(1, 'MAIL_RETRY_SECONDS must be at least 1')
    .max(3600, 'MAIL_RETRY_SECONDS must be at most 3600')
    .default(60),
  MAIL_MAX_ATTEMPTS: z.coerce
    .number({ error: 'MAIL_MAX_ATTEMPTS must be a number' })
    .int()
    .min(1, 'MAIL_MAX_ATTEMPTS must be at least 1')
    .max(100, 'MAIL_MAX_ATTEMPTS must be at most 100')
    .default(8),
  WORKERS: z.coerce
    .number({ error: 'WORKERS must be a number' })
    .int('WORKERS must be a whole number of processes')
    .min(1, 'WORKERS must be at least 1 (1 runs one server process, without a cluster)')
    .max(MAX_WORKERS, `WORKERS must be at most ${MAX_WORKERS}`)
    .default(() => Math.min(availableParallelism(), DEFAULT_MAX_WORKERS)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIR: z.string().trim().min(1).optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Uploaded and proxied images (UPLOADS_DIR, DATA_DIR/uploads by default): shared by every server of an install. */
  uploadsDir: string;
  publicUrl: string;
  /** PUBLIC_URL is https: cookies get `Secure` (and Better Auth's `__Secure-` prefix), HSTS is sent. */
  secureCookies: boolean;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  /** Rate-limit counters go to this Redis instead of the database (REDIS_URL). */
  redisUrl: string | undefined;
  /** Prefix of every key written to Redis, so that several installs or test runs can share one. */
  redisKeyPrefix: string;
  mailFrom: string;
  authSecret: string;
  /** Sign-in / sign-up attempts allowed per client address per minute, each. */
  authRateLimit: number;
  /** Origins allowed to make credentialed writes besides PUBLIC_URL (e.g. the extension's). */
  trustedOrigins: string[];
  /**
   * Browser-extension origins allowed like trustedOrigins: `chrome-extension://<id>`, or
   * `chrome-extension://*` / `moz-extension://*` for any extension of that browser (the default).
   */
  extensionOrigins: string[];
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. */
  trustProxy: boolean;
  previewAllowPrivate: boolean;
  /**
   * ActivityPub (FEDERATION): public collections and their curators can be found and followed from
   * Mastodon and other fediverse servers (server/federation/). Unset: on when PUBLIC_URL is https
   * (Mastodon follows no http server; a server on localhost would show handles nobody can reach).
   */
  federation: boolean;
  /** Fediverse servers refused (FEDERATION_BLOCKED_HOSTS): their activities and their followers, subdomains included. */
  federationBlockedHosts: string[];
  /** Overall deadline of one link-preview fetch (DNS, redirects and body), 5 s by default. */
  previewTimeoutMs: number;
  /** Disk space the resized thumbnails (DATA_DIR/cache/images) may take, in MB (IMAGE_CACHE_MB). */
  imageCacheMb: number;
  /** At most one digest e-mail per collection per this many seconds (DIGEST_INTERVAL_SECONDS). */
  /** Previews of imported links fetched per minute, all server processes together (0: none). */
  importPreviewPerMinute: number;
  /** Link-health checks per minute, all server processes together (0: none). */
  linkCheckPerMinute: number;
  /** Pages fetched per minute for readable copies, all server processes together (0: none). */
  readableCopyPerMinute: number;
  digestIntervalSeconds: number;
  /** The mail outbox worker looks for due mail this often, besides being woken on queueing (MAIL_POLL_SECONDS). */
  mailPollSeconds: number;
  /** First retry delay of a failed send; doubles per attempt (MAIL_RETRY_SECONDS). */
  mailRetrySeconds: number;
  /** Sends per e-mail before it is marked failed (MAIL_MAX_ATTEMPTS). */
  mailMaxAttempts: number;
  /** Server processes run under node:cluster (WORKERS); 1: no cluster, one process as before. */
  workers: number;
  logLevel: string;
  /** The built web app (index.html and assets). */
  webDir: string;
}

export class ConfigError extends Error {}

/**
 * The project's folder, the nearest one up holding package.json. This module runs from server/
 * in development and from a chunk in dist/chunks/ once bundled, so a path relative to it would
 * name a different folder in each.
 */
export function projectRoot(from: string = import.meta.dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return from;
  }
}

/** Reads and validates the environment; throws ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(defined);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    uploadsDir: e.UPLOADS_DIR ? path.resolve(e.UPLOADS_DIR) : path.join(dataDir, 'uploads'),
    publicUrl,
    secureCookies: publicUrl.startsWith('https:'),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    mailFrom: e.MAIL_FROM,
    authSecret: e.AUTH_SECRET ?? persistedSecret(dataDir, 'auth-secret'),
    authRateLimit: e.AUTH_RATE_LIMIT,
    trustedOrigins: splitList(e.TRUSTED_ORIGINS),
    extensionOrigins: e.EXTENSION_ORIGINS === 'none' ? [] : splitList(e.EXTENSION_ORIGINS),
    trustProxy: e.TRUST_PROXY,
    previewAllowPrivate: e.PREVIEW_ALLOW_PRIVATE,
    federation: e.FEDERATION ? e.FEDERATION === 'true' || e.FEDERATION === '1' : publicUrl.startsWith('https:'),
    federationBlockedHosts: splitList(e.FEDERATION_BLOCKED_HOSTS).map((h) => h.toLowerCase()),
    previewTimeoutMs: e.PREVIEW_TIMEOUT_MS,
    imageCacheMb: e.IMAGE_CACHE_MB,
    importPreviewPerMinute: e.IMPORT_PREVIEW_PER_MINUTE,
    linkCheckPerMinute: e.LINK_CHECK_PER_MINUTE,
    readableCopyPerMinute: e.READABLE_COPY_PER_MINUTE,
    digestIntervalSeconds: e.DIGEST_INTERVAL_SECONDS,
    mailPollSeconds: e.MAIL_POLL_SECONDS,
    mailRetrySeconds: e.MAIL_RETRY_SECONDS,
    mailMaxAttempts: e.MAIL_MAX_ATTEMPTS,
    workers: e.WORKERS,
    logLevel: e.LOG_LEVEL,
    webDir: e.WEB_DIR ? path.resolve(e.WEB_DIR) : path.join(projectRoot(), 'dist', 'web'),
  };
}

/**
 * Whether a request's Origin may make signed-in writes: PUBLIC_URL, TRUSTED_ORIGINS, or an
 * extension origin of EXTENSION_ORIGINS (`scheme://*` matches any extension id of that scheme).
 */
export function trustedOriginMatcher(config: Pick<Config, 'publicUrl' | 'trustedOrigins' | 'extensionOrigins'>) {
  const exact = new Set([config.publicUrl, ...config.trustedOrigins]);
  const anyOf: string[] = [];
  for (const origin of config.extensionOrigins) {
    if (origin.endsWith('://*')) anyOf.push(origin.slice(0, -1).toLowerCase());
    else exact.add(origin);
  }
  return (origin: string): boolean => {
    if (exact.has(origin)) return true;
    const lower = origin.toLowerCase();
    return anyOf.some((prefix) => lower.startsWith(prefix) && /^[a-z0-9-]+$/.test(lower.slice(prefix.length)));
  };
}

/** A secret generated on first start and kept (mode 600) in DATA_DIR/secrets/. */
function persistedSecret(dataDir: string, name: string): string {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process started at the same moment and wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
  chmodSync(file, 0o600);
  return secret;
}
