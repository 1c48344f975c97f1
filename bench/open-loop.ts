/**
 * Requests at a fixed arrival rate, whatever the answers' latency (an open loop). Not autocannon's
 * `overallRate`: it lets each connection send its share of a second back to back at the second's
 * start and then wait, so a run measures how long a burst of a whole second's requests queues.
 * Here the i-th request leaves at start + i / rate, each on a free keep-alive socket (a new one
 * when all are busy), and its latency runs from when it was sent to the end of its answer.
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type autocannon from 'autocannon';
import { type Load, type Throughput, percentile } from './common';

export async function measureOpenLoop(load: Load, rate: number, durationS: number): Promise<Throughput> {
  const target = new URL(load.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1_000 });
  const verify = load.verifyBody ?? (() => true);
  const base = { method: 'GET', path: `${target.pathname}${target.search}`, headers: load.headers ?? {} };
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let mismatches = 0;
  const inFlight = new Set<Promise<void>>();

  const send = () => {
    const req = (load.setupRequest ? load.setupRequest({ ...base } as autocannon.Request) : base) as {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    };
    const sentAt = performance.now();
    const done = new Promise<void>((resolve) => {
      const request = http.request(
        { agent, host: target.hostname, port: target.port, method: req.method ?? 'GET', path: req.path ?? base.path, headers: req.headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            latencies.push(performance.now() - sentAt);
            const status = res.statusCode ?? 0;
            if (status < 200 || status > 299) non2xx++;
            else if (!verify(Buffer.concat(chunks).toString())) mismatches++;
            resolve();
          });
          res.on('error', () => {
            errors++;
            resolve();
          });
        },
      );
      request.on('error', () => {
        errors++;
        resolve();
      });
      request.end(req.body);
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };

  const started = performance.now();
  const endAt = started + durationS * 1000;
  let sent = 0;
  for (let now = started; now < endAt; now = performance.now()) {
    const due = Math.floor(((now - started) * rate) / 1000);
    while (sent < due) {
      send();
      sent++;
    }
    await sleep(1);
  }
  const sentFor = (performance.now() - started) / 1000;
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    reqPerSec: sent / sentFor,
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    requests: latencies.length,
    non2xx,
    errors,
    mismatches,
  };
}
