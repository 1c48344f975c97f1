import path from 'node:path';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { AVATAR_MAX_BYTES, MSG } from '../shared/domain';
import { type Auth, createAuth } from './auth';
import type { Config } from './config';
import type { Db } from './db';
import { registerAuthRoutes } from './http/auth-routes';
import { HttpError, forbidden, registerErrorHandler } from './http/errors';
import { registerHealthRoutes } from './http/health-routes';
import { registerImageProxyRoutes } from './http/image-proxy-routes';
import { linkPage, registerLinkRoutes } from './http/link-routes';
import { registerPreviewRoutes } from './http/preview-routes';
import { sessionReader } from './http/session';
import { registerTopicRoutes } from './http/topic-routes';
import { registerUploadRoutes } from './http/upload-routes';
import { registerUserRoutes } from './http/user-routes';
import { registerWebRoutes } from './http/web-routes';
import { diskStorage } from './storage/uploads';

/** JSON bodies are small; uploads go through multipart with their own limit. */
const JSON_BODY_LIMIT = 1024 * 1024;

export interface App {
  server: FastifyInstance;
  auth: Auth;
}

export async function buildApp(config: Config, db: Db): Promise<App> {
  const server = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.cookie', 'req.headers.authorization'] },
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: config.trustProxy,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  const auth = createAuth(config, db);
  const session = sessionReader({
    auth,
    db,
    secret: config.authSecret,
    secureCookies: config.secureCookies,
  });
  const storage = diskStorage(path.join(config.dataDir, 'uploads'));
  const trusted = new Set([config.publicUrl, ...config.trustedOrigins]);

  registerErrorHandler(server);
  await server.register(helmet, {
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
    errorResponseBuilder: () => new HttpError(429, MSG.tooManyRequests, 'RATE_LIMITED'),
  });
  await server.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 } });

  // Writes sent by a page of another origin are refused (CSRF); clients without a browser send no Origin.
  server.addHook('onRequest', async (req) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return;
    if (!req.url.startsWith('/api/')) return;
    const origin = req.headers.origin;
    if (origin && !trusted.has(origin)) throw forbidden('Request origin not allowed');
  });

  registerHealthRoutes(server, db);
  registerAuthRoutes(server, auth, config);
  registerUserRoutes(server, { db, storage, session });
  registerLinkRoutes(server, { db, session });
  registerTopicRoutes(server, { db, session });
  registerUploadRoutes(server, { storage, session });
  registerPreviewRoutes(server, { db, session, config });
  registerImageProxyRoutes(server, { db, storage, session, config });
  await registerWebRoutes(server, config.webDir, [linkPage(db, config.publicUrl)]);
  return { server, auth };
}
