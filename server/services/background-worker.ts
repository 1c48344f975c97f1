/**
 * The loop of a background worker in a server process: a round every `busyMs` while work is due,
 * else a look every `idleMs`, on an unref'd timer; one round at a time; a failed round is logged
 * and the loop goes on. `anyDue` should only read, so that an idle worker writes nothing.
 */
export interface BackgroundWorker {
  /** Look for due work now (after new work was queued). */
  wake(): void;
  stop(): Promise<void>;
}

export interface BackgroundWorkerOptions {
  name: string;
  enabled: boolean;
  busyMs: number;
  idleMs: number;
  anyDue(now: Date): Promise<boolean>;
  round(now: Date): Promise<unknown>;
  log?: { error(obj: object, msg: string): void };
}

export function startBackgroundWorker(opts: BackgroundWorkerOptions): BackgroundWorker {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = !opts.enabled;
  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const tick = () => {
    timer = null;
    if (stopped || running) return;
    running = (async () => {
      let next = opts.idleMs;
      try {
        if (await opts.anyDue(new Date())) {
          await opts.round(new Date());
          next = opts.busyMs;
        }
      } catch (err) {
        opts.log?.error({ err }, `${opts.name}: round failed`);
      }
      running = null;
      schedule(next);
    })();
  };
  schedule(0);
  return {
    wake() {
      if (!running) schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
