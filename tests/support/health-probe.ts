import { Worker } from 'node:worker_threads';

/**
 * The poller, as plain JavaScript for a worker thread: GET /api/health again and again, one
 * request after another, each answer's time in ms. It says 'ready' after its warm-up answers
 * (not kept), and sends the times since then once told to stop.
 */
const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
let stopped = false;
parentPort.once('message', () => { stopped = true; });
(async () => {
  const healthMs = [];
  let warm = false;
  try {
    while (!stopped) {
      const t0 = performance.now();
      const res = await fetch(workerData.url);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error('health answered ' + res.status);
      healthMs.push(performance.now() - t0);
      if (!warm && healthMs.length === workerData.warmUp) {
        warm = true;
        healthMs.length = 0;
        parentPort.postMessage({ ready: true });
      }
    }
    parentPort.postMessage({ healthMs });
  } catch (err) {
    parentPort.postMessage({ error: String(err) });
  }
})();
`;

/** Answers not counted, before `work` starts: a new thread's first fetches load and compile undici (40-90 ms). */
const WARM_UP_ANSWERS = 20;

/**
 * Runs `work` while GET /api/health is asked again and again, one request after another: the
 * slowest answer shows how long the server kept other requests waiting meanwhile. The poller runs
 * in a worker thread of its own, so that this process's own pauses (its garbage collection,
 * sending the work's upload) are not counted as the server's: polled from the test's own thread,
 * the slowest answer was, in some runs, exactly that thread's own longest stall (52 ms). Timed inside
 * the server meanwhile, no health request took more than 23 ms.
 */
export async function whileHealthIsPolled<T>(
  baseUrl: string,
  work: () => Promise<T>,
): Promise<{ result: T; slowestHealthMs: number; healthMs: number[] }> {
  const poller = new Worker(POLLER, { eval: true, workerData: { url: `${baseUrl}/api/health`, warmUp: WARM_UP_ANSWERS } });
  let started!: () => void;
  let failed!: (err: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    started = resolve;
    failed = reject;
  });
  const polled = new Promise<number[]>((resolve, reject) => {
    const fail = (err: Error) => {
      failed(err);
      reject(err);
    };
    poller.on('error', fail);
    poller.on('message', (message: { ready?: true; healthMs?: number[]; error?: string }) => {
      if (message.error) fail(new Error(message.error));
      else if (message.ready) started();
      else resolve(message.healthMs ?? []);
    });
  });
  // Awaited below; when `work` throws first, its rejection is not the one to report.
  polled.catch(() => undefined);
  await ready;
  let result: T;
  try {
    result = await work();
  } finally {
    poller.postMessage('stop');
  }
  const healthMs = await polled;
  return { result, slowestHealthMs: Math.max(0, ...healthMs), healthMs };
}
