import { createHmac, timingSafeEqual } from 'node:crypto';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyRequest } from 'fastify';
import { API_TOKEN_MESSAGES, MSG } from '../../shared/domain';
import type { Auth } from '../auth';
import { inBetterAuth } from '../auth-storage';
import type { Db } from '../db';
import { apiTokenReader } from '../services/api-tokens';
import { queryTemplate } from '../db/query-templates';
import type { RateLimitHit } from '../services/rate-limits';
import type { Viewer } from '../policies/viewer';
import { forbidden, tooManyRequests, unauthorized } from '../errors';
import { sessionCache } from './session-cache';

/** Better Auth's defaults: sessions last 7 days and slide forward once a day. */
const EXPIRES_IN_MS = 7 * 24 * 3600 * 1000;
const UPDATE_AGE_MS = 24 * 3600 * 1000;

interface Options {
  auth: Auth;
  db: Db;
  secret: string;
  secureCookies: boolean;
  /** The shared counter (server/http/rate-limit-stores.ts) that limits failed bearer tokens per client. */
  hit: RateLimitHit;
  /** Failed bearer tokens a client may send per minute (AUTH_RATE_LIMIT, like sign-in). */
  bearerFailureLimit: number;
}

const BEARER_WINDOW_MS = 60_000;

/** The session and its user by token, compiled once (server/db/query-templates.ts). */
const sessionTemplate = queryTemplate<'token', { id: string; email: string; name: string; expiresAt: string | Date }>(
  (db, { token }) =>
    db
      .selectFrom('session')
      .innerJoin('user', 'user.id', 'session.userId')
      .select(['user.id', 'user.email', 'user.name', 'session.expiresAt'])
      .where('session.token', '=', token),
);

/**
 * Resolves the signed-in user of a request from Better Auth's session cookie, or from a personal
 * access token (`Authorization: Bearer <token>`, server/services/api-tokens.ts): every route that
 * asks for the viewer here accepts both, under the same policies.
 *
 * Better Auth's own `getSession` costs ~1 ms of CPU per call (it builds a full endpoint context),
 * which capped every signed-in API route at ~900 req/s. This reads the same signed cookie and
 * session row with one indexed query, and then trusts it for up to SESSION_CACHE_MS
 * (session-cache.ts); only when a session is due to slide forward (once a day) does it hand over
 * to Better Auth, which refreshes it. Better Auth stays the only writer.
 */
