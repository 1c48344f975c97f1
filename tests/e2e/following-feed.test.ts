import { describe, expect, test } from 'vitest';
import { FOLLOWING_MESSAGES } from '../../shared/domain';
import { signedInUser } from '../support/client';
import { testDatabases } from '../support/databases';
import { expectNoHorizontalScroll, freshAccount, registerAndEnter, visible, waitForPath } from './support/flows';
import { useE2E } from './support/harness';

const databases = await testDatabases();

for (const database of databases) {
  describe(`Following feed [${database.name}]`, () => {
    const e2e = useE2E(database);

    test('A follows user B and collection C; B shares, another curator adds to C; both show with who and where; C turns private and its items go', async () => {
      const bea = await signedInUser(e2e.server.url, 'Bea Sharer');
      const cleo = await signedInUser(e2e.server.url, 'Cleo Owner');
      const dan = await signedInUser(e2e.server.url, 'Dan Helper');
      const weekly = await cleo.api.createSupercuration({ title: 'Climate Tech Weekly', isPublic: true, slug: 'climate-tech-weekly' });
      await cleo.api.addCollaborator(weekly.id, dan.me.id);

      const page = await e2e.open();
      await registerAndEnter(page, freshAccount('Ada Reader'));

      // Nothing followed yet: the empty state leads to the directory. (Keyboard only: focus and Enter.)
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Following' }).focus();
      await page.keyboard.press('Enter');
      await waitForPath(page, '/following');
      await visible(page.getByRole('heading', { name: FOLLOWING_MESSAGES.empty }));
      expect(await page.getByRole('link', { name: FOLLOWING_MESSAGES.discover }).getAttribute('href')).toBe('/directory');

      // A follows B on B's profile and C on its public page.
      await page.goto(`/profile/${bea.me.id}`);
      await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await visible(page.getByRole('button', { name: 'Unsubscribe' }));
      await page.goto('/supercurations/public/climate-tech-weekly');
      await page.getByRole('button', { name: 'Follow', exact: true }).click();
      await visible(page.getByRole('button', { name: 'Unfollow' }));

      await bea.api.createLink({ title: 'Heat pumps explained', description: 'How they work', url: 'https://example.com/heat', format: 'article' });
      await dan.api.addResource(weekly.id, {
        link: { title: 'Grid batteries', description: 'Storage at scale', url: 'https://example.com/grid', format: 'video', inMainFeed: false },
      });

      await page.goto('/following');
      const feed = page.getByRole('list', { name: 'Following' });
      await expect.poll(() => feed.locator(':scope > li').count()).toBe(2);
      const newest = feed.locator(':scope > li').nth(0);
      const older = feed.locator(':scope > li').nth(1);
      expect(await newest.locator('p').first().innerText()).toMatch(/^Dan Helper\s+added to\s+Climate Tech Weekly/);
      expect(await newest.getByRole('link', { name: 'Climate Tech Weekly' }).getAttribute('href')).toBe('/supercurations/public/climate-tech-weekly');
      await visible(newest.getByRole('link', { name: 'Grid batteries' }));
      expect(await older.locator('p').first().innerText()).toMatch(/^Bea Sharer\s+shared/);
      await visible(older.getByRole('link', { name: 'Heat pumps explained' }));

      // The format chips filter it, in the URL as on My Feed.
      await page.getByRole('group', { name: 'Format' }).getByRole('button', { name: 'Video', exact: true }).focus();
      await page.keyboard.press('Space');
      await expect.poll(() => new URL(page.url()).searchParams.get('format')).toBe('video');
      expect(new URL(page.url()).pathname).toBe('/following');
      await expect.poll(() => feed.locator(':scope > li').count()).toBe(1);
      await visible(feed.getByRole('link', { name: 'Grid batteries' }));

      // On a phone-sized screen it fits without sideways scrolling.
      await page.setViewportSize({ width: 375, height: 800 });
      await expectNoHorizontalScroll(page, 375);
      await page.setViewportSize({ width: 1280, height: 800 });

      // C turns private: its items leave A's feed.
      await cleo.api.updateSupercuration(weekly.id, { isPublic: false });
      await page.goto('/following');
      await visible(feed.getByRole('link', { name: 'Heat pumps explained' }));
      expect(await feed.locator(':scope > li').count()).toBe(1);
      expect(await page.getByText('Climate Tech Weekly').count()).toBe(0);
      expect(await page.getByText('Grid batteries').count()).toBe(0);
    });
  });
}
