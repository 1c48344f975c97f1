import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { testDatabases } from '../support/databases';
import { expectNoHorizontalScroll, holdRequests, registerAndEnter, visible } from './support/flows';
import { useE2E } from './support/harness';
import {
  LOOPBACK_PREVIEWS,
  feedCard,
  feedCards,
  openShareDialog,
  signInWithLinks,
  useArticleServer,
} from './support/link-flows';

const databases = await testDatabases();
const PHONE = { width: 375, height: 740 };

async function imageLoaded(page: Page, src: string): Promise<boolean> {
  return page.evaluate(
    (wanted) =>
      [...document.images].some((img) => img.getAttribute('src') === wanted && img.complete && img.naturalWidth > 0),
    src,
  );
}

for (const database of databases) {
  describe(`My Feed [${database.name}]`, () => {
    const e2e = useE2E(database, LOOPBACK_PREVIEWS);
    const site = useArticleServer();

    test('a pasted URL is previewed, shared with a format and a topic, and lands at the top of Shared by me', async () => {
      const page = await e2e.open();
      await registerAndEnter(page);
      await visible(page.getByText("You haven't shared any links yet"));
      const addBox = page.getByRole('form', { name: 'Add a link' });
      const share = addBox.getByRole('button', { name: 'Share' });
      expect(await share.isDisabled()).toBe(true);

      const first = site.publish({ title: 'First Article', description: 'The one shared first.' });
      const dialog = await openShareDialog(page, first);
      await dialog.getByRole('button', { name: 'Share', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      await visible(feedCard(page, 'First Article'));

      const url = site.publish({ title: 'The Art of Curation', description: 'Why choosing well matters.' });
      await page.getByLabel('Share a link').fill(url);
      // Share waits for the preview.
      expect(await share.isDisabled()).toBe(true);
      const preview = await visible(page.getByRole('article', { name: 'Link preview' }));
      await visible(preview.getByRole('heading', { name: 'The Art of Curation' }));
      await visible(preview.getByText('Why choosing well matters.'));
      // The thumbnail comes from the app's image proxy, never from the other site.
      const proxied = `/api/images/proxy?url=${encodeURIComponent(site.thumbnailUrl)}`;
      expect(await preview.locator('img').getAttribute('src')).toBe(proxied);
      await expect.poll(() => imageLoaded(page, proxied)).toBe(true);
      await expect.poll(() => share.isEnabled()).toBe(true);

      await share.click();
      const shareDialog = await visible(page.getByRole('dialog', { name: 'Preview & Share' }));
      expect(await shareDialog.getByLabel('Title').inputValue()).toBe('The Art of Curation');
      expect(await shareDialog.getByLabel('Description').inputValue()).toBe('Why choosing well matters.');
      expect(await shareDialog.getByLabel('URL (optional)').inputValue()).toBe(url);
      expect(await shareDialog.getByLabel('Link button text').inputValue()).toBe('Visit Link');
      expect(await shareDialog.getByLabel('Thumbnail URL').inputValue()).toBe(site.thumbnailUrl);

      const video = shareDialog.getByRole('group', { name: 'Format' }).getByRole('button', { name: 'Video' });
      await video.click();
      expect(await video.getAttribute('aria-pressed')).toBe('true');
      const ai = shareDialog.getByRole('group', { name: 'Topics' }).getByRole('button', { name: 'AI', exact: true });
      await ai.click();
      expect(await ai.getAttribute('aria-pressed')).toBe('true');
      await shareDialog.getByLabel('Original content').check();

      const held = await holdRequests(page, '**/api/links');
      await shareDialog.getByRole('button', { name: 'Share', exact: true }).click();
      await visible(shareDialog.getByRole('button', { name: 'Sharing...' }));
      await held.release();
      await shareDialog.waitFor({ state: 'hidden' });
      expect(await page.getByLabel('Share a link').inputValue()).toBe('');

      const top = feedCards(page).first();
      await visible(top.getByRole('heading', { name: 'The Art of Curation' }));
      await visible(top.getByRole('list', { name: 'Tags' }).getByText('Video'));
      await visible(top.getByRole('list', { name: 'Tags' }).getByText('AI', { exact: true }));
      expect(await top.locator('img').first().getAttribute('src')).toBe(proxied);
      await visible(top.getByText('ORIGINAL', { exact: true }));
      expect(await feedCards(page).count()).toBe(2);

      // The server has it: still first after a reload.
      await page.reload();
      await visible(feedCards(page).first().getByRole('heading', { name: 'The Art of Curation' }));
      expect(await feedCards(page).count()).toBe(2);
    });

    test("a page without metadata gets the fallback preview; a failed preview shows 'Failed to fetch link preview'", async () => {
      const page = await e2e.open();
      await registerAndEnter(page);
      const addBox = page.getByRole('form', { name: 'Add a link' });
      const share = addBox.getByRole('button', { name: 'Share' });

      await page.getByLabel('Share a link').fill(`${site.publish({ title: 'x', description: 'y' })}-missing`);
      const preview = await visible(page.getByRole('article', { name: 'Link preview' }));
      await visible(preview.getByRole('heading', { name: '127.0.0.1' }));
      await visible(preview.getByText('No preview available'));
      await expect.poll(() => share.isEnabled()).toBe(true);

      await page.route('**/api/preview?*', (route) =>
        route.fulfill({ status: 502, contentType: 'application/json', body: '{"error":"Bad gateway"}' }),
      );
      await page.getByLabel('Share a link').fill(site.publish({ title: 'Unreachable', description: 'Never seen.' }));
      await visible(addBox.getByRole('alert').getByText('Failed to fetch link preview'));
      expect(await share.isDisabled()).toBe(true);

      await page.getByLabel('Share a link').fill('javascript:alert(1)');
      await visible(addBox.getByText('Only http(s) links can be shared'));
      expect(await share.isDisabled()).toBe(true);
    });

    test('like and unlike: the button is pressed, the count follows, and both are kept', async () => {
      const page = await e2e.open();
      await signInWithLinks(page, e2e.server.url, [{ title: 'Likeable', description: 'Worth a like.' }]);
      const card = await visible(feedCard(page, 'Likeable'));
      const like = card.getByRole('button', { name: 'Like' });
      expect(await like.getAttribute('aria-pressed')).toBe('false');
      expect(await like.textContent()).toContain('0');

      await like.click();
      await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => like.textContent()).toContain('1');
      await expect.poll(() => like.isEnabled()).toBe(true);

      await page.reload();
      const reloaded = feedCard(page, 'Likeable').getByRole('button', { name: 'Like' });
      await visible(reloaded);
      expect(await reloaded.getAttribute('aria-pressed')).toBe('true');
      expect(await reloaded.textContent()).toContain('1');

      await reloaded.click();
      await expect.poll(() => reloaded.getAttribute('aria-pressed')).toBe('false');
      await expect.poll(() => reloaded.textContent()).toContain('0');
      await expect.poll(() => reloaded.isEnabled()).toBe(true);
      await page.reload();
      await visible(feedCard(page, 'Likeable'));
      expect(await feedCard(page, 'Likeable').getByRole('button', { name: 'Like' }).getAttribute('aria-pressed')).toBe(
        'false',
      );
    });

    test("edit opens the dialog prefilled; 'Update' saves the new title and format", async () => {
      const page = await e2e.open();
      await signInWithLinks(page, e2e.server.url, [
        { title: 'Draft title', description: 'To be edited.', format: 'article' },
      ]);
      await feedCard(page, 'Draft title').getByRole('button', { name: 'Edit' }).click();
      const dialog = await visible(page.getByRole('dialog', { name: 'Edit link' }));
      expect(await dialog.getByLabel('Title').inputValue()).toBe('Draft title');
      const formats = dialog.getByRole('group', { name: 'Format' });
      expect(await formats.getByRole('button', { name: 'Article' }).getAttribute('aria-pressed')).toBe('true');

      await dialog.getByLabel('Title').fill('Final title');
      await formats.getByRole('button', { name: 'Podcast' }).click();
      expect(await formats.getByRole('button', { name: 'Article' }).getAttribute('aria-pressed')).toBe('false');

      // A required field left empty is refused before anything is sent.
      await dialog.getByLabel('Description').fill('   ');
      await dialog.getByRole('button', { name: 'Update' }).click();
      await visible(dialog.getByText('Description is required'));
      await dialog.getByLabel('Description').fill('Edited for good.');

      // 'Add Topic' creates a topic inline and selects it.
      await dialog.getByRole('button', { name: 'Add Topic' }).click();
      await dialog.getByLabel('Topic name').fill('Quantum Things');
      await dialog.getByRole('button', { name: 'Add Topic' }).click();
      const created = dialog.getByRole('group', { name: 'Topics' }).getByRole('button', { name: 'Quantum Things' });
      await expect.poll(() => created.getAttribute('aria-pressed')).toBe('true');

      // An uploaded thumbnail is stored on our server.
      const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#9333ea' } }).png().toBuffer();
      await dialog.getByLabel('Upload image').setInputFiles({ name: 'thumb.png', mimeType: 'image/png', buffer: png });
      const thumbnail = dialog.getByLabel('Thumbnail URL');
      await expect.poll(() => thumbnail.inputValue()).toMatch(/^\/api\/uploads\/.+\.webp$/);
      const uploaded = await thumbnail.inputValue();

      const held = await holdRequests(page, '**/api/links/*');
      await dialog.getByRole('button', { name: 'Update' }).click();
      await visible(dialog.getByRole('button', { name: 'Updating...' }));
      await held.release();
      await dialog.waitFor({ state: 'hidden' });

      const card = await visible(feedCard(page, 'Final title'));
      await visible(card.getByRole('list', { name: 'Tags' }).getByText('Podcast'));
      await visible(card.getByText('Edited for good.'));
      await visible(card.getByRole('list', { name: 'Tags' }).getByText('Quantum Things'));
      expect(await card.locator('img').first().getAttribute('src')).toBe(uploaded);
      await expect.poll(() => imageLoaded(page, uploaded)).toBe(true);
      await page.reload();
      await visible(feedCard(page, 'Final title'));
      expect(await feedCard(page, 'Draft title').count()).toBe(0);
    });

    test('format, topic and time filters narrow the list and live in the URL', async () => {
      const page = await e2e.open();
      await signInWithLinks(page, e2e.server.url, [
        { title: 'A video', description: 'Moving pictures.', format: 'video', topicIds: ['growth'] },
        { title: 'An article', description: 'Words.', format: 'article' },
      ]);
      await visible(feedCard(page, 'A video'));
      await visible(feedCard(page, 'An article'));

      const formats = page.getByRole('group', { name: 'Format' });
      await formats.getByRole('button', { name: 'Video' }).click();
      await page.waitForURL((url) => url.searchParams.get('format') === 'video');
      await expect.poll(() => feedCards(page).count()).toBe(1);
      await visible(feedCard(page, 'A video'));

      // The filter survives a reload.
      await page.reload();
      await visible(feedCard(page, 'A video'));
      expect(await feedCards(page).count()).toBe(1);
      expect(await formats.getByRole('button', { name: 'Video' }).getAttribute('aria-pressed')).toBe('true');

      await formats.getByRole('button', { name: 'All Formats' }).click();
      await expect.poll(() => feedCards(page).count()).toBe(2);

      await page.getByRole('button', { name: 'Add Filter' }).click();
      const search = await visible(page.getByPlaceholder('Search topics...'));
      await search.fill('zzz');
      await visible(page.getByText('No topics found'));
      await search.fill('grow');
      await page.getByRole('button', { name: 'Growth' }).click();
      await page.waitForURL((url) => url.searchParams.get('topic') === 'growth');
      await expect.poll(() => feedCards(page).count()).toBe(1);
      await visible(feedCard(page, 'A video'));
      await page.getByRole('button', { name: 'Remove filter Growth' }).click();
      await expect.poll(() => feedCards(page).count()).toBe(2);

      await page.getByLabel('Time', { exact: true }).selectOption({ label: 'Today' });
      await page.waitForURL((url) => url.searchParams.get('window') === 'today');
      await expect.poll(() => feedCards(page).count()).toBe(2);
    });

    test('delete asks for confirmation, then removes the card for good', async () => {
      const page = await e2e.open();
      const { links } = await signInWithLinks(page, e2e.server.url, [
        { title: 'Keep me', description: 'Stays.' },
        { title: 'Remove me', description: 'Goes.' },
      ]);
      const card = await visible(feedCard(page, 'Remove me'));
      await card.getByRole('button', { name: 'Delete' }).click();
      const confirm = await visible(page.getByRole('alertdialog', { name: 'Delete Link' }));
      await visible(
        confirm.getByText('Are you sure you want to delete this link? This action cannot be undone.', { exact: true }),
      );
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'hidden' });
      await visible(feedCard(page, 'Remove me'));

      await card.getByRole('button', { name: 'Delete' }).click();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await confirm.waitFor({ state: 'hidden' });
      await feedCard(page, 'Remove me').waitFor({ state: 'detached' });
      await visible(feedCard(page, 'Keep me'));

      const removed = links.find((l) => l.title === 'Remove me');
      expect((await page.request.get(`/api/links/${removed?.id}`)).status()).toBe(404);
      await page.reload();
      await visible(feedCard(page, 'Keep me'));
      expect(await feedCard(page, 'Remove me').count()).toBe(0);
    });

    test('Manage Topics adds, renames and deletes a topic', async () => {
      const page = await e2e.open();
      await registerAndEnter(page);
      await page.getByRole('button', { name: 'Manage Topics' }).click();
      const dialog = await visible(page.getByRole('dialog', { name: 'Manage Topics' }));
      await dialog.getByLabel('Topic name').fill('Space Travel');
      const green = dialog.getByRole('radio', { name: 'Green' });
      await dialog.getByTitle('Green').click();
      expect(await green.isChecked()).toBe(true);
      await dialog.getByRole('button', { name: 'Add Topic' }).click();
      await visible(dialog.getByRole('button', { name: 'Edit Space Travel' }));
      expect(await dialog.getByLabel('Topic name').inputValue()).toBe('');

      await dialog.getByRole('button', { name: 'Edit Space Travel' }).click();
      const rename = dialog.getByRole('textbox', { name: 'Topic name' }).last();
      await rename.fill('Rockets');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await visible(dialog.getByRole('button', { name: 'Edit Rockets' }));

      await dialog.getByRole('button', { name: 'Delete Rockets' }).click();
      await dialog.getByRole('button', { name: 'Edit Rockets' }).waitFor({ state: 'detached' });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    });

    test("pages of 10: 'Load more' and scrolling fetch the next ones; failures are toasted", async () => {
      const page = await e2e.open();
      const links = Array.from({ length: 23 }, (_, i) => ({ title: `Paged link ${i + 1}`, description: `Number ${i + 1}.` }));
      await signInWithLinks(page, e2e.server.url, links);
      await visible(feedCard(page, 'Paged link 23'));
      expect(await feedCards(page).count()).toBe(10);

      // The button loads the next page. Clicked where it stands: scrolling it into view would let
      // the end-of-list loader fetch the rest first and take the button away before the click.
      await page.getByRole('button', { name: 'Load more' }).dispatchEvent('click');
      await expect.poll(() => feedCards(page).count()).toBeGreaterThanOrEqual(20);
      // Reaching the end of the list loads the rest without a click.
      await expect
        .poll(async () => {
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
          return feedCards(page).count();
        })
        .toBe(23);
      await visible(feedCard(page, 'Paged link 1'));
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

      // A next page that fails: 'Failed to fetch more links'.
      await page.route('**/api/links?*cursor=*', (route) =>
        route.fulfill({ status: 400, contentType: 'application/json', body: '{"error":"Invalid page cursor"}' }),
      );
      await page.reload();
      await visible(feedCard(page, 'Paged link 23'));
      await page.getByRole('button', { name: 'Load more' }).click();
      await visible(page.getByText('Failed to fetch more links'));
      expect(await feedCards(page).count()).toBe(10);

      // A first page that fails: 'Failed to load links', with a retry.
      await page.route('**/api/links?*', (route) =>
        route.fulfill({ status: 400, contentType: 'application/json', body: '{"error":"Bad request"}' }),
      );
      await page.reload();
      await visible(page.getByRole('status').getByText('Failed to load links'));
      await page.unrouteAll();
      await page.getByRole('button', { name: 'Retry' }).click();
      await visible(feedCard(page, 'Paged link 23'));
    });

    test('going offline shows a notice; coming back reloads the feed', async () => {
      const page = await e2e.open();
      const user = await signInWithLinks(page, e2e.server.url, [{ title: 'Before', description: 'Old.' }]);
      await visible(feedCard(page, 'Before'));
      await user.api.createLink({ title: 'While away', description: 'New.' });

      await page.context().setOffline(true);
      await visible(page.getByText('You are offline'));
      await page.context().setOffline(false);
      await page.getByText('You are offline').waitFor({ state: 'detached' });
      await visible(feedCard(page, 'While away'));
    });

    test("empty tabs and phone-sized screens: 'No reposts yet', no horizontal scroll", async () => {
      const page = await e2e.open({ viewport: PHONE });
      await signInWithLinks(page, e2e.server.url, [
        {
          title: 'A rather long title for a small screen, to see that it wraps well',
          description: 'x'.repeat(150),
          format: 'newsletter',
          topicIds: ['future-of-work', 'productivity'],
        },
      ]);
      const card = await visible(feedCards(page).first());
      await card.getByRole('button', { name: 'Show more' }).click();
      await visible(card.getByRole('button', { name: 'Show less' }));
      await expectNoHorizontalScroll(page, PHONE.width);

      await page.getByRole('tab', { name: 'My Reposts' }).click();
      await page.waitForURL((url) => url.searchParams.get('tab') === 'reposts');
      await visible(page.getByText('No reposts yet'));
      await expectNoHorizontalScroll(page, PHONE.width);
    });
  });
}
