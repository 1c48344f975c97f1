/**
 * Runs calls one at a time per key, in the order they came, within this process: a call starts
 * once every earlier call with its key has settled. For writers that would otherwise queue on one
 * database row lock: PostgreSQL wakes every waiter of a lock's holder when it commits, and all but
 * one go back to waiting, each wake-up costing both processes CPU (docs/decisions.md). Only an
 * optimisation: other processes still meet at the row lock, which stays the rule.
 */
export function queueByKey() {
  const tails = new Map<string, Promise<unknown>>();
  return async function run<T>(key: string, call: () => Promise<T>): Promise<T> {
    const result = (tails.get(key) ?? Promise.resolve()).then(call);
    const tail = result.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
