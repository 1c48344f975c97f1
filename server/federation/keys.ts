import { exportJwk, generateCryptoKeyPair, importJwk } from '@fedify/fedify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { collectionIdOf } from './collection-actors';
import { userIdOf } from './person-actors';

interface StoredPair {
  publicKey: JsonWebKey;
  privateKey: JsonWebKey;
}

type Q = Kysely<Database>;

/** Where an actor's keys are kept: a collection's, or a user's (both deleted with their owner). */
const stores = {
  collection: {
    read: (db: Q, id: string) => db.selectFrom('federation_collection_keys').select('keys_json').where('supercuration_id', '=', id).executeTakeFirst(),
    write: (db: Q, id: string, keys_json: string, created_at: string) =>
      db.insertInto('federation_collection_keys').values({ supercuration_id: id, keys_json, created_at }).onConflict((oc) => oc.column('supercuration_id').doNothing()).execute(),
  },
  user: {
    read: (db: Q, id: string) => db.selectFrom('federation_user_keys').select('keys_json').where('user_id', '=', id).executeTakeFirst(),
    write: (db: Q, id: string, keys_json: string, created_at: string) =>
      db.insertInto('federation_user_keys').values({ user_id: id, keys_json, created_at }).onConflict((oc) => oc.column('user_id').doNothing()).execute(),
  },
};

/**
 * An actor's key pairs (by its identifier, collection or user): RSA first (Mastodon reads the first,
 * and Fedify signs HTTP requests with it), then Ed25519 (object integrity proofs). Made on first use
 * and kept; when two processes make them at once, the first stored wins and both use it.
 */
export async function actorKeyPairs(db: Q, identifier: string): Promise<CryptoKeyPair[]> {
  const collectionId = collectionIdOf(identifier);
  const userId = collectionId ? null : userIdOf(identifier);
  const id = collectionId ?? userId;
  if (!id) return [];
  const store = collectionId ? stores.collection : stores.user;
  const stored = await readPairs(await store.read(db, id));
  if (stored) return stored;
  const made = await Promise.all([generateCryptoKeyPair('RSASSA-PKCS1-v1_5'), generateCryptoKeyPair('Ed25519')]);
  const json = JSON.stringify(
    await Promise.all(made.map(async (p): Promise<StoredPair> => ({ publicKey: await exportJwk(p.publicKey), privateKey: await exportJwk(p.privateKey) }))),
  );
  await store.write(db, id, json, new Date().toISOString());
  return (await readPairs(await store.read(db, id))) ?? [];
}

async function readPairs(row: { keys_json: string } | undefined): Promise<CryptoKeyPair[] | null> {
  if (!row) return null;
  const pairs = JSON.parse(row.keys_json) as StoredPair[];
  return Promise.all(pairs.map(async (p) => ({ publicKey: await importJwk(p.publicKey, 'public'), privateKey: await importJwk(p.privateKey, 'private') })));
}
