import { exportJwk, generateCryptoKeyPair, importJwk } from '@fedify/fedify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

interface StoredPair {
  publicKey: JsonWebKey;
  privateKey: JsonWebKey;
}

/**
 * A public collection's key pairs: RSA first (Mastodon reads the first, and Fedify signs HTTP
 * requests with it), then Ed25519 (object integrity proofs). Made on first use and kept in
 * federation_collection_keys; when two processes make them at once, the first stored wins and
 * both use it.
 */
export async function collectionKeyPairs(db: Kysely<Database>, supercurationId: string): Promise<CryptoKeyPair[]> {
  const stored = await readPairs(db, supercurationId);
  if (stored) return stored;
  const made = await Promise.all([generateCryptoKeyPair('RSASSA-PKCS1-v1_5'), generateCryptoKeyPair('Ed25519')]);
  const json = JSON.stringify(
    await Promise.all(made.map(async (p): Promise<StoredPair> => ({ publicKey: await exportJwk(p.publicKey), privateKey: await exportJwk(p.privateKey) }))),
  );
  await db
    .insertInto('federation_collection_keys')
    .values({ supercuration_id: supercurationId, keys_json: json, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('supercuration_id').doNothing())
    .execute();
  return (await readPairs(db, supercurationId)) ?? [];
}

async function readPairs(db: Kysely<Database>, supercurationId: string): Promise<CryptoKeyPair[] | null> {
  const row = await db.selectFrom('federation_collection_keys').select('keys_json').where('supercuration_id', '=', supercurationId).executeTakeFirst();
  if (!row) return null;
  const pairs = JSON.parse(row.keys_json) as StoredPair[];
  return Promise.all(pairs.map(async (p) => ({ publicKey: await importJwk(p.publicKey, 'public'), privateKey: await importJwk(p.privateKey, 'private') })));
}
