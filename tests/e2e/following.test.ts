import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { signedInUser } from '../support/client';
import { testDatabases } from '../support/databases';
import { freshAccount, registerAndEnter, signInInUi, visible, waitForPath } from './support/flows';
import { useE2E } from './support/harness';

const databases = await testDatabases();

/** The number under 'Subscribers' or 'Subscriptions' on a profile. */
function profileCount(page: Page, label: 'Subscribers' | 'Subscriptions') {
  return page.locator('dl > div').filter({ has: page.getByText(label, { exact: true }) }).locator('dd');
}

/** Today in the two forms the app shows: ISO (CSV) and en-US (dashboard); the browser runs in UTC. */
function today() {
  const now = new Date();
  return {
    iso: now.toISOString().slice(0, 10),
    enUS: now.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }),
  };
}

for (const database of databases) {
  describe(`Following [${database.name}]`, () => {
    const e2e = useE2E(database);

    test('A subscribes on B’s profile; B sees A on the dashboard and exports the CSV; A unsubscribes', async () => {
      const bea = await signedInUser(e2e.server.url, 'Bea Publisher');
      // A second subscriber whose name a spreadsheet would run as a formula.
      const cal = await signedInUser(e2e.server.url, '=Cal, "the" Formula');

      // A (Ada) opens Bea's profile.
      const pageA = await e2e.open();
      const ada = await registerAndEnter(pageA, freshAccount('Ada Reader'));
      const adaId = ((await (await pageA.request.get('/api/me')).json()) as { id: string }).id;
      await pageA.goto(`/profile/${bea.me.id}`);
      await visible(pageA.getByRole('heading', { name: 'Bea Publisher', level: 1 }));
      // Someone else's e-mail is never shown.
      expect(await pageA.getByText(bea.input.email).count()).toBe(0);
      const rss = pageA.getByRole('link', { name: 'RSS feed of the links Bea Publisher shares' });
      expect(await rss.getAttribute('href')).toBe(`/users/${bea.me.id}/feed.xml`);
      expect(await profileCount(pageA, 'Subscribers').textContent()).toBe('0');

      await pageA.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await visible(pageA.getByRole('button', { name: 'Unsubscribe' }));
      await expect.poll(() => profileCount(pageA, 'Subscribers').textContent()).toBe('1');
      // Still so after a reload (the server's state, not just the screen's).
      await pageA.reload();
      await visible(pageA.getByRole('button', { name: 'Unsubscribe' }));
      expect(await profileCount(pageA, 'Subscribers').textContent()).toBe('1');

      await cal.api.subscribe(bea.me.id);

      // B (Bea) opens the Subscriber Dashboard.
      const pageB = await e2e.open();
      await signInInUi(pageB, bea.input);
      await waitForPath(pageB, '/home');
      await pageB.getByRole('link', { name: 'My Subscribers' }).first().click();
      await waitForPath(pageB, '/dashboard');
      await visible(pageB.getByText('2 Subscribers', { exact: true }));
      const rows = pageB.getByRole('row');
      await expect.poll(() => rows.count()).toBe(3);
      const adaRow = rows.filter({ hasText: ada.email });
      await visible(adaRow.getByRole('cell', { name: today().enUS }));
      const adaLink = adaRow.getByRole('link', { name: 'Ada Reader' });
      expect(await adaLink.getAttribute('href')).toBe(`/profile/${adaId}`);
      // Newest first.
      expect(await rows.nth(1).textContent()).toContain('=Cal, "the" Formula');

      // Export CSV: a download of subscribers-{date}.csv, formula-safe and RFC 4180-quoted.
      const [download] = await Promise.all([
        pageB.waitForEvent('download'),
        pageB.getByRole('link', { name: 'Export CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`subscribers-${today().iso}.csv`);
      const csv = await readFile(await download.path(), 'utf8');
      expect(csv).toBe(
        'Name,Email,Subscribed Date\r\n' +
          `"'=Cal, ""the"" Formula",${cal.input.email},${today().iso}\r\n` +
          `Ada Reader,${ada.email},${today().iso}\r\n`,
      );

      // A unsubscribes; B's dashboard follows.
      await pageA.getByRole('button', { name: 'Unsubscribe' }).click();
      await visible(pageA.getByRole('button', { name: 'Subscribe', exact: true }));
      await expect.poll(() => profileCount(pageA, 'Subscribers').textContent()).toBe('1');
      await pageB.reload();
      await visible(pageB.getByText('1 Subscriber', { exact: true }));
      expect(await pageB.getByText(ada.email).count()).toBe(0);
    });

    test('own profile has no Subscribe button; an empty dashboard says so; a failed subscribe shows a toast', async () => {
      const other = await signedInUser(e2e.server.url, 'Someone Else');
      const page = await e2e.open();
      const me = await registerAndEnter(page, freshAccount('Lonely Curator'));
      const myId = ((await (await page.request.get('/api/me')).json()) as { id: string }).id;

      await page.goto(`/profile/${myId}`);
      await visible(page.getByRole('heading', { name: 'Lonely Curator', level: 1 }));
      // The profile's own line (the unverified address is also named in the verification banner).
      await visible(page.locator('p').filter({ hasText: new RegExp(`^${me.email.replaceAll('.', '\\.')}$`) }));
      await visible(page.getByRole('button', { name: 'Edit profile', exact: true }));
      expect(await page.getByRole('button', { name: /subscribe/i }).count()).toBe(0);
      await visible(page.getByRole('link', { name: 'RSS feed of the links Lonely Curator shares' }));

      await page.goto('/dashboard');
      await visible(page.getByText('0 Subscribers', { exact: true }));
      await visible(page.getByText('No subscribers yet'));

      await page.route('**/api/users/*/subscription', (route) => route.abort());
      await page.goto(`/profile/${other.me.id}`);
      await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await visible(page.getByText('Failed to subscribe'));
      await visible(page.getByRole('button', { name: 'Subscribe', exact: true }));
      expect(await profileCount(page, 'Subscribers').textContent()).toBe('0');
    });

    test("the dashboard shows 'Failed to fetch subscriptions' when the list can't be loaded", async () => {
      const page = await e2e.open();
      await registerAndEnter(page);
      await page.route('**/api/me/subscribers', (route) => route.abort());
      await page.goto('/dashboard');
      await visible(page.getByText('Failed to fetch subscriptions'));
      await page.unroute('**/api/me/subscribers');
      await page.getByRole('button', { name: 'Retry' }).click();
      await visible(page.getByText('No subscribers yet'));
    });

    test('a reader follows a public collection from its page and unfollows it from the directory; its curator has no button', async () => {
      const curator = await signedInUser(e2e.server.url, 'Cleo Curator');
      await curator.api.createSupercuration({ title: 'Deep Sea Reads', isPublic: true, slug: 'deep-sea-reads' });

      const page = await e2e.open();
      await registerAndEnter(page, freshAccount('Finn Follower'));
      await page.goto('/supercurations/public/deep-sea-reads');
      await visible(page.getByRole('heading', { name: 'Deep Sea Reads', level: 1 }));
      await visible(page.getByText('0 followers'));
      await page.getByRole('button', { name: 'Follow', exact: true }).click();
      await visible(page.getByRole('button', { name: 'Unfollow', exact: true }));
      await visible(page.getByText('1 follower', { exact: true }));
      // The server's state, not just the screen's.
      await page.reload();
      await visible(page.getByRole('button', { name: 'Unfollow', exact: true }));

      // The directory's card says so too, and unfollows by keyboard.
      await page.goto('/directory');
      const unfollow = page.getByRole('button', { name: 'Unfollow Deep Sea Reads' });
      await unfollow.focus();
      await page.keyboard.press('Enter');
      await visible(page.getByRole('button', { name: 'Follow Deep Sea Reads' }));
      await page.goto('/supercurations/public/deep-sea-reads');
      await visible(page.getByText('0 followers'));

      // Its curator sees the count, and no button to follow their own collection.
      const own = await e2e.open();
      await signInInUi(own, curator.input);
      await waitForPath(own, '/home');
      await own.goto('/supercurations/public/deep-sea-reads');
      await visible(own.getByText('0 followers'));
      expect(await own.getByRole('button', { name: 'Follow', exact: true }).count()).toBe(0);
    });
  });
}
