import { Redis } from 'ioredis';

/**
 * The Redis of the tests (TEST_REDIS_URL, else the machine's own on 127.0.0.1:6379), or undefined
 * when it is unreachable: its tests are then skipped, except in CI (`CI=true`), where that fails.
 */
export async function testRedisUrl(): Promise<string | undefined> {
  const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return url;
  } catch (err) {
    if (process.env.CI === 'true') throw new Error(`Redis at ${url} is unreachable, and CI needs it: ${(err as Error).message}`);
    console.warn(`Redis at ${url} is unreachable: skipping its tests`);
    return undefined;
  } finally {
    client.disconnect();
  }
}

/** The keys under `prefix` (SCAN, not KEYS), e.g. to see what a test's server counted there. */
export async function keysUnder(client: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of client.scanStream({ match: `${prefix}*`, count: 100 }) as AsyncIterable<string[]>) keys.push(...batch);
  return keys.sort();
}
