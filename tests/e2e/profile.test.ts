import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { testDatabases } from '../support/databases';
import { feedHeading, registerAndEnter, userBlockButton, visible } from './support/flows';
import { useE2E } from './support/harness';

const databases = await testDatabases();

/** A small PNG made for the test: a 96x96 square of one colour. */
function png(color: string): Promise<Buffer> {
  return sharp({ create: { width: 96, height: 96, channels: 3, background: color } }).png().toBuffer();
}

async function openEditProfile(page: Page, name: string) {
  await userBlockButton(page, name).click();
  return visible(page.getByRole('dialog', { name: 'Edit profile' }));
}

async function imageLoaded(page: Page, src: string): Promise<boolean> {
  return page.evaluate(
    (wanted) =>
      [...document.images].some((img) => img.getAttribute('src') === wanted && img.complete && img.naturalWidth > 0),
    src,
  );
}

for (const database of databases) {
  describe(`Edit profile [${database.name}]`, () => {
    const e2e = useE2E(database);

    test('name, bio, location and website are saved, shown and kept after a reload', async () => {
      const page = await e2e.open();
      const account = await registerAndEnter(page);
      const dialog = await openEditProfile(page, account.name);

      const name = dialog.getByLabel('Name', { exact: true });
      expect(await name.inputValue()).toBe(account.name);
      await name.fill('Ada King');
      await dialog.getByLabel('Bio').fill('Poet of science.');
      await dialog.getByLabel('Location').fill('London');
      await dialog.getByLabel('Website').fill('https://ada.example.org/notes');
      await dialog.getByRole('button', { name: 'Save' }).click();

      await dialog.waitFor({ state: 'hidden' });
      const block = await visible(userBlockButton(page, 'Ada King'));
      await visible(block.getByText('Ada King', { exact: true }));

      await page.reload();
      await visible(feedHeading(page));
      await visible(userBlockButton(page, 'Ada King'));
      const reopened = await openEditProfile(page, 'Ada King');
      expect(await reopened.getByLabel('Name', { exact: true }).inputValue()).toBe('Ada King');
      expect(await reopened.getByLabel('Bio').inputValue()).toBe('Poet of science.');
      expect(await reopened.getByLabel('Location').inputValue()).toBe('London');
      expect(await reopened.getByLabel('Website').inputValue()).toBe('https://ada.example.org/notes');
      await reopened.getByRole('button', { name: 'Cancel' }).click();
      await reopened.waitFor({ state: 'hidden' });

      // The profile page shows what was saved.
      const me = (await (await page.request.get('/api/me')).json()) as { id: string };
      await page.goto(`/profile/${me.id}`);
      await visible(page.getByRole('heading', { name: 'Ada King', level: 1 }));
      await visible(page.getByText('Poet of science.'));
      await visible(page.getByText('London'));
      await visible(page.getByRole('link', { name: /ada\.example\.org/ }));
    });

    test("a website that is not http(s) shows 'Website must be an http(s) URL' and is not saved", async () => {
      const page = await e2e.open();
      const account = await registerAndEnter(page);
      const dialog = await openEditProfile(page, account.name);
      // A valid URL for the browser's type=url check, refused by the app.
      await dialog.getByLabel('Website').fill('ftp://example.com');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await visible(dialog.getByText('Website must be an http(s) URL'));

      const me = (await (await page.request.get('/api/me')).json()) as { website: string | null };
      expect(me.website).toBeNull();
    });

    test('uploading an avatar replaces the picture in the user block', async () => {
      const page = await e2e.open();
      const account = await registerAndEnter(page);
      const blockAvatar = userBlockButton(page, account.name).locator('img');
      const before = await (await visible(blockAvatar)).getAttribute('src');
      expect(before).toBeTruthy();

      const dialog = await openEditProfile(page, account.name);
      const dialogAvatar = dialog.getByRole('img', { name: 'Your avatar' });
      expect(await dialogAvatar.getAttribute('src')).toBe(before);
      await dialog
        .getByLabel('Upload avatar')
        .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await png('#e11d48') });

      await expect.poll(() => dialogAvatar.getAttribute('src')).not.toBe(before);
      const after = (await dialogAvatar.getAttribute('src')) ?? '';
      expect(after).toMatch(/^\/api\/users\/[^/]+\/avatar/);
      await expect.poll(() => imageLoaded(page, after)).toBe(true);

      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await blockAvatar.getAttribute('src')).toBe(after);

      // The new avatar is the user's for good.
      await page.reload();
      await visible(feedHeading(page));
      expect(await userBlockButton(page, account.name).locator('img').getAttribute('src')).toBe(after);
    });

    test("a file that is not an image is refused with 'Only image files can be uploaded'", async () => {
      const page = await e2e.open();
      const account = await registerAndEnter(page);
      const dialog = await openEditProfile(page, account.name);
      await dialog
        .getByLabel('Upload avatar')
        .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
      await visible(dialog.getByText('Only image files can be uploaded'));
    });
  });
}
