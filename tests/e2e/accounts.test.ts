import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ACCOUNT_MESSAGES, type AccountExport, MSG, SUPERCURATION_MESSAGES } from '../../shared/domain';
import { type Db, openDatabase } from '../../server/db';
import { http, signedInUser, testClient } from '../support/client';
import { testDatabases } from '../support/databases';
import { type ParsedMail, parseEml } from '../support/eml';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { createCollection, uniqueSlug } from '../support/supercurations';
import { type Account, expectNoHorizontalScroll, feedHeading, freshAccount, registerInUi, signInInUi, visible, waitForPath } from './support/flows';
import { useE2E } from './support/harness';

const databases = await testDatabases();
const POLL_MS = 100;
// A digest waits DIGEST_SETTLE_MS (5 s) for resources added at the last moment, then the timer's next tick.
const MAIL_DEADLINE_MS = 30_000;
const RESET_SUBJECT = 'Reset your Supercurate password';
const VERIFY_SUBJECT = 'Verify your Supercurate e-mail address';

for (const database of databases) {
  describe(`accounts in the browser, mail over SMTP [${database.name}]`, () => {
    // Many sign-ins from one address in a few minutes: the limit has its own tests.
    const env: Record<string, string> = { DIGEST_INTERVAL_SECONDS: '1', MAIL_POLL_SECONDS: '1', AUTH_RATE_LIMIT: '1000' };
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
    const database_ = () => (db ??= openDatabase({ dataDir: e2e.server.dataDir, databaseUrl: e2e.server.databaseUrl }));

    const mailsTo = (address: string): ParsedMail[] => sink.received.filter((m) => m.to.includes(address)).map((m) => parseEml(m.raw));
    /** Polls until `address` has received `count` mails with this subject; returns the last one. */
    async function nthMail(address: string, subject: string, count: number): Promise<ParsedMail> {
      const deadline = Date.now() + MAIL_DEADLINE_MS;
      const matching = () => mailsTo(address).filter((m) => m.header('subject') === subject);
      while (matching().length < count) {
        if (Date.now() > deadline) throw new Error(`${address} received ${matching().length} of ${count} mails "${subject}"`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      return matching()[count - 1] as ParsedMail;
    }
    const linkIn = (mail: ParsedMail, path: string) => {
      const m = mail.text?.match(new RegExp(`${e2e.server.url}${path}\\?token=[^\\s]+`));
      if (!m) throw new Error(`no ${path} link in:\n${mail.text}`);
      return m[0];
    };
    async function openSettings(page: Page) {
      await page.goto('/settings');
      await visible(page.getByRole('heading', { name: 'Account', level: 2 }));
    }
    async function setNewPassword(page: Page, link: string, password: string) {
      await page.goto(link);
      await page.getByLabel('New password').fill(password);
      await page.getByRole('button', { name: 'Set new password' }).click();
    }
    /** An account registered through the API, signed in in a new browser context. */
    async function signedInPage(account: Account): Promise<Page> {
      const page = await e2e.open();
      await signInInUi(page, account);
      await waitForPath(page, '/home');
      return page;
    }

    test('forgot password: the same answer for any address, the link expires after its hour and works once, every session ends', async () => {
      const user = await signedInUser(e2e.server.url, 'Rita Reset');
      const page = await e2e.open();
      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await waitForPath(page, '/forgot-password');
      // An address nobody uses gets the same answer (and no mail).
      await page.getByLabel('Email').fill('nobody-here@example.com');
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await visible(page.getByText(ACCOUNT_MESSAGES.resetRequested));
      await page.goto('/forgot-password');
      await page.getByLabel('Email').fill(user.input.email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await visible(page.getByText(ACCOUNT_MESSAGES.resetRequested));
      const expired = linkIn(await nthMail(user.input.email, RESET_SUBJECT, 1), '/reset-password');

      // Past its hour (moved there in the database), the link is refused.
      const token = new URL(expired).searchParams.get('token') ?? '';
      await database_()
        .kysely.updateTable('verification')
        .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
        .where('identifier', '=', `reset-password:${token}`)
        .execute();
      await setNewPassword(page, expired, 'never set this 1');
      await visible(page.getByText(ACCOUNT_MESSAGES.resetInvalid));

      await page.getByRole('link', { name: 'Ask for a new link' }).click();
      await page.getByLabel('Email').fill(user.input.email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await visible(page.getByText(ACCOUNT_MESSAGES.resetRequested));
      const fresh = linkIn(await nthMail(user.input.email, RESET_SUBJECT, 2), '/reset-password');
      // The same rules as sign-up, told under the field.
      await setNewPassword(page, fresh, 'password123');
      await visible(page.getByText(MSG.passwordCommon));
      await page.getByLabel('New password').fill('my brand new secret 9');
      await page.getByRole('button', { name: 'Set new password' }).click();
      await visible(page.getByText(ACCOUNT_MESSAGES.resetDone));
      // Every session ended: the API client signed in before no longer is.
      expect(await user.api.me()).toBeNull();

      // The link works once.
      await setNewPassword(page, fresh, 'another secret 10');
      await visible(page.getByText(ACCOUNT_MESSAGES.resetInvalid));
      await signInInUi(page, { email: user.input.email, password: 'my brand new secret 9' });
      await visible(feedHeading(page));
      // Nothing went to the unknown address.
      expect(mailsTo('nobody-here@example.com')).toEqual([]);
    });

    test('change password in settings ends the session of another browser; this one stays', async () => {
      const user = await signedInUser(e2e.server.url, 'Cody Change');
      const here = await signedInPage(user.input);
      const there = await signedInPage(user.input);
      await openSettings(here);
      await here.getByLabel('Current password').fill(user.input.password);
      await here.getByLabel('New password').fill('a changed secret 11');
      await here.getByRole('button', { name: 'Change password' }).click();
      await visible(here.getByText(ACCOUNT_MESSAGES.passwordChanged));

      await there.goto('/home');
      await waitForPath(there, '/login');
      await here.reload();
      await visible(here.getByRole('heading', { name: 'Account', level: 2 }));
      await signInInUi(there, { email: user.input.email, password: 'a changed secret 11' });
      await visible(feedHeading(there));
    });

    test('a new account is verified by its e-mail before anything else is sent to it, digests included', async () => {
      const account = freshAccount('Vera Verify');
      const page = await e2e.open();
      await registerInUi(page, account);
      await visible(feedHeading(page));
      const banner = page.getByRole('region', { name: 'E-mail verification' });
      await visible(banner.getByText(account.email));

      // The new curator's public collection gets a confirmed subscriber and a resource: a digest goes out,
      // to the subscriber only.
      const curator = testClient(e2e.server.url);
      await curator.api.signIn(account);
      const collection = await curator.api.createSupercuration({ title: 'Vera picks', description: 'd', isPublic: true, slug: uniqueSlug() });
      const reader = `reader-${Date.now().toString(36)}@example.com`;
      await testClient(e2e.server.url).api.subscribeByEmail(collection.id, reader);
      expect((await http(linkIn(await nthMail(reader, 'Confirm your subscription to Vera picks', 1), '/subscriptions/confirm'))).status).toBe(200);
      await curator.api.addResource(collection.id, { link: { title: 'Verified news', description: 'x', url: 'https://example.com/vn' } });
      await nthMail(reader, 'New in Vera picks: 1 new resource', 1);
      const first = await nthMail(account.email, VERIFY_SUBJECT, 1);
      expect(mailsTo(account.email).map((m) => m.header('subject'))).toEqual([VERIFY_SUBJECT]);

      // The banner resends; the link verifies and the banner goes.
      await banner.getByRole('button', { name: 'Resend e-mail' }).click();
      await visible(banner.getByText(ACCOUNT_MESSAGES.verificationSent));
      await nthMail(account.email, VERIFY_SUBJECT, 2);
      await page.goto(linkIn(first, '/api/auth/verify-email'));
      await waitForPath(page, '/email-verified');
      await visible(page.getByRole('heading', { name: ACCOUNT_MESSAGES.emailVerified, level: 1 }));
      await page.getByRole('link', { name: 'Go to My Feed' }).click();
      await visible(feedHeading(page));
      await expect.poll(() => banner.count()).toBe(0);
      const queued = await database_().kysely.selectFrom('mail_outbox').select('kind').where('recipient', '=', account.email).execute();
      expect(queued.map((r) => r.kind)).toEqual(['verification', 'verification']);
    });

    test('settings list my sessions, sign out one, then all the others (phone width)', async () => {
      const user = await signedInUser(e2e.server.url, 'Sid Sessions');
      const here = await e2e.open({ viewport: { width: 390, height: 844 } });
      await signInInUi(here, user.input);
      await waitForPath(here, '/home');
      const there = await signedInPage(user.input);
      await openSettings(here);
      const list = here.getByRole('list', { name: 'Sessions' });
      // This browser, the other one and the API client's.
      await expect.poll(() => list.getByRole('listitem').count()).toBe(3);
      await expect.poll(() => list.getByText('This device').count()).toBe(1);
      await visible(list.getByRole('listitem').first().getByText('This device'));
      await visible(list.getByText(/Signed in .* · last active/).first());
      await expectNoHorizontalScroll(here, 390);

      // "Sign out" on the newest other session: the other browser's.
      await list.getByRole('listitem').nth(1).getByRole('button', { name: 'Sign out' }).click();
      await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
      await there.goto('/home');
      await waitForPath(there, '/login');
      expect(await user.api.me()).not.toBeNull();

      await here.getByRole('button', { name: 'Sign out all other sessions' }).click();
      await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
      expect(await user.api.me()).toBeNull();
      await here.reload();
      await visible(list.getByText('This device'));
    });

    test('export my data: the JSON file holds a private link; the bookmarks file too', async () => {
      const user = await signedInUser(e2e.server.url, 'Ezra Export');
      const hidden = await createCollection(user, { title: 'Only mine' });
      await user.api.createLink({
        title: 'A private find 77',
        description: 'kept to myself',
        url: 'https://example.com/private-77',
        supercurationIds: [hidden.id],
        inMainFeed: false,
      });
      const page = await signedInPage(user.input);
      await openSettings(page);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export my data' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^supercurate-export-\d{4}-\d{2}-\d{2}\.json$/);
      const data = JSON.parse(await readFile(await download.path(), 'utf8')) as AccountExport;
      expect(data.profile.email).toBe(user.input.email);
      expect(data.links.map((l) => l.title)).toEqual(['A private find 77']);
      expect(data.collections[0]?.resources.map((r) => r.title)).toEqual(['A private find 77']);

      const [bookmarks] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Bookmarks file of my links' }).click()]);
      expect(await readFile(await bookmarks.path(), 'utf8')).toContain('A private find 77');
    });

    test('delete my account: password and typed e-mail; then sign-in fails and my public collection is 404', async () => {
      const user = await signedInUser(e2e.server.url, 'Dana Delete');
      const collection = await createCollection(user, { isPublic: true, title: 'Soon gone' });
      const page = await signedInPage(user.input);
      await openSettings(page);
      await page.getByRole('button', { name: 'Delete my account' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
      await dialog.getByLabel('Password').fill(user.input.password);
      const confirm = dialog.getByRole('button', { name: 'Delete account' });
      await dialog.getByLabel(/to confirm$/).fill('someone-else@example.com');
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.getByLabel(/to confirm$/).fill(user.input.email);
      await confirm.click();
      await waitForPath(page, '/');

      expect((await http(`${e2e.server.url}/supercurations/public/${collection.slug}`)).status).toBe(404);
      await page.goto(`/supercurations/public/${collection.slug}`);
      await visible(page.getByText(SUPERCURATION_MESSAGES.publicNotFound).first());
      await signInInUi(page, user.input);
      await visible(page.getByText(MSG.invalidCredentials));
    });
  });
}
