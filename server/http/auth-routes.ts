import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ACCOUNT_MESSAGES,
  API_TOKEN_MESSAGES,
  MSG,
  changeEmailSchema,
  changePasswordSchema,
  deleteAccountSchema,
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resendVerificationSchema,
  resetPasswordSchema,
  revokeSessionSchema,
  verifyEmailQuerySchema,
} from '../../shared/domain';
import type { Auth } from '../auth';
import { inBetterAuth } from '../auth-storage';
import type { Config } from '../config';
import { sha256 } from '../services/email-subscriptions';
import { chosenPasswordSchema } from '../services/passwords';
import type { RateLimitHit } from '../services/rate-limits';
import { forbidden } from '../errors';
import { zodErrorBody } from './errors';
import type { SessionReader } from './session';

/** Better Auth's error codes, in the words of SPEC §8 (and ours for the account endpoints). */
const AUTH_MESSAGES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: MSG.invalidCredentials,
  INVALID_EMAIL: MSG.emailInvalid,
  USER_ALREADY_EXISTS: MSG.emailInUse,
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: MSG.emailInUse,
  PASSWORD_TOO_SHORT: MSG.passwordTooShort,
  PASSWORD_TOO_LONG: MSG.passwordTooLong,
  INVALID_PASSWORD: MSG.currentPasswordWrong,
  INVALID_TOKEN: ACCOUNT_MESSAGES.resetInvalid,
  EMAIL_ALREADY_VERIFIED: ACCOUNT_MESSAGES.alreadyVerified,
};

/** Mails per e-mail address per hour from each endpoint that sends them (whoever asks, from wherever). */
export const MAILS_PER_ADDRESS_PER_HOUR = 3;

export interface AuthEndpoint {
  method: 'GET' | 'POST';
  /** Better Auth's path, under /api/auth. */
  path: string;
  /** The body of a POST, the query of a GET: Better Auth gets this schema's output (parsed async), never the request's own. */
  input: z.ZodType;
  /** Counted against AUTH_RATE_LIMIT per client address per minute, shared by all processes (database or Redis). */
  limited: boolean;
  /** The input's field holding an address this endpoint mails: at most MAILS_PER_ADDRESS_PER_HOUR per address, shared like the rest. */
  mailsTo?: 'email' | 'newEmail';
  /** The input's `email` must be the signed-in user's own address, typed to confirm. */
  confirmsEmail?: boolean;
  /**
   * Only a signed-in session may call it: a request with an API token (`Authorization: Bearer`)
   * is refused with 403 (or 401 for a wrong token), whatever cookie it also carries.
   */
  sessionOnly?: boolean;
  /** The answer is a list of sessions: each gets `current`, whether it is this request's. */
  marksCurrentSession?: boolean;
  /** A success changes sessions or what a viewer holds (e-mail): every process reads sessions afresh (server/http/session-cache.ts). */
  changesSessions?: boolean;
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
    input: registerSchema.extend({ password: chosenPasswordSchema }),
    limited: true,
    failure: MSG.signUpFailed,
  },
  { method: 'POST', path: '/sign-in/email', input: loginSchema, limited: true, failure: MSG.signInFailed },
  { method: 'POST', path: '/sign-out', input: z.object({}), limited: false, changesSessions: true, failure: MSG.signOutFailed },
  {
    method: 'POST',
    path: '/change-password',
    input: changePasswordSchema.extend({ newPassword: chosenPasswordSchema }),
    limited: true,
    sessionOnly: true,
    changesSessions: true,
    failure: MSG.authFailed,
  },
  // Password reset. The mailed link opens the web app's form, which posts the token here.
  { method: 'POST', path: '/request-password-reset', input: forgotPasswordSchema, limited: true, mailsTo: 'email', failure: ACCOUNT_MESSAGES.resetFailed },
  {
    method: 'POST',
    path: '/reset-password',
    input: resetPasswordSchema.extend({ newPassword: chosenPasswordSchema }),
    limited: true,
    changesSessions: true,
    failure: ACCOUNT_MESSAGES.resetFailed,
  },
  // E-mail verification and change.
  {
    method: 'POST',
    path: '/send-verification-email',
    input: resendVerificationSchema,
    limited: true,
    mailsTo: 'email',
    failure: ACCOUNT_MESSAGES.verificationFailed,
  },
  { method: 'GET', path: '/verify-email', input: verifyEmailQuerySchema, limited: true, changesSessions: true, failure: ACCOUNT_MESSAGES.verifyLinkInvalid },
  { method: 'POST', path: '/change-email', input: changeEmailSchema, limited: true, mailsTo: 'newEmail', sessionOnly: true, failure: ACCOUNT_MESSAGES.emailChangeFailed },
  // Sessions.
  { method: 'GET', path: '/list-sessions', input: z.object({}), limited: false, sessionOnly: true, marksCurrentSession: true, failure: ACCOUNT_MESSAGES.sessionsFailed },
  { method: 'POST', path: '/revoke-session', input: revokeSessionSchema, limited: false, sessionOnly: true, changesSessions: true, failure: ACCOUNT_MESSAGES.signOutSessionFailed },
  { method: 'POST', path: '/revoke-other-sessions', input: z.object({}), limited: false, sessionOnly: true, changesSessions: true, failure: ACCOUNT_MESSAGES.signOutSessionFailed },
  // Deletion: the password (checked by Better Auth) and the e-mail typed (checked here).
  { method: 'POST', path: '/delete-user', input: deleteAccountSchema, limited: true, sessionOnly: true, confirmsEmail: true, changesSessions: true, failure: ACCOUNT_MESSAGES.deleteFailed },
];

