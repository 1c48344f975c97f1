import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/**
 * The poller, as plain JavaScript for a worker thread: GET /api/health again and again, one
 * request after another. It posts two messages: { ready } after its warm-up answers (not kept),
 * then, once told to stop, { healthMs, error }: each answer's time in ms since then, and what went
 * wrong if an answer failed. A failure during the warm-up is posted at once, in place of { ready }.
 */
const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
const stopped = new Promise((resolve) => parentPort.once('message', resolve));
let stop = false;
stopped.then(() => { stop = true; });
const answerMs = async () => {
  const t0 = performance.now();
  const res = await fetch(workerData.url);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error('health answered ' + res.status);
  return performance.now() - t0;
};
(async () => {
  const healthMs = [];
  let ready = false;
  let error = null;
  try {
    for (let i = 0; i < workerData.warmUp; i++) await answerMs();
    parentPort.postMessage({ ready: true });
    ready = true;
    while (!stop) healthMs.push(await answerMs());
  } catch (err) {
    error = String(err);
  }
  if (ready) await stopped;
  parentPort.postMessage({ healthMs, error });
})();
`;

/** Answers not counted, before `work` starts: a new thread's first fetches load and compile undici (40-90 ms). */
const WARM_UP_ANSWERS = 20;

type PollerMessage = { ready: true } | { healthMs: number[]; error: string | null };

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
  // once() also rejects when the thread itself fails (its 'error' event).
  const next = async () => (await once(poller, 'message'))[0] as PollerMessage;
  try {
    const first = await next();
    if (!('ready' in first)) throw new Error(first.error ?? 'the health poller stopped before it was ready');
    let result: T;
    try {
      result = await work();
    } finally {
      poller.postMessage('stop');
    }
    const polled = await next();
    if ('ready' in polled) throw new Error('the health poller said it was ready twice');
    if (polled.error) throw new Error(polled.error);
    return { result, slowestHealthMs: Math.max(0, ...polled.healthMs), healthMs: polled.healthMs };
  } finally {
    // Its listener for 'stop' would keep a thread that failed alive, and this process with it.
    await poller.terminate();
  }
}
