import type { KvKey, KvStore, KvStoreSetOptions } from '@fedify/fedify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Fedify's key-value store in our database (table federation_kv), shared by every server process:
 * remote public keys and documents it has fetched, and the activities it has already handled (so
 * that one delivered twice, or to two processes, runs once). An expired entry reads as absent and
 * is deleted by `purgeExpired`.
 */
export function sqlKvStore(db: Kysely<Database>): KvStore & { purgeExpired(now?: Date): Promise<void> } {
  const keyOf = (key: KvKey) => JSON.stringify(key);
  return {
    async get<T = unknown>(key: KvKey): Promise<T | undefined> {
      const row = await db.selectFrom('federation_kv').select(['value', 'expires_at']).where('key', '=', keyOf(key)).executeTakeFirst();
      if (!row || (row.expires_at !== null && row.expires_at <= new Date().toISOString())) return undefined;
      return JSON.parse(row.value) as T;
    },
    async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
      const ttl = options?.ttl?.total({ unit: 'millisecond' });
      const row = {
        key: keyOf(key),
        value: JSON.stringify(value),
        expires_at: ttl === undefined ? null : new Date(Date.now() + ttl).toISOString(),
      };
      await db
        .insertInto('federation_kv')
        .values(row)
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: row.value, expires_at: row.expires_at }))
        .execute();
    },
    async delete(key: KvKey): Promise<void> {
      await db.deleteFrom('federation_kv').where('key', '=', keyOf(key)).execute();
    },
    async purgeExpired(now = new Date()): Promise<void> {
      await db.deleteFrom('federation_kv').where('expires_at', '<=', now.toISOString()).execute();
    },
  };
}
