import cluster from 'node:cluster';
import type { Viewer } from '../policies/viewer';

/**
 * How long a session read from the database is trusted without reading it again. A session signed
 * out, revoked or changed through this server is forgotten at once by all its processes (below);
 * one revoked by another server behind the same balancer, or straight in the database, is refused
 * within this time.
 */
export const SESSION_CACHE_MS = 30_000;
const MAX_ENTRIES = 10_000;

/** What a worker tells its siblings, through the cluster primary (server/cluster.ts), when sessions changed. */
const SESSIONS_CHANGED = 'supercurate:sessions-changed';
/** The primary's answer to the worker that told: its siblings have been told. */
const SIBLINGS_TOLD = 'supercurate:siblings-told';
/** A worker waits this long at most for the primary (gone, or restarting) before it answers anyway. */
const RELAY_TIMEOUT_MS = 1_000;

interface SessionsMessage {
  type: typeof SESSIONS_CHANGED | typeof SIBLINGS_TOLD;
  id?: number;
}

const isSessionsMessage = (m: unknown): m is SessionsMessage =>
  typeof m === 'object' && m !== null && ((m as SessionsMessage).type === SESSIONS_CHANGED || (m as SessionsMessage).type === SIBLINGS_TOLD);

interface Entry {
  viewer: Viewer;
  /** Trusted until then: SESSION_CACHE_MS after the read, or sooner when the session expires or is due to slide forward. */
  until: number;
}

/**
 * Sessions by their signed cookie value, as last read from the database: a signed-in request
 * then costs no query and no HMAC (the value was verified when it was read). Only sessions found
 * are kept; an unknown or forged cookie is checked every time.
 */
export function sessionCache() {
  const entries = new Map<string, Entry>();
  // A read that began before a change must not store what it read after the change.
  let generation = 0;
  const clear = () => {
    generation++;
    entries.clear();
  };
  let asked = 0;
  const waiting = new Map<number, () => void>();
  if (cluster.isWorker) {
    process.on('message', (message) => {
      if (!isSessionsMessage(message)) return;
      if (message.type === SESSIONS_CHANGED) clear();
      else if (message.id !== undefined) waiting.get(message.id)?.();
    });
  }

  return {
    get(cookie: string): Viewer | undefined {
      const entry = entries.get(cookie);
      if (!entry) return undefined;
      if (entry.until > Date.now()) return entry.viewer;
      entries.delete(cookie);
      return undefined;
    },
    /** The generation to hand back to `set` with what a read started now finds. */
    generation: () => generation,
    set(cookie: string, viewer: Viewer, trustedUntil: number, readGeneration: number): void {
      if (readGeneration !== generation) return;
      // A Map iterates in insertion order: the first entry is the oldest.
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entries.set(cookie, { viewer, until: Math.min(trustedUntil, Date.now() + SESSION_CACHE_MS) });
    },
    /**
     * Sessions changed (signed out, revoked, a password, e-mail or name changed): every process of
     * this server reads them afresh. Resolves once the other workers have been told, before the
     * answer goes out: the primary hands a client's next connection to a worker only after that.
     */
    forget(): Promise<void> {
      clear();
      const send = process.send?.bind(process);
      if (!cluster.isWorker || !send) return Promise.resolve();
      const id = ++asked;
      return new Promise<void>((resolve) => {
        const done = () => {
          waiting.delete(id);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(done, RELAY_TIMEOUT_MS);
        waiting.set(id, done);
        send({ type: SESSIONS_CHANGED, id } satisfies SessionsMessage);
      });
    },
  };
}

/**
 * In the cluster primary: passes a worker's SESSIONS_CHANGED on to the other workers, then tells it
 * so. A worker's messages arrive in the order sent, so each reads its sessions afresh before any
 * connection the primary hands it afterwards.
 */
export function relaySessionChanges(): void {
  cluster.on('message', (from, message) => {
    if (!isSessionsMessage(message) || message.type !== SESSIONS_CHANGED) return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker && worker !== from && worker.isConnected()) worker.send({ type: SESSIONS_CHANGED } satisfies SessionsMessage);
    }
    if (from.isConnected()) from.send({ type: SIBLINGS_TOLD, id: message.id } satisfies SessionsMessage);
  });
}
