import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { signedInUser, testClient } from '../support/client';
import { testDatabases } from '../support/databases';
import { signInInUi, visible, waitForPath } from './support/flows';
import { useE2E } from './support/harness';
import { useArticleServer } from './support/link-flows';

/**
 * Find it again (issue 23): pages shared on a loopback site, read by the server's maker of
 * readable copies, found by words that only their body text holds, in Chromium.
 */

const databases = await testDatabases();

/** Words only the body holds: neither the title, the description nor the URL say them. */
const VENTS_BODY = `<article><h1>A field report</h1>
<script>window.__xss = 'script'; alert('script')</script>
<p>Chemosynthetic mats by the hydrothermal glow feed xylophagous snails. ${'The deep sea keeps its own light, faint and warm, far below. '.repeat(12)}</p>
<p>An image that fails: <img src="/missing.png" onerror="window.__xss = 'onerror'; alert('onerror')" alt="Glow"></p>
<p>${'Sulfur bacteria thrive where sunlight never reaches the sea floor. '.repeat(10)}</p></article>`;
const REEF_BODY = `<article><h1>Another report</h1>
<p>Chemosynthetic life at cold seeps has no wood-eating snails at all. ${'Methane seeps feed clams and tubeworms in the cold dark water. '.repeat(14)}</p></article>`;

for (const database of databases) {
  describe(`search [${database.name}]`, () => {
    const e2e = useE2E(database, { env: { PREVIEW_ALLOW_PRIVATE: 'true', READABLE_COPY_PER_MINUTE: '600' } });
    const site = useArticleServer();

    const results = (page: Page) => page.getByRole('list', { name: 'Results' }).getByRole('listitem');
    const resultTitles = async (page: Page) => (await results(page).getByRole('heading').allTextContents()).sort();

    /** Searches from the header's box, focused by its '/' shortcut, and waits for the results of that query. */
    async function search(page: Page, q: string) {
      await page.locator('body').click({ position: { x: 1, y: 1 } });
      await page.keyboard.press('/');
      const box = page.getByRole('searchbox', { name: 'Search my links' }).or(page.getByRole('textbox', { name: 'Search my links' })).first();
      await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
      await box.fill(q);
      await box.press('Enter');
      await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(q);
    }

    test('finds pages by their body text with marked snippets; phrases, exclusions and site: narrow it; others find nothing', async () => {
      const user = await signedInUser(e2e.server.url, 'Sid Searcher');
      const dialogs: string[] = [];
      const vents = await user.api.createLink({ url: site.publish({ title: 'Field notes one', description: 'Notes.', body: VENTS_BODY }), title: 'Field notes one', description: 'Notes.' });
      const seeps = await user.api.createLink({ url: site.publish({ title: 'Field notes two', description: 'More notes.', body: REEF_BODY }), title: 'Field notes two', description: 'More notes.' });
      await user.api.createLink({ url: 'https://example.com/chemosynthetic-primer', title: 'Chemosynthetic primer', description: 'A primer.' });
      // The server reads both pages in the background (one request a second on the site).
      await expect
        .poll(async () => (await Promise.all([vents, seeps].map((l) => user.api.readableCopy(l.id)))).map((c) => c.state).join(), { timeout: 40_000, interval: 500 })
        .toBe('kept,kept');

      const page = await e2e.open({ viewport: { width: 1280, height: 800 } });
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await signInInUi(page, user.input);
      await waitForPath(page, '/home');

      await search(page, 'chemosynthetic');
      await expect.poll(() => resultTitles(page)).toEqual(['Chemosynthetic primer', 'Field notes one', 'Field notes two']);
      const snippet = results(page).filter({ hasText: 'Field notes one' }).locator('mark');
      expect((await snippet.allTextContents()).map((t) => t.toLowerCase())).toContain('chemosynthetic');

      await search(page, '"hydrothermal glow"');
      await expect.poll(() => resultTitles(page)).toEqual(['Field notes one']);
      await search(page, 'chemosynthetic -xylophagous');
      await expect.poll(() => resultTitles(page)).toEqual(['Chemosynthetic primer', 'Field notes two']);
      await search(page, 'chemosynthetic site:example.com');
      await expect.poll(() => resultTitles(page)).toEqual(['Chemosynthetic primer']);

      // The reader view of a result: the article, and none of the page's scripts ran.
      await search(page, 'xylophagous');
      await expect.poll(() => resultTitles(page)).toEqual(['Field notes one']);
      await page.goto(`/links/${vents.id}/read`);
      await visible(page.locator('.reader-article').getByText('feed xylophagous snails', { exact: false }));
      expect(await page.locator('.reader-article script, .reader-article [onerror]').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
      expect(dialogs).toEqual([]);

      // Someone else finds nothing of it, and a visitor gets a 404 for the reader view.
      const other = await signedInUser(e2e.server.url, 'Nell Nosy');
      const otherPage = await e2e.open({ viewport: { width: 1280, height: 800 } });
      await signInInUi(otherPage, other.input);
      await waitForPath(otherPage, '/home');
      await search(otherPage, 'xylophagous');
      await visible(otherPage.getByText('No results for “xylophagous”'));
      const visitor = await fetch(`${e2e.server.url}/links/${vents.id}/read`);
      expect(visitor.status).toBe(404);
      expect((await testClient(e2e.server.url).fetch(`${e2e.server.url}/api/links/${vents.id}/copy`)).status).toBe(404);
    });
  });
}
