import { hashPassword, verifyPassword } from 'better-auth/crypto';
import type { PasswordHashing } from '../../server/auth';

const hashes = new Map<string, Promise<string>>();
const checks = new Map<string, Promise<boolean>>();

function remembered<T>(cache: Map<string, Promise<T>>, key: string, compute: () => Promise<T>): Promise<T> {
  let result = cache.get(key);
  if (!result) {
    result = compute();
    cache.set(key, result);
    result.catch(() => cache.delete(key));
  }
  return result;
}

/**
 * Better Auth's own scrypt hashing and checking, each result kept for the rest of the run. Nearly
 * every test signs up users with one password, and each scrypt costs about 70 ms of CPU: the
 * in-process test servers compute it once. Users with one password then share one salt, which no
 * test looks at; a password or a wrong guess not seen before in the run still goes through scrypt
 * (docs/decisions.md, "Tests").
 */
export const rememberedPasswordHashing: PasswordHashing = {
  hash: (password) => remembered(hashes, password, () => hashPassword(password)),
  verify: ({ hash, password }) => remembered(checks, `${hash}\u0000${password}`, () => verifyPassword({ hash, password })),
};
