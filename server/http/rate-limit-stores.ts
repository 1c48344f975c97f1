import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor, RateLimitOptions, RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Db } from '../db';
import { type RateLimitCount, type RateLimitHit, rateLimitCounter } from '../services/rate-limits';

const BLOCK = Symbol('hits reserved per database write');
/** Longest wait for Redis's answer to one count. */
const REDIS_TIMEOUT_MS = 1000;
/** How often a process forgets the blocks of windows that are over. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * What @fastify/rate-limit passes to a store's constructor and `child`: the limit options merged
 * with the route's (its README, "Custom store"; its type declarations say RouteOptions).
 */
interface LimitOptions {
  routeInfo?: { url?: string };
  [BLOCK]?: number;
}
type ChildOptions = Parameters<FastifyRateLimitStore['child']>[0];
type IncrArgs = Parameters<FastifyRateLimitStore['incr']>;

// The plugin's Redis store, which its index doesn't export (its `redis` option builds one itself).
const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => FastifyRateLimitStore;

/** Every rate-limit counter of the app, in one place that all server processes share. */
export interface SharedLimits {
  /** One more hit of `key` in its fixed window: for the limits counted outside the plugin's routes. */
  hit: RateLimitHit;
  /** @fastify/rate-limit's options that put every limited route's counter there too. */
  pluginOptions: Pick<RateLimitPluginOptions, 'store' | 'redis' | 'nameSpace'>;
  close(): Promise<void>;
}

/**
 * Redis when REDIS_URL is set, through the plugin's own Redis store (one Lua script: INCR, and
 * PEXPIRE on a window's first hit); otherwise the database's `rate_limits` table. Either way a
 * limit holds across processes and machines. See docs/decisions.md ("Shared rate limits").
 */
export function sharedLimits(config: Pick<Config, 'redisUrl' | 'redisKeyPrefix'>, db: Db, log: FastifyBaseLogger): SharedLimits {
  if (!config.redisUrl) {
    const hit = rateLimitCounter(db);
    return { hit, pluginOptions: { store: databaseStore(hit) }, close: async () => {} };
  }
  // While Redis is down, limited requests fail (500) within REDIS_TIMEOUT_MS rather than wait
  // for it without end.
  const redis = new Redis(config.redisUrl, { keyPrefix: config.redisKeyPrefix, maxRetriesPerRequest: 1, commandTimeout: REDIS_TIMEOUT_MS });
  redis.on('error', (err: Error) => log.warn({ err }, 'Redis (rate-limit counters) unreachable'));
  const counters = new RedisStore(false, false, redis, 'rate-limit:hit:');
  const hit: RateLimitHit = (key, windowMs) =>
    new Promise((resolve, reject) => {
      counters.incr(
        key,
        (err, result) => (err || !result ? reject(err ?? new Error('no answer from Redis')) : resolve({ count: result.current, ttl: result.ttl })),
        windowMs,
        Number.MAX_SAFE_INTEGER,
      );
    });
  return {
    hit,
    pluginOptions: { redis, nameSpace: 'rate-limit:route:' },
    // In-flight requests are over when the server's onClose hooks run: nothing is left to answer.
    close: async () => redis.disconnect(),
  };
}

/**
 * A route's limit whose database counter is taken `block` hits at a time (a hot route: the image
 * proxy is asked for every thumbnail of a page). Each process reserves a block with one write and
 * answers the next hits from it, numbered within the shared count, so no more than the limit are
 * ever let through; a client spread over N processes may be refused up to N·(block − 1) hits
 * early, the reserved hits left unused when it reaches the limit. Redis counts every hit: cheap there.
 */
export function countedInBlocks(limit: RateLimitOptions, block: number): RateLimitOptions {
  return { ...limit, [BLOCK]: block } as RateLimitOptions;
}

/** `hit`, taking `block` hits of a key's shared count per call and handing them out one by one. */
function reservingBlocks(hit: RateLimitHit, block: number) {
  const blocks = new Map<string, { next: number; last: number; endsAt: number }>();
  const reserving = new Map<string, Promise<void>>();
  let nextSweep = 0;

  async function reserve(key: string, windowMs: number): Promise<void> {
    const { count, ttl } = await hit(key, windowMs, block);
    const now = Date.now();
    if (now >= nextSweep) {
      nextSweep = now + SWEEP_INTERVAL_MS;
      for (const [k, b] of blocks) if (b.endsAt <= now) blocks.delete(k);
    }
    blocks.set(key, { next: count - block + 1, last: count, endsAt: now + ttl });
  }

  return async function take(key: string, windowMs: number): Promise<RateLimitCount> {
    for (;;) {
      const held = blocks.get(key);
      const now = Date.now();
      if (held && held.next <= held.last && held.endsAt > now) return { count: held.next++, ttl: held.endsAt - now };
      // Concurrent hits of one key wait for the same reservation.
      let pending = reserving.get(key);
      if (!pending) {
        pending = reserve(key, windowMs).finally(() => reserving.delete(key));
        reserving.set(key, pending);
      }
      await pending;
    }
  };
}

/** A store counting in the database, each route apart, so that every server process shares its limits. */
function databaseStore(hit: RateLimitHit): FastifyRateLimitStoreCtor {
  return class DatabaseStore implements FastifyRateLimitStore {
    private readonly route: string;
    private readonly count: RateLimitHit;

    constructor(options: LimitOptions) {
      this.route = options.routeInfo?.url ?? '';
      const block = options[BLOCK] ?? 1;
      this.count = block > 1 ? reservingBlocks(hit, block) : hit;
    }

    incr(key: string, callback: IncrArgs[1], timeWindow: number): void {
      this.count(`${this.route} ${key}`, timeWindow).then(
        (count) => callback(null, { current: count.count, ttl: count.ttl }),
        (err: Error) => callback(err),
      );
    }

    child(routeOptions: ChildOptions): FastifyRateLimitStore {
      return new DatabaseStore(routeOptions as unknown as LimitOptions);
    }
  };
}
