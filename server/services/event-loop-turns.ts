/**
 * Long synchronous work (parsing a file, preparing or writing thousands of rows) gives other
 * requests a turn: the function this returns resolves at once until `sliceMs` have passed since
 * the last turn, then only after a macrotask (setImmediate), when pending I/O has run. With
 * SQLite's synchronous driver even awaited queries never yield, so loops call this between steps.
 * 5 ms: a request that queries PostgreSQL needs two turns (its arrival, then the answer).
 */
export function eventLoopTurns(sliceMs = 5): () => Promise<void> | undefined {
  let last = performance.now();
  return () => {
    if (performance.now() - last < sliceMs) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        last = performance.now();
        resolve();
      }),
    );
  };
}