export function sessionReader({ auth, db, secret, secureCookies, hit, bearerFailureLimit }: Options) {
  const cookieName = `${secureCookies ? '__Secure-' : ''}better-auth.session_token`;
  const userOfToken = apiTokenReader(db);
  const cache = sessionCache();
  /**
   * Clients over their limit of failed tokens, until their window ends. The count is shared (the
   * database or Redis); this process learns a client is over it from its own next failure, and from then on
   * refuses that client's tokens without a lookup.
   */
  const blockedUntil = new Map<string, number>();

  /**
   * The token of an `Authorization: Bearer` header, '' for a malformed one, null when there is none.
   * Other schemes (Basic, from a proxy's own password in front of the app) are not ours: ignored.
   */
  function bearerOf(req: FastifyRequest): string | null {
    const header = req.headers.authorization;
    if (header === undefined || !/^bearer(\s|$)/i.test(header)) return null;
    const match = /^bearer +(\S+) *$/i.exec(header);
    return match?.[1] ?? '';
  }

  /** The token's user; a bad token is 401 (and counts against the client), over the limit 429. */
  async function viewerOfToken(req: FastifyRequest, token: string): Promise<Viewer> {
    const now = Date.now();
    const until = blockedUntil.get(req.ip);
    if (until !== undefined) {
      if (until > now) throw tooManyRequests(MSG.tooManyRequests);
      blockedUntil.delete(req.ip);
    }
    const user = token ? await userOfToken(token, now) : null;
    if (user) return { id: user.id, email: user.email, name: user.name, tokenId: user.tokenId };
    const { count, ttl } = await hit(`bearer ${req.ip}`, BEARER_WINDOW_MS);
    if (count > bearerFailureLimit) {
      blockedUntil.set(req.ip, now + ttl);
      throw tooManyRequests(MSG.tooManyRequests);
    }
    throw unauthorized(API_TOKEN_MESSAGES.invalidToken);
  }

  /** The token of a signed session cookie value, or null when its signature is wrong. */
  function verifiedToken(raw: string): string | null {
    const dot = raw.lastIndexOf('.');
    if (dot < 1) return null;
    const token = raw.slice(0, dot);
    const given = Buffer.from(raw.slice(dot + 1), 'base64');
    const expected = createHmac('sha256', secret).update(token).digest();
    return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
  }

  function tokenOf(req: FastifyRequest): string | null {
    const raw = readCookie(req.headers.cookie, cookieName);
    return raw ? verifiedToken(raw) : null;
  }

  // A route's preValidation and its handler (or a rate limiter's key) may both ask: look it up once.
  const viewers = new WeakMap<FastifyRequest, Promise<Viewer | null>>();
  /**
   * The viewer of a request. A request with an Authorization header is a token's: its cookie is
   * not read, and a wrong token is refused (401, or 429 after too many) rather than treated as a visitor.
   */
  function viewerOf(req: FastifyRequest): Promise<Viewer | null> {
    let viewer = viewers.get(req);
    if (!viewer) {
      viewer = lookUpViewer(req);
      viewers.set(req, viewer);
    }
    return viewer;
  }

  async function lookUpViewer(req: FastifyRequest): Promise<Viewer | null> {
    const bearer = bearerOf(req);
    if (bearer !== null) return viewerOfToken(req, bearer);
    const raw = readCookie(req.headers.cookie, cookieName);
    if (!raw) return null;
    const cached = cache.get(raw);
    if (cached) return cached;
    const token = verifiedToken(raw);
    if (!token) return null;
    const generation = cache.generation();
    const [row] = await sessionTemplate(db.kysely, { token });
    if (!row) return null;
    const expiresAt = new Date(row.expiresAt).getTime();
    const now = Date.now();
    if (expiresAt <= now) return null;
    const slidesAt = expiresAt - EXPIRES_IN_MS + UPDATE_AGE_MS;
    if (slidesAt <= now) {
      const session = await inBetterAuth(() => auth.api.getSession({ headers: fromNodeHeaders(req.headers) }));
      return session ? { id: session.user.id, email: session.user.email, name: session.user.name } : null;
    }
    const viewer = { id: row.id, email: row.email, name: row.name };
    cache.set(raw, viewer, slidesAt, generation);
    return viewer;
  }

  async function requireViewer(req: FastifyRequest, message: string = MSG.notAuthenticated): Promise<Viewer> {
    const viewer = await viewerOf(req);
    if (!viewer) throw unauthorized(message);
    return viewer;
  }

  /** Refuses a request authenticated by an API token (403 with `message`): for what only a signed-in session may do. */
  async function requireSessionViewer(req: FastifyRequest, message: string): Promise<Viewer> {
    const viewer = await requireViewer(req);
    if (viewer.tokenId) throw forbidden(message, 'SESSION_REQUIRED');
    return viewer;
  }

  /** True when the request carries a session cookie, valid or not (its answers are kept private). */
  const hasSessionCookie = (req: FastifyRequest) => readCookie(req.headers.cookie, cookieName) !== null;

  /** True when the request carries credentials, a session cookie or an Authorization header: its answers are kept private. */
  const hasCredentials = (req: FastifyRequest) => req.headers.authorization !== undefined || hasSessionCookie(req);

  /** After a change to sessions or to what a viewer holds (sign-out, revocation, password, e-mail, name): read them afresh. */
  const forgetSessions = () => cache.forget();

  return { viewerOf, requireViewer, requireSessionViewer, bearerOf, tokenOf, hasSessionCookie, hasCredentials, forgetSessions };
}

export type SessionReader = ReturnType<typeof sessionReader>;

function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}
