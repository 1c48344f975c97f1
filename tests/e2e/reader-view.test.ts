import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ApiError } from '../../shared/api/client';
import { MSG, READABLE_MESSAGES } from '../../shared/domain';
import { signedInUser } from '../support/client';
import { testDatabases } from '../support/databases';
import { expectNoHorizontalScroll, signInInUi, visible, waitForPath } from './support/flows';
import { useE2E } from './support/harness';
import { useArticleServer } from './support/link-flows';

const databases = await testDatabases();
const PHONE = { width: 375, height: 812 };
/** The worker looks for due copies every 10 s when idle, and a host gets one page a second. */
const COPY_MADE_MS = 40_000;

/** A page whose scripts would set window.__xss and call alert() if any of them ever ran in the app. */
const HOSTILE_BODY = `<article><h1>Life at the vents</h1>
<script>window.__xss = 'script'; alert('script')</script>
<p>Green sulfur bacteria harvest the faint glow of black smokers. ${'They live two kilometres down, where no sunlight reaches. '.repeat(12)}</p>
<p>A picture that fails to load: <img src="/missing.png" onerror="window.__xss = 'onerror'; alert('onerror')" alt="The glow"></p>
<p onmouseover="window.__xss = 'mouseover'">${'Chlorobium lives on hydrogen sulfide and very little light. '.repeat(10)}</p>
</article>`;

