import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { type DigestFrequency, READER_DIGEST_MESSAGES, type ReaderDigestSettings } from '../../shared/domain';
import { signedInUser } from '../support/client';
import { testDatabases } from '../support/databases';
import { expectNoHorizontalScroll, holdRequests, signInInUi, visible, waitForPath } from './support/flows';
import { useE2E } from './support/harness';

const databases = await testDatabases();
const PHONE = { width: 375, height: 812 };
const DIGEST_API = '**/api/me/digest';

for (const database of databases) {
  describe(`personal digest setting [${database.name}]`, () => {
    const e2e = useE2E(database);

    /** A new account registered through the API, signed in in a new browser context at phone width. */
    async function signedInPage(name: string) {
      const user = await signedInUser(e2e.server.url, name);
      const page = await e2e.open({ viewport: PHONE });
      await signInInUi(page, user.input);
      await waitForPath(page, '/home');
      return { user, page };
    }
    const card = (page: Page) => page.getByRole('region', { name: READER_DIGEST_MESSAGES.title });
    const radio = (page: Page, frequency: DigestFrequency) =>
      card(page)
        .getByRole('group', { name: READER_DIGEST_MESSAGES.label })
        .getByRole('radio', { name: READER_DIGEST_MESSAGES.choices[frequency], exact: true });
    const checked = (page: Page) => ({
      off: () => radio(page, 'off').isChecked(),
      daily: () => radio(page, 'daily').isChecked(),
      weekly: () => radio(page, 'weekly').isChecked(),
    });

    test('settings: Weekly by default; Daily picked with the keyboard is saved, kept after a reload and read back by the API (phone width)', async () => {
      const { user, page } = await signedInPage('Dora Digest');
      await page.goto('/settings');
      await visible(radio(page, 'weekly'));
      expect(await checked(page).weekly()).toBe(true);
      expect(await checked(page).daily()).toBe(false);
      expect(await checked(page).off()).toBe(false);
      await visible(card(page).getByText(READER_DIGEST_MESSAGES.hint));
      // A new account's address is not verified yet: the card says digests wait for that.
      await visible(card(page).getByText(READER_DIGEST_MESSAGES.unverified));
      expect(await card(page).getByRole('link', { name: 'Following' }).getAttribute('href')).toBe('/following');
      await expectNoHorizontalScroll(page, PHONE.width);

      // Keyboard only: the arrow key moves from Weekly to Daily, which shows at once. While it is
      // saved the choices can't be changed, and the focus stays on Daily.
      const held = await holdRequests(page, DIGEST_API);
      await radio(page, 'weekly').focus();
      await page.keyboard.press('ArrowLeft');
      await visible(card(page).getByText('Saving...'));
      expect(await checked(page).daily()).toBe(true);
      expect(await radio(page, 'off').getAttribute('aria-disabled')).toBe('true');
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe('daily');
      await held.release();

      await visible(card(page).getByRole('status').filter({ hasText: READER_DIGEST_MESSAGES.saved }));
      expect(await checked(page).daily()).toBe(true);
      expect(await radio(page, 'off').getAttribute('aria-disabled')).toBeNull();
      await expectNoHorizontalScroll(page, PHONE.width);

      await page.reload();
      await visible(radio(page, 'daily'));
      expect(await checked(page).daily()).toBe(true);
      expect(await checked(page).weekly()).toBe(false);

      // The API says the same, to this browser's session and to another one of the same account.
      const answer = await page.request.get('/api/me/digest');
      expect(answer.status()).toBe(200);
      expect(await answer.json()).toEqual({ frequency: 'daily' } satisfies ReaderDigestSettings);
      expect(await user.api.readerDigest()).toEqual({ frequency: 'daily' });
    });

    test('settings: a failed read offers Retry; a refused save goes back to the saved choice and says so', async () => {
      const { user, page } = await signedInPage('Reto Refused');

      // The read fails (after the app's own retries): the card says so and Retry reads it again.
      await page.route(DIGEST_API, (route) => route.fulfill({ status: 503, body: '' }));
      await page.goto('/settings');
      await visible(card(page).getByRole('alert').filter({ hasText: READER_DIGEST_MESSAGES.loadFailed }));
      await page.unroute(DIGEST_API);
      await card(page).getByRole('button', { name: 'Retry' }).click();
      await visible(radio(page, 'weekly'));
      expect(await checked(page).weekly()).toBe(true);

      // The save is refused: Off is shown while it is tried, then Weekly again, with the error.
      await page.route(DIGEST_API, (route) => (route.request().method() === 'PUT' ? route.fulfill({ status: 503, body: '' }) : route.fallback()));
      await radio(page, 'off').click();
      await visible(card(page).getByRole('alert').filter({ hasText: READER_DIGEST_MESSAGES.saveFailed }));
      await expect.poll(checked(page).weekly).toBe(true);
      expect(await checked(page).off()).toBe(false);
      expect(await card(page).getByText(READER_DIGEST_MESSAGES.saved).count()).toBe(0);
      expect(await user.api.readerDigest()).toEqual({ frequency: 'weekly' });

      // Tried again once the server takes it: saved, and the error goes.
      await page.unroute(DIGEST_API);
      await radio(page, 'off').click();
      await visible(card(page).getByText(READER_DIGEST_MESSAGES.saved));
      expect(await card(page).getByRole('alert').count()).toBe(0);
      expect(await checked(page).off()).toBe(true);
      expect(await user.api.readerDigest()).toEqual({ frequency: 'off' });
    });
  });
}
