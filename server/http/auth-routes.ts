import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MSG, changePasswordSchema, loginSchema, registerSchema } from '../../shared/domain';
import type { Auth } from '../auth';
import type { Config } from '../config';
import type { Db } from '../db';
import { chosenPasswordSchema } from '../services/passwords';
import { rateLimitCounter } from '../services/rate-limits';
import { zodErrorBody } from './errors';
import { databaseStore } from './rate-limit-stores';

/** Better Auth's error codes, in the words of SPEC §8. */
const AUTH_MESSAGES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: MSG.invalidCredentials,
  INVALID_EMAIL: MSG.emailInvalid,
  USER_ALREADY_EXISTS: MSG.emailInUse,
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: MSG.emailInUse,
  PASSWORD_TOO_SHORT: MSG.passwordTooShort,
  PASSWORD_TOO_LONG: MSG.passwordTooLong,
  INVALID_PASSWORD: MSG.currentPasswordWrong,
};

export interface AuthEndpoint {
  method: 'POST';
  /** Better Auth's path, under /api/auth. */
  path: string;
  /** Better Auth gets this schema's output (parsed async), never the request's own body or query. */
  body: z.ZodType;
  /** Counted against AUTH_RATE_LIMIT per client address per minute, in the database: all processes share it. */
  limited: boolean;
  /** The message of a failure Better Auth's code doesn't name. */
  failure: string;
}

/**
 * The Better Auth endpoints the app uses, the only ones mounted: any other path under /api/auth
 * answers 404. tests/integration/auth-endpoints.test.ts classifies every endpoint of the library
 * against this table, so an endpoint a Better Auth upgrade adds fails it until it is listed here
 * (with its schema) or as closed there.
 */
export const AUTH_ENDPOINTS: readonly AuthEndpoint[] = [
  {
    method: 'POST',
    path: '/sign-up/email',
    body: registerSchema.extend({ password: chosenPasswordSchema }),
    limited: true,
    failure: MSG.signUpFailed,
  },
  { method: 'POST', path: '/sign-in/email', body: loginSchema, limited: true, failure: MSG.signInFailed },
  { method: 'POST', path: '/sign-out', body: z.object({}), limited: false, failure: MSG.signOutFailed },
  {
    method: 'POST',
    path: '/change-password',
    body: changePasswordSchema.extend({ newPassword: chosenPasswordSchema }),
    limited: true,
    failure: MSG.authFailed,
  },
];

interface Deps {
  auth: Auth;
  config: Config;
  db: Db;
}

/** Mounts the allowed Better Auth endpoints under /api/auth, each behind its schema (and its rate limit). */
export function registerAuthRoutes(app: FastifyInstance, { auth, config, db }: Deps): void {
  const sharedStore = databaseStore(rateLimitCounter(db));
  const limited = {
    config: { rateLimit: { max: config.authRateLimit, timeWindow: '1 minute', store: sharedStore } },
  };

  async function forward(endpoint: AuthEndpoint, req: FastifyRequest, reply: FastifyReply) {
    const parsed = await endpoint.body.safeParseAsync(req.body ?? {});
    if (!parsed.success) return reply.status(400).send(zodErrorBody(parsed.error));
    const res = await auth.handler(
      new Request(new URL(`/api/auth${endpoint.path}`, config.publicUrl), {
        method: endpoint.method,
        headers: fromNodeHeaders(req.headers),
        body: JSON.stringify(parsed.data),
      }),
    );
    reply.status(res.status);
    res.headers.forEach((value, key) => {
      if (key !== 'set-cookie' && key !== 'content-length') reply.header(key, value);
    });
    const cookies = res.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    const text = await res.text();
    if (res.ok) return reply.send(text);
    const data = safeJson(text) as { code?: string } | undefined;
    const code = data?.code ?? 'AUTH_ERROR';
    let message = AUTH_MESSAGES[code] ?? endpoint.failure;
    // Never tell a stranger whether the e-mail or the password was wrong.
    if (endpoint.path === '/sign-in/email' && res.status < 500 && res.status !== 429) message = MSG.invalidCredentials;
    return reply.type('application/json').send({ error: message, code });
  }

  for (const endpoint of AUTH_ENDPOINTS) {
    app.route({
      method: endpoint.method,
      url: `/api/auth${endpoint.path}`,
      ...(endpoint.limited ? limited : {}),
      handler: (req, reply) => forward(endpoint, req, reply),
    });
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