interface Deps {
  auth: Auth;
  config: Config;
  session: SessionReader;
  /** The shared counter of the limits counted here (server/http/rate-limit-stores.ts). */
  hit: RateLimitHit;
}

const tooMany = { error: MSG.tooManyRequests, code: 'RATE_LIMITED' };

/** Mounts the allowed Better Auth endpoints under /api/auth, each behind its schema (and its rate limits). */
export function registerAuthRoutes(app: FastifyInstance, { auth, config, session, hit }: Deps): void {
  const limited = { config: { rateLimit: { max: config.authRateLimit, timeWindow: '1 minute' } } };

  /** A refusal before Better Auth is asked, or null. */
  async function refusal(endpoint: AuthEndpoint, input: Record<string, unknown>, req: FastifyRequest) {
    if (endpoint.confirmsEmail) {
      const viewer = await session.viewerOf(req);
      if (!viewer) return { status: 401, body: { error: MSG.notAuthenticated, code: 'UNAUTHORIZED' } };
      if (input.email !== viewer.email.toLowerCase()) {
        return { status: 400, body: { error: ACCOUNT_MESSAGES.deleteEmailMismatch, code: 'EMAIL_MISMATCH' } };
      }
    }
    const address = endpoint.mailsTo && input[endpoint.mailsTo];
    if (typeof address === 'string') {
      const { count } = await hit(`${endpoint.path} address ${sha256(address)}`, 3600_000);
      if (count > MAILS_PER_ADDRESS_PER_HOUR) return { status: 429, body: tooMany };
    }
    return null;
  }

  async function forward(endpoint: AuthEndpoint, req: FastifyRequest, reply: FastifyReply) {
    if (endpoint.sessionOnly && session.bearerOf(req) !== null) {
      // A wrong token is 401 (counted like any failed token); a valid one may not do this.
      await session.viewerOf(req);
      throw forbidden(API_TOKEN_MESSAGES.accountNeedsSession, 'SESSION_REQUIRED');
    }
    const parsed = await endpoint.input.safeParseAsync((endpoint.method === 'GET' ? req.query : req.body) ?? {});
    if (!parsed.success) return reply.status(400).send(zodErrorBody(parsed.error));
    const input = parsed.data as Record<string, unknown>;
    const refused = await refusal(endpoint, input, req);
    if (refused) return reply.status(refused.status).send(refused.body);
    const url = new URL(`/api/auth${endpoint.path}`, config.publicUrl);
    if (endpoint.method === 'GET') for (const [key, value] of Object.entries(input)) url.searchParams.set(key, String(value));
    const { res, text } = await inBetterAuth(async () => {
      const res = await auth.handler(
        new Request(url, {
          method: endpoint.method,
          headers: fromNodeHeaders(req.headers),
          body: endpoint.method === 'GET' ? undefined : JSON.stringify(input),
        }),
      );
      return { res, text: await res.text() };
    });
    reply.status(res.status);
    res.headers.forEach((value, key) => {
      if (key !== 'set-cookie' && key !== 'content-length') reply.header(key, value);
    });
    const cookies = res.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    if (!res.headers.has('cache-control')) reply.header('cache-control', 'private, no-store');
    if (endpoint.changesSessions && res.status < 400) await session.forgetSessions();
    // Redirects: the verification link ends on our page (with ?error=CODE when it failed).
    if (res.ok && endpoint.marksCurrentSession) {
      const token = session.tokenOf(req);
      const sessions = safeJson(text) as { token: string }[];
      return reply.send(JSON.stringify(sessions.map((s) => ({ ...s, current: s.token === token }))));
    }
    if (res.ok || (res.status >= 300 && res.status < 400)) return reply.send(text);
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
