import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { AVATAR_MAX_BYTES, MSG } from '../shared/domain';
import { type Auth, type PasswordHashing, createAuth } from './auth';
import { type Config, trustedOriginMatcher } from './config';
import type { Db } from './db';
import { registerAccountRoutes } from './http/account-routes';
import { registerApiTokenRoutes } from './http/api-token-routes';
import { registerApiDocs } from './http/api-docs';
import { validatorCompiler } from './http/api-route';
import { registerAuthRoutes } from './http/auth-routes';
import { registerCaching } from './http/caching';
import { registerCompression } from './http/compression';
import { profilePage, registerFollowingRoutes } from './http/following-routes';
import { registerEmailSubscriptionRoutes } from './http/email-subscription-routes';
import { registerFediverseFollowerRoutes } from './http/fediverse-follower-routes';
import { forbidden, tooManyRequests } from './errors';
import { registerErrorHandler } from './http/errors';
import { registerHealthRoutes } from './http/health-routes';
import { registerImageProxyRoutes } from './http/image-proxy-routes';
import { registerImportRoutes } from './http/import-routes';
import { registerJsonBodyParser } from './http/json-body';
import { linkPage, registerLinkRoutes } from './http/link-routes';
import { registerReadableCopyRoutes } from './http/readable-copy-routes';
import { registerSearchRoutes } from './http/search-routes';
import { mayReadCopy } from './services/readable-copies';
import { createExtractor } from './readable/extractor';
import { registerPreviewRoutes } from './http/preview-routes';
import { createPreviewService } from './preview/service';
import { startPreviewWorker } from './services/import-previews';
import { startNewLinkJobsWorker } from './services/new-link-jobs';
import { createLinkFetcher, startLinkChecker } from './services/link-checks';
import { createPageFetcher, startReadableCopyWorker } from './services/readable-copy-worker';
import { startSearchIndexMerger } from './services/search-index-merger';
import { sharedLimits } from './http/rate-limit-stores';
import { registerSecurityHeaders } from './http/security-headers';
import { sessionReader } from './http/session';
import { publicSupercurationPage, registerSupercurationRoutes } from './http/supercuration-routes';
import { registerTopicRoutes } from './http/topic-routes';
import { registerUploadRoutes } from './http/upload-routes';
import { registerUserRoutes } from './http/user-routes';
import { readInProcess, visitorReads } from './http/visitor-reads';
import { registerWebRoutes } from './http/web-routes';
import { startDigestTimer } from './mail/digest-timer';
import { type Mailer, createMailer } from './mail/mailer';
import { type OutboxWorker, startOutboxWorker } from './mail/outbox';
import { createImageVariants, imageCacheDir } from './services/image-variants';
import { diskStorage } from './storage/uploads';

/** JSON bodies are small; uploads go through multipart with their own limit. */
const JSON_BODY_LIMIT = 1024 * 1024;

export interface App {
  server: FastifyInstance;
  auth: Auth;
  /** SMTP_URL, or .eml files in DATA_DIR/mail/; closed with the server. */
  mailer: Mailer;
  /** The mail outbox worker of this process (server/mail/outbox.ts); stopped with the server. */
  outbox: OutboxWorker;
}

export interface BuildOptions {
  /** Called for every route as it is registered (Fastify's onRoute hook), e.g. to list the route table. */
  onRoute?: (route: RouteOptions) => void;
  /** Password hashing other than Better Auth's own (the in-process test servers reuse results). */
  password?: PasswordHashing;
}

