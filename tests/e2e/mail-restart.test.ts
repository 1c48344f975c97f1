import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../../server/db';
import { signedInUser, testClient } from '../support/client';
import { testDatabases } from '../support/databases';
import { outboxCounts } from '../support/outbox';
import { type SmtpSink, messageIdOf, startSmtpSink } from '../support/smtp-sink';
import { type User, createCollection } from '../support/supercurations';
import { type ServerProcess, startServerProcess } from './support/server-process';

const databases = await testDatabases();
const CONFIRMATIONS = 6;
const DIGEST_READERS = 20;
const POLL_MS = 100;
const DEADLINE_MS = 45_000;

async function until<T>(what: string, check: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

for (const database of databases) {
  describe(`mail outbox survives a killed server [${database.name}]`, () => {
    let server: ServerProcess | undefined;
    let sink: SmtpSink | undefined;
    let db: Db | undefined;
    afterEach(async () => {
      await db?.close();
      await server?.destroy();
      await sink?.close();
    });

    test('mail queued while SMTP refuses is delivered exactly once after SIGKILL and restart', async () => {
      sink = await startSmtpSink();
      // The SMTP server answers "try later": every mail stays queued, retrying.
      sink.rejectRecipients = '451 4.3.0 Try again later';
      server = await startServerProcess(database, {
        SMTP_URL: sink.url,
        MAIL_RETRY_SECONDS: '3',
        MAIL_MAX_ATTEMPTS: '50',
        MAIL_POLL_SECONDS: '1',
        DIGEST_INTERVAL_SECONDS: '1',
      });
      db = openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
      const kysely = db.kysely;

      // Confirmation mails through the HTTP API...
      const owner: User = await signedInUser(server.url, 'Mona Mailer');
      const collection = await createCollection(owner, { isPublic: true, title: 'Queued news' });
      const visitor = testClient(server.url).api;
      const confirmRecipients = Array.from({ length: CONFIRMATIONS }, (_, i) => `confirm-${i}@example.com`);
      for (const email of confirmRecipients) await visitor.subscribeByEmail(collection.id, email);

      // ...and a digest to confirmed subscribers, queued by the server's digest timer.
      const day = 86_400_000;
      const readers = Array.from({ length: DIGEST_READERS }, (_, i) => `reader-${i}@example.com`);
      await kysely
        .insertInto('email_subscribers')
        .values(
          readers.map((email) => ({
            id: randomBytes(12).toString('hex'),
            supercuration_id: collection.id,
            email,
            confirmed_at: new Date(Date.now() - day).toISOString(),
            token_hash: randomBytes(32).toString('hex'),
            created_at: new Date(Date.now() - day).toISOString(),
            confirm_sent_at: new Date(Date.now() - day).toISOString(),
          })),
        )
        .execute();
      await kysely
        .insertInto('digest_state')
        .values({ supercuration_id: collection.id, last_sent_at: new Date(Date.now() - day).toISOString() })
        .execute();
      await owner.api.addResource(collection.id, { link: { title: 'Kept safe', description: 'x', url: 'https://example.com/kept' } });

      // The owner's own verification mail (sign-up) is queued and held back like the others.
      const total = 1 + CONFIRMATIONS + DIGEST_READERS;
      // Every mail queued and tried at least once (refused), none claimed, none due within the next
      // second: the worker is between retries, so the kill finds no send in flight.
      await until('every mail queued and retrying', async () => {
        const rows = await kysely.selectFrom('mail_outbox').select(['status', 'attempts', 'claim_token', 'next_attempt_at']).execute();
        const soon = new Date(Date.now() + 1000).toISOString();
        return (
          rows.length === total &&
          rows.every((r) => r.status === 'queued' && r.attempts >= 1 && r.claim_token === null && r.next_attempt_at > soon)
        );
      });
      expect(sink.received).toHaveLength(0);

      const pid = server.pid;
      await server.restart({ kill: true });
      expect(server.pid).not.toBe(pid);
      // The crash lost nothing: all rows are still queued.
      expect(await outboxCounts(db)).toEqual({ queued: total });

      sink.rejectRecipients = null;
      await until('every mail sent', async () => (await outboxCounts(db as Db)).sent === total);
      const expected = [owner.input.email, ...confirmRecipients, ...readers].sort();
      expect(sink.received.map((m) => m.to.join(',')).sort()).toEqual(expected);
      const rows = await kysely.selectFrom('mail_outbox').select(['message_id', 'recipient', 'kind']).execute();
      expect(sink.received.map(messageIdOf).sort()).toEqual(rows.map((r) => r.message_id).sort());
      expect(rows.filter((r) => r.kind === 'digest')).toHaveLength(DIGEST_READERS);
      const digest = sink.received.find((m) => m.to[0] === 'reader-0@example.com');
      expect(digest?.raw).toMatch(/^Subject: New in Queued news: 1 new resource$/m);
      // Nothing is left to send, so nothing more can arrive.
      expect(await outboxCounts(db)).toEqual({ sent: total });
    });
  });
}
