/**
 * Runs `work` while GET /api/health is asked again and again, one request after another: the
 * slowest answer shows how long the server kept other requests waiting meanwhile.
 */
export async function whileHealthIsPolled<T>(
  baseUrl: string,
  work: () => Promise<T>,
): Promise<{ result: T; slowestHealthMs: number; healthMs: number[] }> {
  let done = false;
  const healthMs: number[] = [];
  const poll = (async () => {
    while (!done) {
      const t0 = performance.now();
      const res = await fetch(`${baseUrl}/api/health`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`health answered ${res.status}`);
      healthMs.push(performance.now() - t0);
    }
  })();
  try {
    return { result: await work(), slowestHealthMs: Math.max(0, ...healthMs), healthMs };
  } finally {
    done = true;
    await poll;
  }
}
