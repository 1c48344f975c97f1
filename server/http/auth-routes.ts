import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MSG, registerSchema } from '../../shared/domain';
import type { Auth } from '../auth';
import type { Config } from '../config';
import type { Db } from '../db';
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
};

function fallbackMessage(path: string): string {
  if (path.startsWith('/api/auth/sign-in')) return MSG.signInFailed;
  if (path.startsWith('/api/auth/sign-up')) return MSG.signUpFailed;
  if (path.startsWith('/api/auth/sign-out')) return MSG.signOutFailed;
  return MSG.authFailed;
}

/**
 * Mounts Better Auth on /api/auth/*. Sign-in and sign-up get their own routes so they can be
 * rate limited; sign-up input is checked with the shared schema first so its messages match
 * the web form's.
 */
interface Deps {
  auth: Auth;
  config: Config;
  db: Db;
}

export function registerAuthRoutes(app: FastifyInstance, { auth, config, db }: Deps): void {
  async function forward(req: FastifyRequest, reply: FastifyReply, body?: unknown) {
    const path = req.url.split('?')[0] ?? req.url;
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const payload = body ?? req.body;
    const res = await auth.handler(
      new Request(new URL(req.url, config.publicUrl), {
        method: req.method,
        headers: fromNodeHeaders(req.headers),
        body: hasBody ? JSON.stringify(payload ?? {}) : undefined,
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
    let message = AUTH_MESSAGES[code] ?? fallbackMessage(path);
    // Never tell a stranger whether the e-mail or the password was wrong.
    if (path === '/api/auth/sign-in/email' && res.status < 500 && res.status !== 429) message = MSG.invalidCredentials;
    return reply.type('application/json').send({ error: message, code });
  }

  const sharedStore = databaseStore(rateLimitCounter(db));
  const limited = {
    config: { rateLimit: { max: config.authRateLimit, timeWindow: '1 minute', store: sharedStore } },
  };

  app.post('/api/auth/sign-in/email', limited, (req, reply) => forward(req, reply));
  app.post('/api/auth/sign-up/email', limited, (req, reply) => {
    const parsed = registerSchema.safeParse(req.body ?? {});
    if (!parsed.success) return reply.status(400).send(zodErrorBody(parsed.error));
    return forward(req, reply, parsed.data);
  });
  app.route({ method: ['GET', 'POST'], url: '/api/auth/*', handler: (req, reply) => forward(req, reply) });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