for (const database of databases) {
  describe(`reader view [${database.name}]`, () => {
    // The server's own maker of readable copies, allowed to fetch the loopback site.
    const e2e = useE2E(database, { env: { PREVIEW_ALLOW_PRIVATE: 'true', READABLE_COPY_PER_MINUTE: '600' } });
    const site = useArticleServer();

    /** A new account, signed in in a new browser context (at phone width unless told). */
    async function signedInPage(name: string, viewport = PHONE) {
      const user = await signedInUser(e2e.server.url, name);
      const page = await e2e.open({ viewport });
      await signInInUi(page, user.input);
      await waitForPath(page, '/home');
      return { user, page };
    }

    const article = (page: Page) => page.getByRole('article', { name: 'Deep sea vents' });
    const articleText = (page: Page) => article(page).getByText('Green sulfur bacteria harvest the faint glow', { exact: false });

    /** Waits for the copy the server makes, pressing the page's Refresh while it is being made. */
    async function waitForCopy(page: Page) {
      const refresh = page.getByRole('button', { name: 'Refresh' });
      await expect
        .poll(
          async () => {
            if (await articleText(page).isVisible()) return true;
            if (await refresh.isEnabled().catch(() => false)) await refresh.click();
            return false;
          },
          { timeout: COPY_MADE_MS, interval: 500 },
        )
        .toBe(true);
    }

    test('the copy of a hostile page reads cleanly on a phone, and no script of it runs', async () => {
      const { user, page } = await signedInPage('Rhea Reader');
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const url = site.publish({ title: 'Deep sea vents', description: 'Life without sunlight.', body: HOSTILE_BODY });
      const link = await user.api.createLink({ url, title: 'Deep sea vents', description: 'Life without sunlight.' });

      // The link's page offers the copy to its author.
      await page.goto(`/links/${link.id}`);
      await page.getByRole('link', { name: READABLE_MESSAGES.readableCopy, exact: true }).click();
      await waitForPath(page, `/links/${link.id}/read`);
      await visible(page.getByRole('heading', { name: 'Deep sea vents', level: 1 }));
      await waitForCopy(page);

      // The header: reading time, the day it was saved, and the original page (a new tab, no opener).
      await visible(article(page).getByText(/^\d+ min read$/));
      await visible(article(page).getByText(/^Saved on [A-Z][a-z]+ \d{1,2}, \d{4}$/));
      const original = await visible(article(page).getByRole('link', { name: /^Original page on 127\.0\.0\.1/ }));
      expect(await original.getAttribute('href')).toBe(url);
      expect(await original.getAttribute('rel')).toContain('noopener');
      // Fetched by the server, not sent by the extension.
      expect(await article(page).getByText(READABLE_MESSAGES.fromExtension).count()).toBe(0);

      // Nothing of the page's scripts is there, and nothing ran (the CSP would also have said so: the harness checks).
      const body = page.locator('.reader-article');
      expect(await body.locator('script, [onerror], [onmouseover]').count()).toBe(0);
      await body.getByText('Chlorobium lives on hydrogen sulfide', { exact: false }).first().hover();
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
      expect(dialogs).toEqual([]);
      await expectNoHorizontalScroll(page, PHONE.width);

      // Light or dark, the choice kept on this device.
      const themes = article(page).getByRole('group', { name: 'Reader theme' });
      await themes.getByRole('button', { name: 'Dark' }).click();
      const background = () => article(page).evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(await background()).toBe('rgb(20, 23, 28)');
      await page.reload();
      await visible(articleText(page));
      expect(await themes.getByRole('button', { name: 'Dark' }).getAttribute('aria-pressed')).toBe('true');
      await themes.getByRole('button', { name: 'Light' }).click();
      expect(await background()).toBe('rgb(255, 255, 255)');

      // Back to the link's page.
      await page.getByRole('link', { name: 'Back to the link' }).click();
      await waitForPath(page, `/links/${link.id}`);
      await visible(page.getByRole('heading', { name: 'Deep sea vents', level: 1 }));

      // The settings card counts it, with en-US grouping.
      await page.goto('/settings');
      const card = page.getByRole('region', { name: READABLE_MESSAGES.title });
      await visible(card.getByText('Readable copies: 1 of 1', { exact: true }));
      expect(await keepSwitch(card).isChecked()).toBe(true);
      await expectNoHorizontalScroll(page, PHONE.width);
    });

    test('settings: turning copies off is confirmed first, deletes them, and the reader view says so', async () => {
      const { user, page } = await signedInPage('Otto Off');
      const url = site.publish({ title: 'Deep sea vents', description: 'Life without sunlight.', body: HOSTILE_BODY });
      const link = await user.api.createLink({ url, title: 'Deep sea vents', description: 'Life without sunlight.' });
      await page.goto('/settings');
      const card = page.getByRole('region', { name: READABLE_MESSAGES.title });
      const toggle = await visible(keepSwitch(card));
      expect(await toggle.isChecked()).toBe(true);
      await visible(card.getByText(/^Readable copies: [01] of 1/));

      // By keyboard; Cancel keeps them.
      await toggle.focus();
      await page.keyboard.press('Space');
      const confirm = await visible(page.getByRole('alertdialog', { name: READABLE_MESSAGES.confirmOffTitle }));
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'hidden' });
      expect(await toggle.isChecked()).toBe(true);

      await toggle.click();
      await page.getByRole('alertdialog', { name: READABLE_MESSAGES.confirmOffTitle }).getByRole('button', { name: READABLE_MESSAGES.turnOff }).click();
      await visible(card.getByRole('status').filter({ hasText: READABLE_MESSAGES.saved }));
      expect(await toggle.isChecked()).toBe(false);
      expect(await card.getByText(/^Readable copies:/).count()).toBe(0);
      expect(await user.api.readableCopySettings()).toMatchObject({ keep: false, kept: 0 });

      await page.goto(`/links/${link.id}/read`);
      await visible(page.getByRole('heading', { name: READABLE_MESSAGES.off }));

      // On again, at once (nothing to confirm).
      await page.goto('/settings');
      await keepSwitch(card).click();
      await visible(card.getByRole('status').filter({ hasText: READABLE_MESSAGES.saved }));
      expect(await keepSwitch(card).isChecked()).toBe(true);
      expect(await user.api.readableCopySettings()).toMatchObject({ keep: true, total: 1 });
    });

    test("another user gets the not-found view, and the API's 404", async () => {
      const author = await signedInUser(e2e.server.url, 'Ada Author');
      const url = site.publish({ title: 'Private reading', description: 'Mine alone.' });
      const link = await author.api.createLink({ url, title: 'Private reading', description: 'Mine alone.' });

      const { user: other, page } = await signedInPage('Nosy Neighbour', { width: 1280, height: 800 });
      const answer = await page.goto(`/links/${link.id}/read`);
      expect(answer?.status()).toBe(404);
      await visible(page.getByRole('heading', { name: MSG.pageNotFound, level: 1 }));
      expect(await page.getByText('Private reading').count()).toBe(0);
      const refused = await other.api.readableCopy(link.id).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).status).toBe(404);

      // Nor does the link's page offer the copy.
      await page.goto(`/links/${link.id}`);
      await visible(page.getByRole('heading', { name: 'Private reading', level: 1 }));
      expect(await page.getByRole('link', { name: READABLE_MESSAGES.readableCopy, exact: true }).count()).toBe(0);
    });
  });
}

function keepSwitch(card: Locator): Locator {
  return card.getByRole('switch', { name: READABLE_MESSAGES.label });
}
