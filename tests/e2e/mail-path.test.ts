import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../../server/db';
import { http, signedInUser, testClient } from '../support/client';
import { testDatabases } from '../support/databases';
import { type ParsedMail, parseEml } from '../support/eml';
import { outboxCounts } from '../support/outbox';
import { type SmtpSink, messageIdOf, startSmtpSink } from '../support/smtp-sink';
import { createCollection } from '../support/supercurations';
import { visible } from './support/flows';
import { useE2E } from './support/harness';

const databases = await testDatabases();
const POLL_MS = 100;
// A digest waits DIGEST_SETTLE_MS (5 s) for resources added at the last moment, then the timer's next tick.
const MAIL_DEADLINE_MS = 30_000;

for (const database of databases) {
  describe(`the whole e-mail path over SMTP [${database.name}]`, () => {
    // The SMTP server is started before the app server, which gets its URL.
    const env: Record<string, string> = { DIGEST_INTERVAL_SECONDS: '1', MAIL_POLL_SECONDS: '1' };
    let sink: SmtpSink;
    let db: Db | undefined;
    beforeAll(async () => {
      sink = await startSmtpSink();
      env.SMTP_URL = sink.url;
    });
    const e2e = useE2E(database, { env });
    afterEach(async () => {
      await db?.close();
      db = undefined;
    });
    afterAll(() => sink?.close());

    /** The mails the sink received for one address, parsed. */
    const mailsTo = (address: string): ParsedMail[] => sink.received.filter((m) => m.to.includes(address)).map((m) => parseEml(m.raw));
    /** Polls until `address` has received `count` mails; returns the last one. */
    async function nthMail(address: string, count: number): Promise<ParsedMail> {
      const deadline = Date.now() + MAIL_DEADLINE_MS;
      while (mailsTo(address).length < count) {
        if (Date.now() > deadline) throw new Error(`${address} received ${mailsTo(address).length} of ${count} mails`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      const mails = mailsTo(address);
      expect(mails).toHaveLength(count);
      return mails[count - 1] as ParsedMail;
    }
    const linkIn = (mail: ParsedMail, path: string) => {
      const m = mail.text?.match(new RegExp(`${e2e.server.url}${path}\\?token=[^\\s]+`));
      if (!m) throw new Error(`no ${path} link in:\n${mail.text}`);
      return m[0];
    };

    test('subscribe on the public page, confirm from the mail, get a digest of a new resource, unsubscribe in one click, get nothing more', async () => {
      const suffix = randomBytes(3).toString('hex');
      const reader = `reader-${suffix}@example.com`;
      const witness = `witness-${suffix}@example.com`;
      const curator = await signedInUser(e2e.server.url, 'Mia Mailer');
      const collection = await createCollection(curator, { isPublic: true, title: 'Mail Path Picks' });

      // A visitor subscribes on the public collection page.
      const page = await e2e.open();
      await page.goto(`/supercurations/public/${collection.slug}`);
      await visible(page.getByRole('heading', { name: 'Mail Path Picks', level: 1 }));
      await page.getByLabel('Email').fill(reader);
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await visible(page.getByText("Thanks for subscribing! You'll receive updates when new resources are added."));

      // The confirmation mail arrives over SMTP; the browser opens its link.
      const confirmation = await nthMail(reader, 1);
      expect(confirmation.header('subject')).toBe('Confirm your subscription to Mail Path Picks');
      expect(confirmation.html).toContain('Confirm subscription');
      await page.goto(linkIn(confirmation, '/subscriptions/confirm'));
      await visible(page.getByRole('heading', { name: 'Your subscription is confirmed' }));
      await page.getByRole('link', { name: 'Open Mail Path Picks' }).click();
      await visible(page.getByRole('heading', { name: 'Mail Path Picks', level: 1 }));

      // A second address stays subscribed: its mails show when the reader's would have arrived.
      await testClient(e2e.server.url).api.subscribeByEmail(collection.id, witness);
      expect((await http(linkIn(await nthMail(witness, 1), '/subscriptions/confirm'))).status).toBe(200);

      // The curator adds a resource; the digest lists it. (One at a time: two added a few ms apart could
      // fall on both sides of a digest run's cut-off. Batching several into one mail has its integration test.)
      await curator.api.addResource(collection.id, { link: { title: 'Fresh Find', description: 'new', url: 'https://example.com/fresh' } });
      const digest = await nthMail(reader, 2);
      expect(digest.header('subject')).toBe('New in Mail Path Picks: 1 new resource');
      expect(digest.text?.replace(/\r\n/g, '\n')).toContain('- Fresh Find\n  https://example.com/fresh');
      expect(digest.html).toContain('Fresh Find');
      expect(digest.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      const unsubscribeUrl = linkIn(digest, '/subscriptions/unsubscribe');
      expect(digest.header('list-unsubscribe')).toBe(`<${unsubscribeUrl}>`);
      expect((await nthMail(witness, 2)).header('subject')).toBe('New in Mail Path Picks: 1 new resource');

      // The browser follows the unsubscribe link and clicks once.
      await page.goto(unsubscribeUrl);
      await visible(page.getByRole('heading', { name: 'Unsubscribe' }));
      await page.getByRole('button', { name: 'Unsubscribe' }).click();
      await visible(page.getByRole('heading', { name: 'You have been unsubscribed' }));

      // More resources: the witness gets a digest, the reader nothing.
      await curator.api.addResource(collection.id, { link: { title: 'Later Find', description: 'later', url: 'https://example.com/later' } });
      expect((await nthMail(witness, 3)).header('subject')).toBe('New in Mail Path Picks: 1 new resource');
      db = openDatabase({ dataDir: e2e.server.dataDir, databaseUrl: e2e.server.databaseUrl });
      const queuedForReader = await db.kysely.selectFrom('mail_outbox').select(['kind', 'status']).where('recipient', '=', reader).execute();
      // Nothing else was ever queued for the reader (so nothing can still arrive), and nothing is waiting.
      expect(queuedForReader.map((r) => [r.kind, r.status]).sort()).toEqual([
        ['confirmation', 'sent'],
        ['digest', 'sent'],
      ]);
      expect((await outboxCounts(db)).queued ?? 0).toBe(0);
      expect(mailsTo(reader)).toHaveLength(2);

      // RFC 8058: a mail client's one-click POST to the List-Unsubscribe URL (no cookie, no Origin).
      const witnessUrl = /^<(.+)>$/.exec((await nthMail(witness, 3)).header('list-unsubscribe') ?? '')?.[1] ?? '';
      const posted = await http(witnessUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(posted.status).toBe(200);
      expect(await db.kysely.selectFrom('email_subscribers').select('id').where('supercuration_id', '=', collection.id).execute()).toEqual([]);
      // Every message the sink got was a distinct one.
      const ids = sink.received.map(messageIdOf);
      expect(new Set(ids).size).toBe(ids.length);
    });
  });
}
