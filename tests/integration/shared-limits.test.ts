import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_PREFIX } from '../../shared/domain';
import { authOptions } from '../../server/auth';
import { MAILS_PER_ADDRESS_PER_HOUR } from '../../server/http/auth-routes';
import { SUBSCRIBE_RATE_LIMIT } from '../../server/http/email-subscription-routes';
import { IMAGE_PROXY_BLOCK, IMAGE_PROXY_RATE_LIMIT } from '../../server/http/image-proxy-routes';
import { PREVIEW_RATE_LIMIT } from '../../server/http/preview-routes';
import { http, signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { keysUnder, testRedisUrl } from '../support/redis';
import type { TestServer } from '../support/server';
import { createCollection } from '../support/supercurations';

/** AUTH_RATE_LIMIT of these suites: above MAILS_PER_ADDRESS_PER_HOUR, so the two limits are told apart. */
const AUTH_LIMIT = 5;
const redisUrl = await testRedisUrl();

interface Request {
  path: string;
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

async function statusOf(server: TestServer, { path, method = 'GET', body, headers = {} }: Request): Promise<number> {
  const res = await http(`${server.url}${path}`, {
    method,
    headers: { origin: server.url, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Sends `count` requests, one after another, to each server in turn: their statuses. */
async function alternating(servers: TestServer[], count: number, request: Request): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push(await statusOf(servers[i % servers.length] as TestServer, request));
  return statuses;
}

/** `limit` requests spread over both servers pass, the next one is refused by either. */
async function expectSharedLimit(servers: TestServer[], limit: number, request: Request) {
  const statuses = await alternating(servers, limit, request);
  expect(statuses.filter((s) => s === 429)).toEqual([]);
  for (const server of servers) expect(await statusOf(server, request)).toBe(429);
}

/** Every limit of the app, checked across two server processes on one database (and one Redis when set). */
function sharedLimitTests(ctx: { server: TestServer }) {
  let twin: TestServer;
  let servers: TestServer[];
  beforeAll(async () => {
    twin = await ctx.server.twin();
    servers = [ctx.server, twin];
  });
  afterAll(async () => {
    await twin?.destroy();
  });

  it('sign-in attempts', async () => {
    await expectSharedLimit(servers, AUTH_LIMIT, {
      path: '/api/auth/sign-in/email',
      method: 'POST',
      body: { email: 'nobody@example.com', password: 'whatever-1' },
    });
  });

  it('mails to one address (password reset requests)', async () => {
    await expectSharedLimit(servers, MAILS_PER_ADDRESS_PER_HOUR, {
      path: '/api/auth/request-password-reset',
      method: 'POST',
      body: { email: 'somebody@example.com' },
    });
  });

  it('failed API tokens', async () => {
    const guess = { authorization: `Bearer ${API_TOKEN_PREFIX}${'C'.repeat(43)}` };
    await expectSharedLimit(servers, AUTH_LIMIT, { path: '/api/me', headers: guess });
  });

  it('link previews of one user', async () => {
    const user = await signedInUser(ctx.server.url);
    await expectSharedLimit(servers, PREVIEW_RATE_LIMIT, { path: '/api/preview?url=javascript:1', headers: { cookie: user.cookieHeader() } });
  });

  it('e-mail subscription requests', async () => {
    const owner = await signedInUser(ctx.server.url);
    const collection = await createCollection(owner, { isPublic: true });
    await expectSharedLimit(servers, SUBSCRIBE_RATE_LIMIT, {
      path: `/api/supercurations/${collection.id}/subscribers`,
      method: 'POST',
      body: { email: 'not an address' },
    });
  });

  it('image proxy requests: never more than the limit, at most a block per process short of it', async () => {
    const request = { path: '/api/images/proxy?url=javascript:1' };
    const statuses = await alternating(servers, IMAGE_PROXY_RATE_LIMIT + 2 * IMAGE_PROXY_BLOCK, request);
    const passed = statuses.filter((s) => s !== 429).length;
    expect(passed).toBeLessThanOrEqual(IMAGE_PROXY_RATE_LIMIT);
    expect(passed).toBeGreaterThanOrEqual(IMAGE_PROXY_RATE_LIMIT - servers.length * (IMAGE_PROXY_BLOCK - 1));
    for (const server of servers) expect(await statusOf(server, request)).toBe(429);
  });
}

describeEachDatabase(
  'rate limits shared in the database',
  (ctx) => {
    sharedLimitTests(ctx);

    it("counted in rate_limits; Better Auth's own in-memory limiter stays off", async () => {
      const keys = await ctx.server.db.kysely.selectFrom('rate_limits').select('key').execute();
      expect(keys.length).toBeGreaterThan(0);
      expect(authOptions(ctx.server.config, ctx.server.db).rateLimit).toEqual({ enabled: false });
    });
  },
  { AUTH_RATE_LIMIT: String(AUTH_LIMIT) },
);

if (redisUrl) {
  describeEachDatabase(
    'rate limits shared in Redis',
    (ctx) => {
      const redis = new Redis(redisUrl);
      afterAll(async () => {
        const keys = await keysUnder(redis, ctx.server.config.redisKeyPrefix);
        if (keys.length > 0) await redis.del(...keys);
        redis.disconnect();
      });

      sharedLimitTests(ctx);

      it('counted in Redis under REDIS_KEY_PREFIX, nothing in the database', async () => {
        const prefix = ctx.server.config.redisKeyPrefix;
        const keys = await keysUnder(redis, prefix);
        expect(keys.some((k) => k.startsWith(`${prefix}rate-limit:route:POST/api/auth/sign-in/email-`))).toBe(true);
        expect(keys.some((k) => k.startsWith(`${prefix}rate-limit:hit:bearer `))).toBe(true);
        expect(await ctx.server.db.kysely.selectFrom('rate_limits').select('key').execute()).toEqual([]);
      });
    },
    // A prefix per run and database: runs sharing this Redis never count each other's hits.
    () => ({ AUTH_RATE_LIMIT: String(AUTH_LIMIT), REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `test-${randomBytes(6).toString('hex')}:` }),
  );
} else {
  describe.skip('rate limits shared in Redis (Redis unreachable)', () => {
    it('needs Redis', () => {});
  });
}

