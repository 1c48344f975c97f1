import { describe, expect, test } from 'vitest';
import { API_TOKEN_MESSAGES, API_TOKEN_PREFIX } from '../../shared/domain';
import { http, signedInUser } from '../support/client';
import { testDatabases } from '../support/databases';
import { expectNoHorizontalScroll, signInInUi, visible, waitForPath } from './support/flows';
import { useE2E } from './support/harness';

const databases = await testDatabases();

for (const database of databases) {
  describe(`API tokens in settings [${database.name}]`, () => {
    const e2e = useE2E(database);

    /** GET /api/me as a script sends it, with the token only. */
    const meWith = (token: string) => http(`${e2e.server.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });

    test('create a token by keyboard, see and copy it once, use it, revoke it after confirming (phone width)', async () => {
      const user = await signedInUser(e2e.server.url, 'Pat Token');
      const page = await e2e.open({ viewport: { width: 390, height: 844 } });
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.origin });
      await signInInUi(page, user.input);
      await waitForPath(page, '/home');
      await page.goto('/settings');
      const section = page.getByRole('region', { name: 'API tokens' });
      await visible(section.getByText('No API tokens yet.'));

      // An empty name is refused with a visible message.
      await section.getByRole('button', { name: 'Create token' }).click();
      await visible(section.getByText(API_TOKEN_MESSAGES.nameRequired));
      // ...tied to the field, so a screen reader reads it with the name box.
      const describedBy = await section.getByLabel('Token name').getAttribute('aria-describedby');
      expect(await page.locator(`#${describedBy}`).textContent()).toBe(API_TOKEN_MESSAGES.nameRequired);

      // By keyboard: type the name, choose the expiry, submit with Enter.
      await section.getByLabel('Token name').fill('Nightly export');
      await section.getByLabel('Expires').selectOption({ label: 'In 30 days' });
      await section.getByLabel('Token name').press('Enter');
      await visible(section.getByText(API_TOKEN_MESSAGES.created));
      const shown = section.getByLabel(/Your new token/);
      const token = await shown.inputValue();
      expect(token.startsWith(API_TOKEN_PREFIX)).toBe(true);
      await section.getByRole('button', { name: 'Copy token' }).click();
      await visible(page.getByText(API_TOKEN_MESSAGES.copied));
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
      await expectNoHorizontalScroll(page, 390);

      // It works as the user, and the list says it was used.
      const me = await meWith(token);
      expect(me.status).toBe(200);
      expect(((await me.json()) as { id: string }).id).toBe(user.me.id);

      // Seen once: after "Done" (and after a reload) the token is nowhere on the page.
      await section.getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => shown.count()).toBe(0);
      await page.reload();
      const list = section.getByRole('list', { name: 'API tokens' });
      await visible(list.getByText('Nightly export'));
      await visible(list.getByText(/Created .* · last used .* · expires/));
      expect(await page.content()).not.toContain(token);

      // Revoke: Cancel keeps it; confirming removes it, and the token stops working at once.
      const revoke = list.getByRole('button', { name: 'Revoke token Nightly export' });
      await revoke.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('alertdialog');
      await visible(dialog.getByText(API_TOKEN_MESSAGES.revokeConfirm));
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      expect((await meWith(token)).status).toBe(200);
      await revoke.click();
      await dialog.getByRole('button', { name: 'Revoke' }).click();
      await visible(page.getByText(API_TOKEN_MESSAGES.revoked));
      await visible(section.getByText('No API tokens yet.'));
      expect((await meWith(token)).status).toBe(401);
    });
  });
}
