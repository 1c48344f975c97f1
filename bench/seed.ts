import { randomUUID } from 'node:crypto';
import { hashPassword } from 'better-auth/crypto';
import type { Db } from '../server/db';

/** Every seeded user signs in with this password. */
export const SEED_PASSWORD = 'bench-password-1234';

/** The e-mail of the i-th seeded user (0-based). */
export const seedEmail = (i: number) => `bench-user-${i}@bench.test`;

/** Better Auth's credential account row; not part of our schema type (server/db/schema.ts). */
type AccountTable = {
  account: {
    id: string;
    accountId: string;
    providerId: string;
    userId: string;
    password: string;
    createdAt: string;
    updatedAt: string;
  };
};

const BATCH = 500;

/**
 * Inserts `count` users with a credential account and a profile straight into the database,
 * as Better Auth's sign-up would leave them. The password is hashed once (scrypt is slow by
 * design) and the hash shared by every user. Returns the time taken in milliseconds.
 */
export async function seedUsers(db: Db, count: number): Promise<number> {
  const started = performance.now();
  const hash = await hashPassword(SEED_PASSWORD);
  const kysely = db.kysely.withTables<AccountTable>();
  // better-sqlite3 binds no booleans; Better Auth stores them as 0/1 there.
  const emailVerified = db.dialect === 'sqlite' ? 0 : false;

  for (let start = 0; start < count; start += BATCH) {
    const now = new Date().toISOString();
    const ids = Array.from({ length: Math.min(BATCH, count - start) }, () => randomUUID());
    await kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('user')
        .values(
          ids.map((id, k) => ({
            id,
            name: `Bench User ${start + k}`,
            email: seedEmail(start + k),
            emailVerified,
            image: null,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .execute();
      await trx
        .insertInto('account')
        .values(
          ids.map((id) => ({
            id: randomUUID(),
            accountId: id,
            providerId: 'credential',
            userId: id,
            password: hash,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .execute();
      await trx
        .insertInto('profiles')
        .values(ids.map((id) => ({ user_id: id, updated_at: now })))
        .execute();
    });
  }
  return performance.now() - started;
}
