// Reading what server processes say (their JSON log lines) and polling for a condition.
const POLL_MS = 50;
const DEADLINE_MS = 30_000;

/** The JSON lines of an output: the server's (pino), the supervisor's and the cluster primary's. */
export function jsonLines(output: string): Record<string, unknown>[] {
  return output.split('\n').flatMap((line) => {
    try {
      const parsed: unknown = JSON.parse(line);
      return parsed && typeof parsed === 'object' ? [parsed as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}

/** Polls `check` until it gives a value (not undefined or false); throws after the deadline. */
export async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, deadlineMs = DEADLINE_MS) {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1_000) });
    return res.status === 200 && ((await res.json()) as { status: string }).status === 'ok';
  } catch {
    return false;
  }
}
