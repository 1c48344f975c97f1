/**
 * Bytes parsed between two looks at the clock (eventLoopTurns): small, so a turn is never long
 * overdue (a 64 KB chunk at once took up to 15 ms, a cold 8 KB slice up to 10 ms on a slow machine).
 */
export const PARSE_SLICE = 2 * 1024;

/** eventLoopTurns' function: resolves at once, or after a macrotask when the slice of time is used up. */
export type Turn = () => Promise<void> | undefined;

/** A file's bytes in PARSE_SLICE pieces, taking a turn before each. */
export async function* byteSlices(bytes: Uint8Array, turn: Turn): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += PARSE_SLICE) {
    await turn();
    yield bytes.subarray(at, at + PARSE_SLICE);
  }
}
