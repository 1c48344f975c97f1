// The cluster primary (WORKERS > 1): forks that many server processes, which share the port
// (node:cluster hands each new connection to the next worker in turn), and keeps each slot filled
// with server/supervisor.ts's restart policy. It serves nothing itself and runs no timers: the
// workers run the app and its background jobs (see docs/decisions.md, "All cores: WORKERS").
import cluster from 'node:cluster';
import { supervise } from './supervisor';
import { logLine, logSupervisorEvent } from './supervisor-log';

/** Starts `workers` workers, each running this same script, once the database is migrated. */
export function startWorkers(workers: number, migrated: string[]): void {
  const applied = migrated.length > 0 ? ` (applied ${migrated.join(', ')})` : '';
  logLine('cluster', 'info', `database schema up to date${applied}; starting ${workers} workers`, { event: 'migrated', applied: migrated, workers });
  // Workers get the primary's Node options (heap limit, source maps); their stderr is piped through
  // the supervisor, which reads it for V8's out-of-memory message.
  cluster.setupPrimary({ stdio: ['inherit', 'inherit', 'pipe', 'ipc'] });
  const slots = Array.from({ length: workers }, (_, i) =>
    supervise({
      // A worker's `process` is a ChildProcess: all the supervisor needs.
      start: () => cluster.fork().process,
      onEvent: (event) =>
        logSupervisorEvent(event, { name: 'cluster', what: `worker ${i + 1}`, pidField: 'workerPid', fields: { worker: i + 1 } }),
    }),
  );
  // Each worker drains its own requests (≤ 10 s) and exits; the primary exits once all have.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      for (const slot of slots) slot.stop(signal);
    });
  }
  void Promise.all(slots.map((slot) => slot.done)).then((codes) => process.exit(codes.find((code) => code !== 0) ?? 0));
}
