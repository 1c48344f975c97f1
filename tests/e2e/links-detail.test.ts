import { describe, expect, test } from 'vitest';
import { signedInUser } from '../support/client';
import { testDatabases } from '../support/databases';
import { registerAndEnter, visible, waitForPath } from './support/flows';
import { useE2E } from './support/harness';
import { feedCard, signInWithLinks } from './support/link-flows';

const databases = await testDatabases();

for (const database of databases) {
  describe(`link detail, sharing and reposts [${database.name}]`, () => {
    const e2e = useE2E(database);

    test("the author's detail page: author, relative time, tags, Visit, Edit and 'Copy link'", async () => {
      const page = await e2e.open();
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.origin });
      const { input, links } = await signInWithLinks(page, e2e.server.url, [
        {
          title: 'Detail of a link',
          description: 'Everything about it.',
          url: 'https://example.com/story',
          linkText: 'Read the story',
          format: 'tutorial',
          topicIds: ['ai'],
        },
      ]);
      const link = links[0];
      if (!link) throw new Error('no link was created');

      // From the feed: the title leads to the detail page, and Back returns.
      await feedCard(page, 'Detail of a link').getByRole('link', { name: 'Detail of a link' }).click();
      await waitForPath(page, `/links/${link.id}`);
      await visible(page.getByRole('heading', { name: 'Detail of a link', level: 1 }));
      await visible(page.getByText('Everything about it.'));
      await visible(page.getByRole('link', { name: input.name }));
      expect(await page.getByRole('link', { name: input.name }).getAttribute('href')).toBe(`/profile/${link.user.id}`);
      expect(await page.locator('time').first().textContent()).toMatch(/now|seconds? ago|minutes? ago/);
      const tags = page.getByRole('list', { name: 'Tags' });
      await visible(tags.getByText('Tutorial'));
      await visible(tags.getByText('AI', { exact: true }));

      const visit = page.getByRole('link', { name: 'Read the story' });
      expect(await visit.getAttribute('href')).toBe('https://example.com/story');
      expect(await visit.getAttribute('rel')).toBe('noopener noreferrer nofollow');
      expect(await visit.getAttribute('target')).toBe('_blank');
      await visible(page.getByRole('button', { name: 'Edit' }));
      // One's own link cannot be reposted.
      expect(await page.getByRole('button', { name: 'Repost' }).count()).toBe(0);

      await page.getByRole('button', { name: 'Share' }).click();
      const dialog = await visible(page.getByRole('dialog', { name: 'Share' }));
      const pageUrl = `${e2e.server.origin}/links/${link.id}`;
      const x = dialog.getByRole('link', { name: 'Share on X' });
      expect(await x.getAttribute('href')).toBe(
        `https://x.com/intent/tweet?text=${encodeURIComponent('Detail of a link')}&url=${encodeURIComponent(pageUrl)}`,
      );
      expect(await dialog.getByRole('link', { name: 'Share on WhatsApp' }).getAttribute('href')).toBe(
        `https://wa.me/?text=${encodeURIComponent(`Detail of a link ${pageUrl}`)}`,
      );
      await dialog.getByRole('button', { name: 'Copy link' }).click();
      await visible(page.getByText('Link copied to clipboard'));
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(pageUrl);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'Edit' }).click();
      const edit = await visible(page.getByRole('dialog', { name: 'Edit link' }));
      await edit.getByLabel('Title').fill('Detail, edited');
      await edit.getByRole('button', { name: 'Update' }).click();
      await visible(page.getByRole('heading', { name: 'Detail, edited', level: 1 }));

      await page.getByRole('button', { name: 'Back' }).click();
      await waitForPath(page, '/home');
      await visible(feedCard(page, 'Detail, edited'));
    });

    test("another user reposts the link and finds it under 'My Reposts'", async () => {
      const author = await signedInUser(e2e.server.url, 'Original Author');
      const link = await author.api.createLink({ title: 'Worth reposting', description: 'Good stuff.' });

      const page = await e2e.open();
      await registerAndEnter(page);
      await page.goto(`/links/${link.id}`);
      await visible(page.getByRole('heading', { name: 'Worth reposting', level: 1 }));
      // Not theirs: no Edit.
      expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Repost' }).click();
      await visible(page.getByText('Link reposted'));
      await visible(page.getByRole('button', { name: 'Reposted' }));
      await visible(page.getByText('1 repost'));

      await page.goto('/home');
      await page.getByRole('tab', { name: 'My Reposts' }).click();
      const card = await visible(feedCard(page, 'Worth reposting'));
      await visible(card.getByRole('link', { name: 'Repost', exact: true }));
    });

    test('a visitor without a session sees the link, without Edit or Repost', async () => {
      const author = await signedInUser(e2e.server.url, 'Public Author');
      const link = await author.api.createLink({
        title: 'Open to all',
        description: 'Anyone may read this.',
        url: 'https://example.com/open',
      });
      const page = await e2e.open();
      await page.goto(`/links/${link.id}`);
      await visible(page.getByRole('heading', { name: 'Open to all', level: 1 }));
      await visible(page.getByText('Anyone may read this.'));
      await visible(page.getByRole('link', { name: 'Public Author' }));
      await visible(page.getByRole('link', { name: 'Visit Link' }));
      await visible(page.getByRole('button', { name: 'Share' }));
      expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Repost' }).count()).toBe(0);

      // A page opened directly has no history: Back goes to /home (then /login for a visitor).
      await page.getByRole('button', { name: 'Back' }).click();
      await waitForPath(page, '/login');
    });

    test("an unknown link shows 'Link not found' with 'Return to Home'", async () => {
      const page = await e2e.open();
      await page.goto('/links/no-such-link');
      await visible(page.getByRole('heading', { name: 'Link not found', level: 1 }));
      await visible(page.getByRole('link', { name: 'Return to Home' }));
    });
  });
}
