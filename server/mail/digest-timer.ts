import { type DigestDeps, runDigestOnce } from './digest';
import { drainReaderDigests } from './reader-digest';

/**
 * The digest timer of a server process: every min(60 s, interval), unref'd (it never keeps the
 * process alive), one run at a time: the collection digests due, then the personal digests due.
 * Returns its stop function (called on server close).
 */
export function startDigestTimer(deps: DigestDeps): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running) return;
    running = runDigestOnce(deps)
      .then(() => drainReaderDigests(deps, new Date(), () => stopped))
      .catch((err: unknown) => deps.log?.error({ err }, 'digest run failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, Math.min(60, deps.intervalSeconds) * 1000);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
