import { afterAll, expect, it } from 'vitest';
import { EMAIL_PAGE_TEXTS } from '../../server/http/email-subscription-routes';
import { createMailer } from '../../server/mail/mailer';
import { drainReaderDigests } from '../../server/mail/reader-digest';
import { type AccountExport, READER_DIGEST_MAX_ITEMS, READER_DIGEST_MESSAGES as M } from '../../shared/domain';
import { http, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { type ParsedMail, parseEml } from '../support/eml';
import { drainOutbox, waitForOutboxIdle } from '../support/outbox';
import { startSmtpSink } from '../support/smtp-sink';
import { type User, createCollection, expectFailure } from '../support/supercurations';

const DAY_MS = 86_400_000;
/** A moment past a period (and the digest's settle time) from now: resources get real timestamps, the digest a later clock. */
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS + 60_000);

// One real SMTP server on loopback for every mail of the suite: the server's own outbox worker and
// the test's drains both deliver there.
const sink = await startSmtpSink();
afterAll(() => sink.close());

const link = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  description: `About ${title}`,
  url: `https://example.com/${encodeURIComponent(title)}`,
  ...extra,
});

describeEachDatabase(
  'personal digest: what the people and collections I follow published, by e-mail',
  (ctx) => {
    const mailDeps = () => ({ db: ctx.server.db, publicUrl: ctx.server.url, secret: ctx.server.config.authSecret, wakeOutbox: () => {} });
    const seen = new Set<unknown>();
    /** Runs the digests as of `now`, sends the outbox, and answers the digests mailed to `user` not answered before. */
    async function digestsFor(user: User, now: Date): Promise<ParsedMail[]> {
      await drainReaderDigests(mailDeps(), now);
      const mailer = createMailer({ smtpUrl: sink.url, from: ctx.server.config.mailFrom, dataDir: ctx.server.config.dataDir });
      await drainOutbox({ db: ctx.server.db, mailer, options: { maxAttempts: 3, retrySeconds: 60, pollSeconds: 3600 } });
      await mailer.close();
      await waitForOutboxIdle(ctx.server.db);
      const mine = sink.received.filter((m) => !seen.has(m) && m.to.includes(user.input.email));
      for (const m of mine) seen.add(m);
      return mine.map((m) => parseEml(m.raw)).filter((m) => /digest/.test(m.header('subject') ?? ''));
    }
    /**
     * Puts a reader's digest window back to `at` (instead of a clock: resources get real timestamps,
     * and a digest run at a later clock has considered everything up to then).
     */
    const rewind = (user: User, at: string) =>
      ctx.server.db.kysely.updateTable('reader_digests').set({ sent_up_to: at }).where('user_id', '=', user.me.id).execute();
    /** A signed-in user whose address is verified by the link mailed to it (digests go to verified addresses only). */
    async function verifiedReader(name: string): Promise<User> {
      const user = await signedInUser(ctx.server.url, name);
      await waitForOutboxIdle(ctx.server.db);
      const mail = sink.received.find((m) => m.to.includes(user.input.email));
      const link = mail && parseEml(mail.raw).text?.match(new RegExp(`${ctx.server.url}/api/auth/verify-email\\?token=\\S+`))?.[0];
      if (!link) throw new Error(`no verification link mailed to ${user.input.email}`);
      await http(link, { redirect: 'manual' });
      expect((await user.api.me())?.emailVerified).toBe(true);
      return user;
    }
    const unsubscribeUrlOf = (mail: ParsedMail) => /^<(.+)>$/.exec(mail.header('list-unsubscribe') ?? '')?.[1] ?? '';

    it('mails one weekly digest with what followed curators and collections published, grouped, and none after one-click unsubscribe', async () => {
      const reader = await verifiedReader('Ann Reader');
      const bea = await signedInUser(ctx.server.url, 'Bea Curator');
      const owner = await signedInUser(ctx.server.url, 'Olga Owner');
      const helper = await signedInUser(ctx.server.url, 'Hugo Helper');
      const stranger = await signedInUser(ctx.server.url, 'Stan Stranger');
      const collection = await createCollection(owner, { isPublic: true, title: 'Climate Tech Weekly' });
      await owner.api.addCollaborator(collection.id, helper.me.id);
      await reader.api.subscribe(bea.me.id);
      await reader.api.followSupercuration(collection.id);
      expect(await reader.api.readerDigest()).toEqual({ frequency: 'weekly' });
      // Where the reader's first window starts (the row their first follow made). A clock read here
      // could fall in the same millisecond as Bea's link below, which a window (after, up to] leaves out.
      const { sent_up_to: followedAt } = await ctx.server.db.kysely
        .selectFrom('reader_digests')
        .select('sent_up_to')
        .where('user_id', '=', reader.me.id)
        .executeTakeFirstOrThrow();

      await bea.api.createLink(link('Bea shares a find'));
      await helper.api.addResource(collection.id, { link: link('Hugo adds a resource', { inMainFeed: false }) });
      // Not followed, or not published: never in the digest.
      await stranger.api.createLink(link('Stranger things'));
      await bea.api.createLink(link('Bea keeps this to herself', { inMainFeed: false }));

      // Not a week yet: nothing.
      expect(await digestsFor(reader, inDays(6))).toEqual([]);
      const [mail, ...others] = await digestsFor(reader, inDays(7));
      expect(others).toEqual([]);
      if (!mail) throw new Error('no digest');
      expect(mail.header('subject')).toBe('Your weekly digest: 2 new links from who you follow');
      const text = mail.text ?? '';
      expect(text).toContain('2 new links from the curators and collections you follow on Supercurate.');
      // Grouped by where each item comes from: the collection (newest first), then the curator.
      const order = ['Climate Tech Weekly', 'Hugo adds a resource', 'Added by Hugo Helper', 'Bea Curator', 'Bea shares a find'].map((s) => text.indexOf(s));
      expect(order.every((at) => at >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(text).toContain('https://example.com/Bea%20shares%20a%20find');
      expect(text).not.toContain('Stranger things');
      expect(text).not.toContain('keeps this to herself');
      expect(text).toContain(`Open your Following feed: ${ctx.server.url}/following`);
      expect(mail.html).toContain('<h2');
      expect(mail.html).toContain('Hugo adds a resource');
      expect(mail.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      const unsubscribe = unsubscribeUrlOf(mail);
      expect(unsubscribe).toMatch(new RegExp(`^${ctx.server.url}/digest/unsubscribe\\?token=.+`));

      // Exactly once: the same period again sends nothing.
      expect(await digestsFor(reader, inDays(7))).toEqual([]);
      // With its window put back, the same digest would go out again...
      await rewind(reader, followedAt);
      expect((await digestsFor(reader, inDays(7))).map((m) => m.header('subject'))).toEqual([mail.header('subject')]);

      // The GET of the link only asks; the mail client's one-click POST (no cookie) turns the digest off.
      const asked = await http(unsubscribe);
      expect(asked.status).toBe(200);
      expect(await asked.text()).toContain(EMAIL_PAGE_TEXTS.digestUnsubscribeTitle);
      expect(await reader.api.readerDigest()).toEqual({ frequency: 'weekly' });
      const done = await http(unsubscribe, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(done.status).toBe(200);
      expect(await done.text()).toContain(EMAIL_PAGE_TEXTS.digestUnsubscribed);
      expect(await reader.api.readerDigest()).toEqual({ frequency: 'off' });

      // ...but not once unsubscribed.
      await rewind(reader, followedAt);
      expect(await digestsFor(reader, inDays(7))).toEqual([]);
      expect(await digestsFor(reader, inDays(40))).toEqual([]);
    });

    it('sends nothing when there is nothing new or to an unverified address, sends daily digests daily, and leaves out what turned private', async () => {
      const daily = await verifiedReader('Dan Daily');
      const weekly = await verifiedReader('Wes Weekly');
      const idle = await verifiedReader('Ida Idle');
      const unverified = await signedInUser(ctx.server.url, 'Una Unverified');
      const owner = await signedInUser(ctx.server.url, 'Orla Owner');
      const collection = await createCollection(owner, { isPublic: true, title: 'Soon private' });
      const open = await createCollection(owner, { isPublic: true, title: 'Stays public' });
      const quiet = await createCollection(owner, { isPublic: true, title: 'Nothing happens here' });
      for (const reader of [daily, weekly, unverified]) {
        await reader.api.followSupercuration(collection.id);
        await reader.api.followSupercuration(open.id);
      }
      await idle.api.followSupercuration(quiet.id);
      expect(await daily.api.setReaderDigest({ frequency: 'daily' })).toEqual({ frequency: 'daily' });

      await owner.api.addResource(collection.id, { link: link('Hidden soon') });
      await owner.api.addResource(open.id, { link: link('Still public') });
      await owner.api.updateSupercuration(collection.id, { isPublic: false });

      const [mail, ...others] = await digestsFor(daily, inDays(1));
      expect(others).toEqual([]);
      expect(mail?.header('subject')).toBe('Your daily digest: 1 new link from who you follow');
      expect(mail?.text).toContain('Still public');
      expect(mail?.text).not.toContain('Hidden soon');
      expect(mail?.text).toContain('chose a daily digest');
      // The weekly reader's week is not over after a day.
      expect(await digestsFor(weekly, inDays(1))).toEqual([]);
      // An address never verified gets none.
      expect(await digestsFor(unverified, inDays(7))).toEqual([]);
      // Nothing new for the idle reader: no mail.
      expect(await digestsFor(idle, inDays(7))).toEqual([]);
      expect((await digestsFor(weekly, inDays(7))).map((m) => m.header('subject'))).toEqual(['Your weekly digest: 1 new link from who you follow']);
    });

    it(`lists ${READER_DIGEST_MAX_ITEMS} items at most and says how many more, linking to the Following feed`, async () => {
      const reader = await verifiedReader('Many Reader');
      const prolific = await signedInUser(ctx.server.url, 'Prolific Curator');
      await reader.api.subscribe(prolific.me.id);
      for (let i = 1; i <= READER_DIGEST_MAX_ITEMS + 2; i++) await prolific.api.createLink(link(`Find number ${i}`));
      const [mail] = await digestsFor(reader, inDays(7));
      const text = mail?.text ?? '';
      expect(mail?.header('subject')).toBe(`Your weekly digest: ${READER_DIGEST_MAX_ITEMS + 2} new links from who you follow`);
      expect(text.match(/^- Find number \d+$/gm)).toHaveLength(READER_DIGEST_MAX_ITEMS);
      // The newest first: the two oldest are the ones left for the feed.
      expect(text).toContain(`- Find number ${READER_DIGEST_MAX_ITEMS + 2}`);
      expect(text).not.toContain('- Find number 1\n');
      expect(text).not.toContain('- Find number 2\n');
      expect(text).toContain(`And 2 more in your Following feed: ${ctx.server.url}/following`);
    });

    it('claims a reader once when two servers run the digests at the same time', async () => {
      const reader = await verifiedReader('Race Reader');
      const curator = await signedInUser(ctx.server.url, 'Race Curator');
      await reader.api.subscribe(curator.me.id);
      await curator.api.createLink(link('Raced'));
      const now = inDays(7);
      const runs = await Promise.all([drainReaderDigests(mailDeps(), now), drainReaderDigests(mailDeps(), now), drainReaderDigests(mailDeps(), now)]);
      expect(runs.reduce((n, r) => n + r.mails, 0)).toBeGreaterThanOrEqual(1);
      expect(await digestsFor(reader, now)).toHaveLength(1);
    });

    it('keeps the setting per reader, validated, and starts afresh when turned on again', async () => {
      const reader = await verifiedReader('Set Reader');
      const curator = await signedInUser(ctx.server.url, 'Set Curator');
      expect(await reader.api.readerDigest()).toEqual({ frequency: 'weekly' });
      await expectFailure(reader.api.setReaderDigest({ frequency: 'hourly' as 'daily' }), 400, M.invalid);
      const visitor = testClient(ctx.server.url).api;
      await expectFailure(visitor.readerDigest(), 401, M.mustLogIn);
      await expectFailure(visitor.setReaderDigest({ frequency: 'off' }), 401, M.mustLogIn);

      await reader.api.subscribe(curator.me.id);
      expect(await reader.api.setReaderDigest({ frequency: 'off' })).toEqual({ frequency: 'off' });
      await curator.api.createLink(link('Published while off'));
      expect(await digestsFor(reader, inDays(8))).toEqual([]);
      // Turned on again: what was published while it was off is not sent as a late pile.
      await reader.api.setReaderDigest({ frequency: 'weekly' });
      await curator.api.createLink(link('Published after'));
      const [mail] = await digestsFor(reader, inDays(8));
      expect(mail?.text).toContain('Published after');
      expect(mail?.text).not.toContain('Published while off');

      const exported = (await (await reader.fetch(`${ctx.server.url}/api/me/export`)).json()) as AccountExport;
      expect(exported.digest).toEqual({ frequency: 'weekly' });
    });

    it('refuses a forged unsubscribe link and changes nothing', async () => {
      const reader = await signedInUser(ctx.server.url, 'Forge Reader');
      const forged = `${ctx.server.url}/digest/unsubscribe?token=${encodeURIComponent(`${reader.me.id}.AAAA`)}`;
      const asked = await http(forged);
      expect(asked.status).toBe(404);
      expect(await asked.text()).toContain(EMAIL_PAGE_TEXTS.unsubscribeInvalid);
      const posted = await http(forged, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
      expect(posted.status).toBe(400);
      expect(await reader.api.readerDigest()).toEqual({ frequency: 'weekly' });
    });
  },
  () => ({ SMTP_URL: sink.url, MAIL_POLL_SECONDS: '3600' }),
);
