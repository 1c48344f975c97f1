import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../db';
import { newId } from '../db/ids';
import { claimDueRows, pruneFinished } from '../db/leases';
import type { Database } from '../db/schema';
import { type MailMessage, type Mailer, isTransientMailError } from './mailer';

/**
 * The mail outbox. Nothing sends e-mail directly: a confirmation or a digest is
 * inserted into mail_outbox in the same transaction as the change that causes it, and the worker of
 * each server process sends queued rows.
 *
 * - Claiming: a worker takes a batch of due rows by setting a lease (server/db/leases.ts), so
 *   several server processes take disjoint batches without waiting for each other.
 * - Sending: each row is marked 'sent' right after the SMTP server accepted it. A process killed
 *   between the two leaves the row claimed; once the lease is over another worker sends it again,
 *   with the same Message-ID (fixed at enqueue), so the rare duplicate is recognisable. That window
 *   (one SMTP reply to one UPDATE) is the only way a mail goes out twice; no queued mail is lost.
 * - Failures: a transient one (4xx, unreachable, timeout) is retried after retrySeconds × 2^(n−1)
 *   (capped at MAX_BACKOFF_SECONDS) until maxAttempts, then the row is 'failed' and logged; a
 *   permanent one (5xx: unknown mailbox, refused content) fails at once. When the server cannot be
 *   reached, the rest of the batch is put back untried instead of failing one by one.
 * - A mail for an e-mail subscription that was deleted (unsubscribed) before its send is 'cancelled'.
 * - Sent and cancelled rows drop their bodies at once (they keep recipient, subject, Message-ID and
 *   times) and are deleted after KEEP_SENT_DAYS; failed ones keep everything for KEEP_FAILED_DAYS.
 */

/** Subscription confirmations and digests (to e-mail subscribers); password resets, verifications and personal digests (to accounts). */
export type MailKind = 'confirmation' | 'digest' | 'password-reset' | 'verification' | 'reader-digest';

/** One e-mail to queue; the Message-ID is assigned here. */
export interface QueuedMail extends Omit<MailMessage, 'messageId'> {
  kind: MailKind;
  /** The collection e-mail subscription it is for, if any: unsubscribing before the send cancels it. */
  subscriberId?: string;
}

export interface OutboxOptions {
  /** Sends per row before giving up (MAIL_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** The first retry's delay; each further one doubles (MAIL_RETRY_SECONDS). */
  retrySeconds: number;
  /** How often the worker looks for due rows besides being woken (MAIL_POLL_SECONDS). */
  pollSeconds: number;
  /** A claim's lease; a crashed worker's rows are sent by another after it. */
  leaseMs?: number;
  /** Rows per claim. */
  batchSize?: number;
  /** Messages in flight at once (the SMTP pool has as many connections). */
  concurrency?: number;
}

