import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../server/db';
import { createMailer } from '../../server/mail/mailer';
import {
  DEFAULT_LEASE_MS,
  KEEP_FAILED_DAYS,
  KEEP_SENT_DAYS,
  type OutboxDeps,
  type QueuedMail,
  backoffSeconds,
  claimDueMail,
  enqueueMails,
  pruneOutbox,
  sendDueMailOnce,
} from '../../server/mail/outbox';
import { renderEmail } from '../../server/mail/render';
import { describeEachDatabase } from '../support/each-database';
import { drainOutbox } from '../support/outbox';
import { type SmtpSink, messageIdOf, startSmtpSink } from '../support/smtp-sink';

const RETRY_S = 30;

function mail(to: string, extra: Partial<QueuedMail> = {}): QueuedMail {
  const { html, text } = renderEmail({ heading: 'Hello', paragraphs: [`For ${to}`] });
  return { kind: 'digest', to, subject: `Hello ${to}`, html, text, unsubscribeUrl: 'https://sc.example/u?token=x', ...extra };
}

// The server's own worker polls hourly here: these tests drive the outbox themselves.
describeEachDatabase(
  'mail outbox: retries, give-up, leases, concurrent workers',
  (ctx) => {
    let sink: SmtpSink;
    const mailers: ReturnType<typeof createMailer>[] = [];
    beforeAll(async () => {
      sink = await startSmtpSink();
    });
    afterEach(async () => {
      sink.rejectRecipients = null;
      sink.received.length = 0;
      // Each test starts with an empty outbox.
      await ctx.server.db.kysely.deleteFrom('mail_outbox').execute();
      for (const m of mailers.splice(0)) await m.close();
    });
    afterAll(() => sink.close());

    const errors: { obj: object; msg: string }[] = [];
    function deps(options: Partial<OutboxDeps['options']> = {}, smtpUrl = sink.url, db = ctx.server.db): OutboxDeps {
      const mailer = createMailer({ smtpUrl, from: 'Supercurate <no-reply@sc.example>', dataDir: ctx.server.config.dataDir });
      mailers.push(mailer);
      return {
        db,
        mailer,
        log: { error: (obj, msg) => errors.push({ obj, msg }) },
        options: { maxAttempts: 4, retrySeconds: RETRY_S, pollSeconds: 3600, ...options },
      };
    }
    const enqueue = (mails: QueuedMail[]) => enqueueMails(ctx.server.db.kysely, ctx.server.url, mails);
    const rows = () => ctx.server.db.kysely.selectFrom('mail_outbox').selectAll().orderBy('created_at').orderBy('id').execute();
    const after = (t: Date, seconds: number) => new Date(t.getTime() + seconds * 1000);

    it('retries a failed send with exponential backoff, then delivers it once with its fixed Message-ID', async () => {
      await enqueue([mail('retry@example.com')]);
      const [queued] = await rows();
      expect(queued).toMatchObject({ status: 'queued', attempts: 0, recipient: 'retry@example.com' });
      expect(queued?.message_id).toMatch(/^<[0-9a-f]{24}\.outbox@127\.0\.0\.1>$/);
      const d = deps();

      sink.rejectRecipients = '451 4.3.0 Try again later';
      const t0 = new Date(Date.now() + 1000);
      expect(await sendDueMailOnce(d, t0)).toMatchObject({ claimed: 1, sent: 0, retrying: 1 });
      let [row] = await rows();
      expect(row).toMatchObject({ status: 'queued', attempts: 1, claim_token: null, claimed_until: null });
      expect(row?.next_attempt_at).toBe(after(t0, RETRY_S).toISOString());
      expect(row?.last_error).toContain('451');

      // Not due before the backoff is over; the second failure doubles it.
      expect((await sendDueMailOnce(d, after(t0, RETRY_S - 1))).claimed).toBe(0);
      const t1 = after(t0, RETRY_S);
      expect(await sendDueMailOnce(d, t1)).toMatchObject({ claimed: 1, retrying: 1 });
      [row] = await rows();
      expect(row).toMatchObject({ status: 'queued', attempts: 2 });
      expect(row?.next_attempt_at).toBe(after(t1, 2 * RETRY_S).toISOString());
      expect(backoffSeconds(RETRY_S, 3)).toBe(4 * RETRY_S);
      expect(sink.received).toHaveLength(0);

      sink.rejectRecipients = null;
      expect(await sendDueMailOnce(d, after(t1, 2 * RETRY_S))).toMatchObject({ claimed: 1, sent: 1 });
      [row] = await rows();
      expect(row).toMatchObject({ status: 'sent', attempts: 3, last_error: null, claim_token: null, text_body: '', html_body: '' });
      expect(row?.subject).toBe('Hello retry@example.com');
      expect(row?.sent_at).toBeTruthy();
      expect(sink.received).toHaveLength(1);
      expect(sink.received[0]?.to).toEqual(['retry@example.com']);
      expect(messageIdOf(sink.received[0] as never)).toBe(queued?.message_id);
      expect(sink.received[0]?.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
      // Sent rows are never claimed again.
      expect((await sendDueMailOnce(d, after(t1, 10_000))).claimed).toBe(0);
    });

    it('gives up after the maximum attempts and logs it; a permanent (5xx) refusal fails at once', async () => {
      await enqueue([mail('busy@example.com')]);
      const d = deps({ maxAttempts: 3 });
      errors.length = 0;
      sink.rejectRecipients = '452 4.2.2 Mailbox full';
      let at = new Date(Date.now() + 1000);
      for (let attempt = 1; attempt <= 3; attempt++) {
        const run = await sendDueMailOnce(d, at);
        expect(run).toMatchObject(attempt < 3 ? { claimed: 1, retrying: 1 } : { claimed: 1, failed: 1, retrying: 0 });
        at = after(at, backoffSeconds(RETRY_S, attempt));
      }
      const [row] = await rows();
      expect(row).toMatchObject({ status: 'failed', attempts: 3, claim_token: null });
      // A failed mail keeps its bodies, to look at or send again by hand.
      expect(row?.text_body).toContain('For busy@example.com');
      expect(row?.last_error).toContain('452');
      expect(errors).toEqual([{ obj: expect.objectContaining({ to: 'busy@example.com', attempts: 3 }), msg: 'e-mail could not be sent; giving up' }]);
      expect((await sendDueMailOnce(d, after(at, 100_000))).claimed).toBe(0);

      await ctx.server.db.kysely.deleteFrom('mail_outbox').execute();
      await enqueue([mail('nobody@example.com')]);
      sink.rejectRecipients = '550 5.1.1 No such user';
      expect(await sendDueMailOnce(d, new Date(Date.now() + 1000))).toMatchObject({ claimed: 1, failed: 1 });
      expect((await rows())[0]).toMatchObject({ status: 'failed', attempts: 1 });
      expect(sink.received).toHaveLength(0);
    });

    it('puts the rest of a batch back untried when the SMTP server cannot be reached', async () => {
      const closed = await startSmtpSink();
      const unreachable = closed.url;
      await closed.close();
      await enqueue([mail('a@example.com'), mail('b@example.com'), mail('c@example.com')]);
      const t0 = new Date(Date.now() + 1000);
      const run = await sendDueMailOnce(deps({ concurrency: 1 }, unreachable), t0);
      expect(run).toMatchObject({ claimed: 3, sent: 0, retrying: 1 });
      const after1 = await rows();
      expect(after1.map((r) => r.status)).toEqual(['queued', 'queued', 'queued']);
      // One send was tried; all three wait for the same retry time.
      expect(after1.map((r) => r.attempts).sort()).toEqual([0, 0, 1]);
      expect(new Set(after1.map((r) => r.next_attempt_at))).toEqual(new Set([after(t0, RETRY_S).toISOString()]));
      expect(after1.every((r) => r.claim_token === null && r.last_error !== null)).toBe(true);

      await drainOutbox(deps(), after(t0, RETRY_S));
      expect((await rows()).map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
      expect(sink.received.map((m) => m.to[0]).sort()).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
    });

    it("makes a crashed worker's claimed rows claimable again after the lease, and sends them once", async () => {
      await enqueue([mail('lease-1@example.com'), mail('lease-2@example.com')]);
      const t0 = new Date(Date.now() + 1000);
      // A worker claims and "crashes" (never sends, never releases).
      const crashed = await claimDueMail(ctx.server.db, 10, DEFAULT_LEASE_MS, t0);
      expect(crashed.rows).toHaveLength(2);
      expect((await rows()).every((r) => r.claim_token === crashed.token && r.attempts === 1)).toBe(true);

      const d = deps();
      expect((await sendDueMailOnce(d, after(t0, DEFAULT_LEASE_MS / 1000 - 1))).claimed).toBe(0);
      expect(sink.received).toHaveLength(0);
      expect(await sendDueMailOnce(d, after(t0, DEFAULT_LEASE_MS / 1000))).toMatchObject({ claimed: 2, sent: 2 });
      const sent = await rows();
      expect(sent.map((r) => [r.status, r.attempts])).toEqual([
        ['sent', 2],
        ['sent', 2],
      ]);
      expect(sink.received.map(messageIdOf).sort()).toEqual(sent.map((r) => r.message_id).sort());
    });

    it('cancels a queued mail whose e-mail subscription was deleted before the send', async () => {
      await enqueue([mail('gone@example.com', { subscriberId: 'no-such-subscriber' }), mail('kept@example.com')]);
      expect(await sendDueMailOnce(deps(), new Date(Date.now() + 1000))).toMatchObject({ claimed: 2, sent: 1, cancelled: 1 });
      expect((await rows()).map((r) => [r.recipient, r.status]).sort()).toEqual([
        ['gone@example.com', 'cancelled'],
        ['kept@example.com', 'sent'],
      ]);
      expect(sink.received.map((m) => m.to[0])).toEqual(['kept@example.com']);
    });

    it(`prunes sent and cancelled rows after ${KEEP_SENT_DAYS} days and failed ones after ${KEEP_FAILED_DAYS}, never queued ones`, async () => {
      await enqueue(['sent', 'cancelled', 'failed', 'queued'].map((status) => mail(`${status}@example.com`)));
      for (const status of ['sent', 'cancelled', 'failed'] as const) {
        await ctx.server.db.kysely.updateTable('mail_outbox').set({ status }).where('recipient', '=', `${status}@example.com`).execute();
      }
      const recipients = async () => (await rows()).map((r) => r.recipient).sort();
      const day = 86_400;
      expect(await pruneOutbox(ctx.server.db, after(new Date(), KEEP_SENT_DAYS * day - 60))).toBe(0);
      expect(await pruneOutbox(ctx.server.db, after(new Date(), KEEP_SENT_DAYS * day + 60))).toBe(2);
      expect(await recipients()).toEqual(['failed@example.com', 'queued@example.com']);
      expect(await pruneOutbox(ctx.server.db, after(new Date(), KEEP_FAILED_DAYS * day + 60))).toBe(1);
      expect(await recipients()).toEqual(['queued@example.com']);
    });

    it('lets several workers with their own database connections share the queue without sending a row twice', async () => {
      const COUNT = 240;
      await enqueue(Array.from({ length: COUNT }, (_, i) => mail(`many-${i}@example.com`)));
      const connections = Array.from({ length: 3 }, () => openDatabase(ctx.server.config));
      try {
        const at = new Date(Date.now() + 1000);
        const workers = connections.map((db) => deps({ batchSize: 20 }, sink.url, db));
        const sentBy = await Promise.all(
          workers.map(async (d) => {
            let sent = 0;
            for (;;) {
              const run = await sendDueMailOnce(d, at);
              if (run.claimed === 0) return sent;
              sent += run.sent;
            }
          }),
        );
        expect(sentBy.reduce((a, b) => a + b, 0)).toBe(COUNT);
        expect(sink.received).toHaveLength(COUNT);
        const ids = sink.received.map(messageIdOf);
        expect(new Set(ids).size).toBe(COUNT);
        expect(new Set(sink.received.map((m) => m.to[0])).size).toBe(COUNT);
        const all = await rows();
        expect(all.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
        expect(new Set(all.map((r) => r.message_id))).toEqual(new Set(ids));
      } finally {
        for (const db of connections) await db.close();
      }
    });
  },
  { MAIL_POLL_SECONDS: '3600' },
);
