import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { RateLimitHit } from '../services/rate-limits';

/**
 * What @fastify/rate-limit passes to a store's constructor and `child`: the limit options merged
 * with the route's (its README, "Custom store"; its type declarations say RouteOptions).
 */
interface LimitOptions {
  store?: FastifyRateLimitStoreCtor;
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { url?: string };
}
type ChildOptions = Parameters<FastifyRateLimitStore['child']>[0];
type IncrArgs = Parameters<FastifyRateLimitStore['incr']>;

// The plugin's default store, which its index doesn't export.
const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore') as new (
  continueExceeding?: boolean,
  exponentialBackoff?: boolean,
) => FastifyRateLimitStore;

/**
 * The store @fastify/rate-limit is registered with. The plugin asks it for each limited route's
 * store: a route whose limit names a `store` gets that one (the database's, for sign-in, sign-up
 * and change-password), the others count in memory as the plugin does by default.
 */
export class PerRouteStore implements FastifyRateLimitStore {
  private readonly memory: FastifyRateLimitStore;

  constructor(options: LimitOptions) {
    this.memory = new LocalStore(options.continueExceeding, options.exponentialBackoff);
  }

  incr(...args: IncrArgs): void {
    this.memory.incr(...args);
  }

  child(routeOptions: ChildOptions): FastifyRateLimitStore {
    const { store: RouteStore } = routeOptions as unknown as LimitOptions;
    return RouteStore ? new RouteStore(routeOptions) : this.memory.child(routeOptions);
  }
}

/** A route's store counting in the database, so that every server process shares its limit. */
export function databaseStore(hit: RateLimitHit): FastifyRateLimitStoreCtor {
  return class DatabaseStore implements FastifyRateLimitStore {
    /** Each route counts apart, like the plugin's own stores. */
    private readonly route: string;

    constructor(options: LimitOptions) {
      this.route = options.routeInfo?.url ?? '';
    }

    incr(key: string, callback: IncrArgs[1], timeWindow: number): void {
      hit(`${this.route} ${key}`, timeWindow).then(
        (count) => callback(null, { current: count.count, ttl: count.ttl }),
        (err: Error) => callback(err),
      );
    }

    child(routeOptions: ChildOptions): FastifyRateLimitStore {
      return new DatabaseStore(routeOptions as unknown as LimitOptions);
    }
  };
}