export interface OutboxDeps {
  db: Db;
  mailer: Mailer;
  log?: {
    debug?(obj: object, msg: string): void;
    warn?(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  options: OutboxOptions;
}

export const DEFAULT_LEASE_MS = 10 * 60_000;
/** A send still running this close to the lease's end might outlive it: the batch stops before. */
const LEASE_MARGIN_MS = 3 * 60_000;
export const MAX_BACKOFF_SECONDS = 6 * 3600;
const DEFAULT_BATCH = 50;
export const OUTBOX_CONCURRENCY = 3;
/** Rows per INSERT (PostgreSQL allows 65,535 parameters per statement, SQLite 32,766). */
const INSERT_CHUNK = 500;

type OutboxRow = Selectable<Database['mail_outbox']>;

/** What a finished (sent or cancelled) row keeps of its bodies. */
const NO_BODIES = { text_body: '', html_body: '' };


/** Inserts the mails (use the caller's transaction so they commit with its change); returns how many. */
export async function enqueueMails(executor: Kysely<Database>, publicUrl: string, mails: QueuedMail[]): Promise<number> {
  const host = new URL(publicUrl).hostname || 'localhost';
  const iso = new Date().toISOString();
  const rows = mails.map((m) => {
    const id = newId();
    return {
      id,
      message_id: `<${id}.outbox@${host}>`,
      kind: m.kind,
      recipient: m.to,
      subject: m.subject,
      text_body: m.text,
      html_body: m.html,
      unsubscribe_url: m.unsubscribeUrl ?? null,
      subscriber_id: m.subscriberId ?? null,
      status: 'queued' as const,
      attempts: 0,
      next_attempt_at: iso,
      claimed_until: null,
      claim_token: null,
      last_error: null,
      created_at: iso,
      sent_at: null,
    };
  });
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await executor.insertInto('mail_outbox').values(rows.slice(i, i + INSERT_CHUNK)).execute();
  }
  return rows.length;
}

/** The delay before retry n (1-based): retrySeconds, then doubling, capped. */
export function backoffSeconds(retrySeconds: number, attempt: number): number {
  return Math.min(MAX_BACKOFF_SECONDS, retrySeconds * 2 ** Math.max(0, attempt - 1));
}

/** Takes up to `limit` due rows under a new lease (see the file comment). */
export const claimDueMail = (db: Db, limit: number, leaseMs: number, now = new Date()) => claimDueRows(db, 'mail_outbox', limit, leaseMs, now);

export interface OutboxRun {
  claimed: number;
  sent: number;
  retrying: number;
  failed: number;
  cancelled: number;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/**
 * Claims one batch of due rows and sends it. `now` (injectable for tests) is the claim's and the
 * retries' clock; `shouldStop` ends the batch early (server shutdown), putting back what is untried.
 */
export async function sendDueMailOnce(deps: OutboxDeps, now = new Date(), shouldStop: () => boolean = () => false): Promise<OutboxRun> {
  const { db, options } = deps;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const started = Date.now();
  const { token, rows } = await claimDueMail(db, options.batchSize ?? DEFAULT_BATCH, leaseMs, now);
  const run: OutboxRun = { claimed: rows.length, sent: 0, retrying: 0, failed: 0, cancelled: 0 };
  if (rows.length === 0) return run;
  const mine = (id: string) => db.kysely.updateTable('mail_outbox').where('id', '=', id).where('claim_token', '=', token);

  // Mails of subscriptions deleted since they were queued are not sent.
  const subscriberIds = [...new Set(rows.flatMap((r) => (r.subscriber_id ? [r.subscriber_id] : [])))];
  const live = new Set(
    subscriberIds.length === 0
      ? []
      : (await db.kysely.selectFrom('email_subscribers').select('id').where('id', 'in', subscriberIds).execute()).map((r) => r.id),
  );
  const pending: OutboxRow[] = [];
  for (const row of rows) {
    if (row.subscriber_id && !live.has(row.subscriber_id)) {
      await mine(row.id).set({ status: 'cancelled', claimed_until: null, claim_token: null, ...NO_BODIES }).execute();
      run.cancelled += 1;
    } else pending.push(row);
  }

  let unreachable: { retryAt: string; error: string } | null = null;
  const sendOne = async (row: OutboxRow) => {
    try {
      await deps.mailer.send({
        to: row.recipient,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        ...(row.unsubscribe_url ? { unsubscribeUrl: row.unsubscribe_url } : {}),
        messageId: row.message_id,
      });
    } catch (err) {
      const transient = isTransientMailError(err);
      const error = errorText(err);
      if (transient && row.attempts < options.maxAttempts) {
        const retryAt = new Date(now.getTime() + backoffSeconds(options.retrySeconds, row.attempts) * 1000).toISOString();
        await mine(row.id).set({ next_attempt_at: retryAt, claimed_until: null, claim_token: null, last_error: error }).execute();
        run.retrying += 1;
        deps.log?.warn?.({ outbox: row.id, to: row.recipient, attempts: row.attempts, retryAt, err: error }, 'e-mail send failed; will retry');
        // No SMTP reply at all: the server is unreachable, the rest of the batch waits as long.
        if (typeof (err as { responseCode?: unknown }).responseCode !== 'number') unreachable ??= { retryAt, error };
      } else {
        await mine(row.id).set({ status: 'failed', claimed_until: null, claim_token: null, last_error: error }).execute();
        run.failed += 1;
        deps.log?.error({ outbox: row.id, to: row.recipient, kind: row.kind, attempts: row.attempts, err: error }, 'e-mail could not be sent; giving up');
      }
      return;
    }
    // Accepted by the SMTP server: recorded at once, whoever holds the lease now. The bodies are
    // dropped (a digest to 10,000 subscribers is ~36 MB of them); the row keeps who, what and when.
    await db.kysely
      .updateTable('mail_outbox')
      .set({ status: 'sent', sent_at: new Date().toISOString(), claimed_until: null, claim_token: null, last_error: null, ...NO_BODIES })
      .where('id', '=', row.id)
      .execute();
    run.sent += 1;
    deps.log?.debug?.({ outbox: row.id, to: row.recipient, kind: row.kind, messageId: row.message_id }, 'e-mail sent');
  };

  let next = 0;
  const untried: OutboxRow[] = [];
  const lane = async () => {
    for (;;) {
      const row = pending[next];
      if (!row) return;
      next += 1;
      if (unreachable || shouldStop() || Date.now() - started > leaseMs - LEASE_MARGIN_MS) {
        untried.push(row);
        continue;
      }
      await sendOne(row);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? OUTBOX_CONCURRENCY }, lane));