export async function buildApp(config: Config, db: Db, options: BuildOptions = {}): Promise<App> {
  const server = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.cookie', 'req.headers.authorization'] },
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: config.trustProxy,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  if (options.onRoute) server.addHook('onRoute', options.onRoute);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: server.log });
  // Every e-mail is queued in mail_outbox and sent by this worker, with retries (server/mail/outbox.ts).
  const outbox = startOutboxWorker({
    db,
    mailer,
    log: server.log,
    options: { pollSeconds: config.mailPollSeconds, retrySeconds: config.mailRetrySeconds, maxAttempts: config.mailMaxAttempts },
  });
  const auth = createAuth(config, db, outbox.wake, options.password);
  const limits = sharedLimits(config, db, server.log);
  const session = sessionReader({
    auth,
    db,
    secret: config.authSecret,
    secureCookies: config.secureCookies,
    // Failed API tokens count per client like sign-ins, where all processes share the count.
    hit: limits.hit,
    bearerFailureLimit: config.authRateLimit,
  });
  const storage = diskStorage(config.uploadsDir);
  const variants = createImageVariants({ dir: imageCacheDir(config), maxBytes: config.imageCacheMb * 1024 * 1024, log: server.log });
  const isTrustedOrigin = trustedOriginMatcher(config);
  const mailDeps = { db, wakeOutbox: outbox.wake, publicUrl: config.publicUrl, secret: config.authSecret, log: server.log };
  // Link previews, asked for by the web app and fetched in the background for imported links.
  const previews = createPreviewService({
    db,
    allowPrivate: config.previewAllowPrivate,
    timeoutMs: config.previewTimeoutMs,
    publicUrl: config.publicUrl,
    log: server.log,
  });
  const importPreviews = startPreviewWorker({ db, previews, perMinute: config.importPreviewPerMinute, log: server.log });
  const linkChecks = startLinkChecker({
    db,
    fetcher: createLinkFetcher({ allowPrivate: config.previewAllowPrivate, timeoutMs: config.previewTimeoutMs, publicUrl: config.publicUrl }),
    perMinute: config.linkCheckPerMinute,
    log: server.log,
  });
  // Readable copies: pages are parsed in a thread of their own (server/readable/extractor.ts).
  const extractor = createExtractor();
  const readableCopies = startReadableCopyWorker({
    db,
    extractor,
    fetchPage: createPageFetcher({ allowPrivate: config.previewAllowPrivate, timeoutMs: config.previewTimeoutMs, publicUrl: config.publicUrl }),
    perMinute: config.readableCopyPerMinute,
    log: server.log,
  });
  const searchMerger = startSearchIndexMerger({ db, log: server.log });
  const newLinkJobs = startNewLinkJobsWorker({ db, log: server.log });
  // Digests of new resources and personal digests: DB-claimed jobs, safe with several server processes
  // (server/mail/digest.ts, server/mail/reader-digest.ts).
  const stopDigests = startDigestTimer({ ...mailDeps, intervalSeconds: config.digestIntervalSeconds });
  server.addHook('onClose', async () => {
    await stopDigests();
    await importPreviews.stop();
    await linkChecks.stop();
    await readableCopies.stop();
    await searchMerger.stop();
    await newLinkJobs.stop();
    await extractor.close();
    await outbox.stop();
    await mailer.close();
    await limits.close();
  });

  registerErrorHandler(server);
  server.setValidatorCompiler(validatorCompiler);
  registerJsonBodyParser(server);
  registerSecurityHeaders(server, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        // react-hot-toast and Radix set inline styles; no inline scripts are allowed.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: config.secureCookies ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.secureCookies,
  });
  await server.register(rateLimit, {
    global: false,
    // Every limit holds across processes and machines: counted in the database, or in Redis.
    ...limits.pluginOptions,
    errorResponseBuilder: () => tooManyRequests(MSG.tooManyRequests),
  });
  // Caching first: its ETag is of the uncompressed body, and a 304 has nothing to compress.
  registerCaching(server, session.hasCredentials);
  await registerCompression(server);
  await server.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 } });

  // Writes sent by a page of another origin are refused (CSRF); clients without a browser send no Origin.
  // Only /api/ is checked: POST /subscriptions/unsubscribe (RFC 8058 one-click) is exempt on purpose,
  // as mail clients post it from anywhere without cookies; its signed token is the authorisation.
  // (Callback-style hooks: they run on every request and need no promise.)
  server.addHook('onRequest', (req, _reply, done) => {
    const write = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS';
    const origin = req.headers.origin;
    if (write && origin && req.url.startsWith('/api/') && !isTrustedOrigin(origin)) {
      done(forbidden('Request origin not allowed'));
      return;
    }
    done();
  });

  // Thumbnails (our image proxy, uploads) are also shown by the browser extension's pages, another
  // origin: they may be embedded cross-origin. They hold nothing private (cookies are SameSite=Lax,
  // so another site embedding them gets what a visitor gets).
  server.addHook('onSend', (req, reply, payload, done) => {
    if (req.url.startsWith('/api/images/proxy') || req.url.startsWith('/api/uploads/')) {
      reply.header('cross-origin-resource-policy', 'cross-origin');
    }
    done(null, payload);
  });

  // A response sent once the server is closing (SIGTERM) ends its connection: left open for
  // keep-alive, it would hold close(), which waits for every connection, until the client dropped it.
  let closing = false;
  server.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  server.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  await registerApiDocs(server);
  registerHealthRoutes(server, db);
  registerAuthRoutes(server, { auth, config, session, hit: limits.hit });
  const reads = visitorReads(db, { fediverseHost: config.federation ? new URL(config.publicUrl).host : null });
  registerUserRoutes(server, { db, storage, session, reads });
  registerAccountRoutes(server, { db, session });
  registerApiTokenRoutes(server, { db, session });
  registerLinkRoutes(server, { db, session, reads, extractor });
  registerReadableCopyRoutes(server, { db, session });
  registerSearchRoutes(server, { db, session });
  registerImportRoutes(server, { db, session, config, onImported: importPreviews.wake });
  registerTopicRoutes(server, { db, session });
  registerSupercurationRoutes(server, { db, session, publicUrl: config.publicUrl, reads });
  registerUploadRoutes(server, { storage, session, variants });
  registerPreviewRoutes(server, { session, previews });
  registerImageProxyRoutes(server, { db, storage, session, config, variants });
  registerFollowingRoutes(server, { db, session, publicUrl: config.publicUrl });
  registerEmailSubscriptionRoutes(server, { ...mailDeps, session });
  registerFediverseFollowerRoutes(server, { db, session });
  if (config.federation) {
    const { registerFederationRoutes } = await import('./http/federation-routes');
    await registerFederationRoutes(server, {
      db,
      publicUrl: config.publicUrl,
      allowPrivateAddress: config.previewAllowPrivate,
      timeoutMs: config.previewTimeoutMs,
      blockedHosts: config.federationBlockedHosts,
      log: server.log,
    });
  }
  await registerWebRoutes(server, config.webDir, {
    metaPages: [linkPage(db, config.publicUrl), publicSupercurationPage(config.publicUrl), profilePage(db, config.publicUrl)],
    privatePages: [{ path: '/links/:id/read', mayOpen: async (req, { id = '' }) => mayReadCopy(db.kysely, await session.viewerOf(req), id) }],
    hasSessionCookie: session.hasSessionCookie,
    readInProcess: readInProcess(reads),
  });
  return { server, auth, mailer, outbox };
}
