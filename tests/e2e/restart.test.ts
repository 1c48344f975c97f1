import { describe, expect, test } from 'vitest';
import { testDatabases } from '../support/databases';
import { feedHeading, registerAndEnter, signInInUi, userBlockButton, visible, waitForPath } from './support/flows';
import { useE2E } from './support/harness';

const databases = await testDatabases();

for (const database of databases) {
  describe(`server restart [${database.name}]`, () => {
    const e2e = useE2E(database);

    test('accounts and sessions survive a restart of the server process', async () => {
      const page = await e2e.open();
      const account = await registerAndEnter(page);
      const before = await page.request.get('/api/me');
      expect(before.status()).toBe(200);

      // SIGTERM, then a new process on the same DATA_DIR, database and port.
      const pidBefore = e2e.server.pid;
      await e2e.server.restart();
      expect(e2e.server.pid).toBeDefined();
      expect(e2e.server.pid).not.toBe(pidBefore);

      await page.reload();
      await waitForPath(page, '/home');
      await visible(feedHeading(page));
      await visible(userBlockButton(page, account.name));
      expect(await (await page.request.get('/api/me')).json()).toEqual(await before.json());

      // The account still signs in from a browser that has no session.
      const other = await e2e.open();
      await other.goto('/home');
      await waitForPath(other, '/login');
      await signInInUi(other, account);
      await waitForPath(other, '/home');
      await visible(feedHeading(other));
      await visible(userBlockButton(other, account.name));
    });
  });
}