  // Put back what was claimed but not tried: the attempt is not counted.
  const putBack = unreachable as { retryAt: string; error: string } | null;
  for (const row of untried) {
    await mine(row.id)
      .set((eb) => ({
        attempts: eb('attempts', '-', 1),
        claimed_until: null,
        claim_token: null,
        ...(putBack ? { next_attempt_at: putBack.retryAt, last_error: putBack.error } : {}),
      }))
      .execute();
  }
  return run;
}

/** Sent and cancelled rows are kept this long (to look up what went out), failed ones longer. */
export const KEEP_SENT_DAYS = 7;
export const KEEP_FAILED_DAYS = 30;
const PRUNE_EVERY_MS = 3600_000;
const DAY_MS = 86_400_000;

/** Deletes finished rows past their keeping time; answers how many. */
export const pruneOutbox = (db: Db, now = new Date()) => pruneFinished(db, 'mail_outbox', KEEP_SENT_DAYS * DAY_MS, KEEP_FAILED_DAYS * DAY_MS, now);

export interface OutboxWorker {
  /** Look for due mail now (after queueing some); cheap to call often. */
  wake(): void;
  /** Stops polling, lets the current batch finish (putting back its untried rows), and resolves. */
  stop(): Promise<void>;
}

/**
 * The outbox worker of a server process: one drain at a time (claim batches until none is due),
 * started by wake() and every pollSeconds (an unref'd timer), and once at start for mail queued
 * before a restart. About once an hour a drain first prunes old finished rows.
 */
export function startOutboxWorker(deps: OutboxDeps): OutboxWorker {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let prunedAt = 0;
  const drain = async () => {
    if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await pruneOutbox(deps.db).catch((err: unknown) => deps.log?.error({ err }, 'mail outbox pruning failed'));
    }
    do {
      again = false;
      for (;;) {
        if (stopped) return;
        const run = await sendDueMailOnce(deps, new Date(), () => stopped);
        // Nothing due, or the SMTP server is failing: wait for the next wake-up or poll.
        if (run.claimed === 0 || (run.sent === 0 && run.retrying > 0)) break;
      }
    } while (again && !stopped);
  };
  const wake = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((err: unknown) => deps.log?.error({ err }, 'mail outbox run failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(wake, deps.options.pollSeconds * 1000);
  timer.unref();
  setImmediate(wake);
  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
