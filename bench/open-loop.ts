/**
 * Requests at a fixed arrival rate, whatever the answers' latency (an open loop). Not autocannon's
 * `overallRate`: it lets each connection send its share of a second back to back at the second's
 * start and then wait, so a run measures how long a burst of a whole second's requests queues.
 * Here the i-th request leaves at start + i / rate, each on a free keep-alive socket (a new one
 * when all are busy), and its latency runs from when it was sent to the end of its answer.
 *
 * The requests are sent from a thread of their own, with a heap of its own. Sent from the bench's
 * thread, whose heap holds the seed's plans and autocannon's leftovers (~60 MB live), they shared
 * its garbage collections: a mark-compact every ~300 ms, each holding the thread 3–16 ms, plus
 * incremental steps of up to 12 ms (node --trace-gc). Answers that came in meanwhile were timed as
 * late, and the p99 of a route costing 0.6 ms of server CPU read 17–33 ms at 500 req/s.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type autocannon from 'autocannon';
import { type Load, type Throughput, percentile } from './common';

interface Outgoing {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** What the thread reports of each answer: its latency, status and body, or that it failed. */
interface Answer {
  ms: number;
  status: number;
  /** Kept for one answer in BODY_EVERY. */
  body: string | null;
  failed: boolean;
}

// Plain CommonJS, run with `eval` (as server/db/checkpointer.ts's thread): it needs only node:http.
const SENDER = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { host, port, rate, durationS, requests, bodyEvery } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1000 });
const answers = [];
const inFlight = new Set();
const send = (req, i) => {
  const sentAt = performance.now();
  const done = new Promise((resolve) => {
    const failed = () => { answers.push({ ms: performance.now() - sentAt, status: 0, body: null, failed: true }); resolve(); };
    const request = http.request({ agent, host, port, method: req.method, path: req.path, headers: req.headers }, (res) => {
      const chunks = i % bodyEvery === 0 ? [] : null;
      if (chunks) res.on('data', (c) => chunks.push(c));
      else res.resume();
      res.on('end', () => {
        const body = chunks && Buffer.concat(chunks).toString();
        answers.push({ ms: performance.now() - sentAt, status: res.statusCode || 0, body, failed: false });
        resolve();
      });
      res.on('error', failed);
    });
    request.on('error', failed);
    request.end(req.body);
  });
  inFlight.add(done);
  done.then(() => inFlight.delete(done));
};
(async () => {
  const started = performance.now();
  const endAt = started + durationS * 1000;
  let sent = 0;
  for (let now = started; now < endAt; now = performance.now()) {
    const due = Math.min(requests.length, Math.floor(((now - started) * rate) / 1000));
    while (sent < due) send(requests[sent], sent++);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const sentFor = (performance.now() - started) / 1000;
  await Promise.all(inFlight);
  agent.destroy();
  parentPort.postMessage({ sent, sentFor, answers });
})();
`;

/**
 * The thread keeps the body of one answer in this many, for the route's check (Load.verifyBody); the
 * others it reads and drops. Made into strings, every body of a run cost the thread its own time
 * between answers: with the public page's 80 kB of HTML, p99 20-290 ms at 500 req/s where the same
 * thread dropping them read 6-17 ms (bench/README.md). Every status is checked, and the closed-loop
 * run checks every body.
 */
const BODY_EVERY = 10;

export async function measureOpenLoop(load: Load, rate: number, durationS: number): Promise<Throughput> {
  const target = new URL(load.url);
  const base = { method: 'GET', path: `${target.pathname}${target.search}`, headers: load.headers ?? {} };
  // Each request built beforehand (setupRequest may pick a user at random, or number a new URL).
  const requests = Array.from({ length: Math.ceil(rate * durationS) }, (): Outgoing => {
    const req = (load.setupRequest ? load.setupRequest({ ...base } as autocannon.Request) : base) as Partial<Outgoing>;
    return { method: req.method ?? 'GET', path: req.path ?? base.path, headers: req.headers ?? {}, body: req.body };
  });
  const thread = new Worker(SENDER, { eval: true, workerData: { host: target.hostname, port: Number(target.port), rate, durationS, requests, bodyEvery: BODY_EVERY } });
  const [report] = (await once(thread, 'message')) as [{ sent: number; sentFor: number; answers: Answer[] }];
  await thread.terminate();

  const verify = load.verifyBody ?? (() => true);
  let non2xx = 0;
  let errors = 0;
  let mismatches = 0;
  for (const a of report.answers) {
    if (a.failed) errors++;
    else if (a.status < 200 || a.status > 299) non2xx++;
    else if (a.body !== null && !verify(a.body)) mismatches++;
  }
  const latencies = report.answers
    .filter((a) => !a.failed)
    .map((a) => a.ms)
    .sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    reqPerSec: report.sent / report.sentFor,
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    requests: latencies.length,
    non2xx,
    errors,
    mismatches,
  };
}
