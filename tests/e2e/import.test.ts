import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ApiError } from '../../shared/api/client';
import {
  BOOKMARK_FOLDER_MAX_DEPTH,
  FEED_IMPORT_MESSAGES,
  IMPORT_MESSAGES,
  SUPERCURATION_MESSAGES,
  flattenedFoldersText,
  paths,
  IMAGE_PROXY_PATH,
  previewsLeftText,
} from '../../shared/domain';
import { signedInUser } from '../support/client';
import { testDatabases } from '../support/databases';
import { expectNoHorizontalScroll, holdRequests, visible } from './support/flows';
import { useE2E } from './support/harness';
import { LOOPBACK_PREVIEWS, feedCard, signInWithLinks, useArticleServer } from './support/link-flows';
import { nestedBookmarkFile } from '../support/bookmark-files';
import { CHROMIUM_BOOKMARKS_HTML } from '../support/chromium-bookmarks';

const databases = await testDatabases();
const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../fixtures/imports', name));
const PHONE = { width: 375, height: 740 };

/** The import panel, opened from under the add box. */
async function openImport(page: Page): Promise<Locator> {
  const toggle = page.getByRole('button', { name: IMPORT_MESSAGES.importToggle });
  await toggle.click();
  expect(await toggle.getAttribute('aria-expanded')).toBe('true');
  return visible(page.getByRole('tabpanel', { name: 'Text' }));
}

/** Chooses a file in the 'Import file' tab; answers its folder-mapping form. */
async function chooseImportFile(page: Page, name: string, buffer: Buffer): Promise<Locator> {
  await page.getByRole('tabpanel', { name: 'Import file' }).getByLabel('Import file', { exact: true }).setInputFiles({ name, mimeType: '', buffer });
  return visible(page.getByRole('form', { name: 'Bookmark folders' }));
}

/** The summary an import ends with: its first line, and its collections as listed. */
async function importSummary(page: Page, firstLine: string) {
  const summary = await visible(page.getByRole('status').filter({ hasText: firstLine }));
  expect(await summary.locator('p').first().textContent()).toBe(firstLine);
  const items = await summary.getByRole('listitem').allTextContents();
  return { summary, collections: items.map((t) => t.replace(/\s+/g, ' ').trim()).sort() };
}

function foundList(page: Page): Locator {
  return page.getByRole('list', { name: 'Found URLs' });
}

/** Signed in with a collection to share into (through its API; a format is used where there is none). */
async function signInWithCollection(page: Page, baseUrl: string) {
  const user = await signInWithLinks(page, baseUrl);
  try {
    const collection = await user.api.createSupercuration({ title: 'Imported reads', description: 'From a newsletter', isPublic: false });
    return { user, collection };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return { user, collection: null };
    throw err;
  }
}

for (const database of databases) {
  describe(`Import [${database.name}]`, () => {
    const e2e = useE2E(database, LOOPBACK_PREVIEWS);
    const site = useArticleServer();

    test('pasted text with a dozen URLs: found, previewed, one shared alone, a selection shared in one batch', async () => {
      const articles = Array.from({ length: 12 }, (_, i) => ({
        title: `Imported Article ${i + 1}`,
        description: `Summary number ${i + 1}.`,
      }));
      const urls = articles.map((a) => site.publish(a));
      const newsletter = [
        'Hi all, this week’s links:',
        ...urls.map((u, i) => (i % 3 === 0 ? `${i + 1}. ${u}.` : i % 3 === 1 ? `- (${u})` : `<${u}>`)),
        `And again the first one: ${urls[0]}`,
        'Reply to hello@example.com, see you in v2.1!',
      ].join('\n');

      const page = await e2e.open();
      const { user, collection } = await signInWithCollection(page, e2e.server.origin);
      const panel = await openImport(page);
      await panel.getByLabel('Text with URLs').fill(newsletter);
      await panel.getByRole('button', { name: 'Find URLs' }).click();

      const list = await visible(foundList(page));
      await expect.poll(() => list.getByRole('listitem').count()).toBe(12);
      await visible(page.getByText('12 of 12 selected'));
      // Previews arrive (three at a time) and progress is shown until the last one.
      await visible(page.getByText('Previews loaded 12/12'));
      for (const a of articles) await visible(list.getByText(a.title, { exact: true }));
      await visible(list.getByText('Summary number 7.'));

      // One item through Preview & Share on its own: it leaves the list.
      await list.getByRole('button', { name: 'Share Imported Article 12' }).click();
      const dialog = await visible(page.getByRole('dialog', { name: 'Preview & Share' }));
      expect(await dialog.getByLabel('Title').inputValue()).toBe('Imported Article 12');
      expect(await dialog.getByLabel('URL (optional)').inputValue()).toBe(urls[11]);
      await dialog.getByRole('button', { name: 'Share', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => list.getByRole('listitem').count()).toBe(11);
      await visible(feedCard(page, 'Imported Article 12'));

      // Select none, then five.
      await page.getByLabel('Select all').uncheck();
      await visible(page.getByText('0 of 11 selected'));
      const share = page.getByRole('button', { name: /^Share Selected/ });
      expect(await share.isDisabled()).toBe(true);
      const chosen = [1, 3, 5, 8, 10].map((n) => articles[n - 1]!.title);
      for (const title of chosen) await list.getByLabel(title, { exact: true }).check();
      await visible(page.getByText('5 of 11 selected'));
      expect(await share.textContent()).toBe('Share Selected (5)');

      // The batch rule: hidden from the main feed needs a collection or a format.
      const hide = page.getByLabel("Don't add to main feed");
      await hide.check();
      await share.click();
      await visible(page.getByRole('alert').filter({ hasText: IMPORT_MESSAGES.batchRule }));
      if (collection) await page.getByRole('group', { name: 'Add to Supercurations' }).getByLabel(collection.title).check();
      else await page.getByRole('group', { name: 'Format' }).getByRole('button', { name: 'Article' }).click();
      // ...and into the feed too.
      await hide.uncheck();

      const held = await holdRequests(page, '**/api/links/batch');
      await share.click();
      await visible(page.getByRole('button', { name: 'Sharing 5 links...' }));
      await held.release();
      await visible(page.getByText('5 links shared'));
      // SPEC §4: the list and the settings start over.
      await foundList(page).waitFor({ state: 'detached' });
      expect(await page.getByLabel('Text with URLs').inputValue()).toBe('');
      for (const title of chosen) await visible(feedCard(page, title));
      expect(await feedCard(page, 'Imported Article 2').count()).toBe(0);

      const feed = await user.api.listLinks();
      const shared = feed.items.filter((l) => chosen.includes(l.title));
      expect(shared.map((l) => l.url).sort()).toEqual([1, 3, 5, 8, 10].map((n) => urls[n - 1]).sort());
      for (const link of shared) {
        if (collection) expect(link.supercurationIds).toEqual([collection.id]);
        else expect(link.format).toBe('article');
      }

      // A new search starts with fresh settings.
      await page.getByLabel('Text with URLs').fill(urls[1]!);
      await page.getByRole('button', { name: 'Find URLs' }).click();
      await visible(page.getByText('1 of 1 selected'));
      expect(await page.getByLabel("Don't add to main feed").isChecked()).toBe(false);
      if (collection) {
        expect(await page.getByRole('group', { name: 'Add to Supercurations' }).getByLabel(collection.title).isChecked()).toBe(false);
      }
    });

    test('a text without URLs says so; the panel works at 375 px and by keyboard', async () => {
      const page = await e2e.open({ viewport: PHONE });
      await signInWithLinks(page, e2e.server.origin);
      const toggle = page.getByRole('button', { name: IMPORT_MESSAGES.importToggle });
      await toggle.focus();
      await page.keyboard.press('Enter');
      const text = await visible(page.getByLabel('Text with URLs'));
      await text.focus();
      await page.keyboard.type('Nothing here but report.pdf, v1.2 and ada@example.com');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Find URLs');
      await page.keyboard.press('Enter');
      await visible(page.getByRole('alert').filter({ hasText: IMPORT_MESSAGES.noUrlsFound }));

      // Reading the clipboard needs the browser's permission: without it, a hint; with it, the text is searched.
      const pasteButton = page.getByRole('button', { name: 'Paste from clipboard' });
      await pasteButton.click();
      await visible(page.getByText(IMPORT_MESSAGES.clipboardDenied));
      const url = site.publish({ title: 'A phone-sized read', description: 'Small screens too.' });
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.origin });
      await page.evaluate((copied) => navigator.clipboard.writeText(copied), `look: ${url} and www.example.org`);
      await pasteButton.click();
      await visible(page.getByText('2 of 2 selected'));
      expect(await text.inputValue()).toBe(`look: ${url} and www.example.org`);
      await visible(foundList(page).getByText('A phone-sized read'));
      await expectNoHorizontalScroll(page, PHONE.width);

      // The image tab: the upload button is reachable by keyboard.
      await page.getByRole('tab', { name: 'Image' }).click();
      const upload = page.getByLabel('Upload screenshot');
      await upload.focus();
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('file');
      await expectNoHorizontalScroll(page, PHONE.width);
    });

    test('a screenshot made in Chromium is read in the browser: its URLs are found, nothing leaves the origin', { timeout: 180_000 }, async () => {
      const expected = [
        'https://example.com/ocr/first-article',
        'https://news.example.org/2024/reading-list',
        'https://www.example.net/posts/screenshots',
        'https://blog.example.com/how-to-curate',
      ];
      // Render the "screenshot" in Chromium itself, from inline HTML (no request anywhere).
      const painter = await e2e.open({ viewport: { width: 1100, height: 520 } });
      await painter.setContent(`<!doctype html><html><body style="margin:40px;background:#fff;color:#111;font:30px/1.6 sans-serif">
        <p>Weekly reads, worth your time:</p>
        ${expected.map((u) => `<p style="margin:0">${u}</p>`).join('')}
        <p>Shared by @ada - thanks for reading!</p></body></html>`);
      const png = await painter.screenshot({ type: 'png' });

      const page = await e2e.open();
      const requests: string[] = [];
      // Every request of the page and of its workers (the OCR engine runs in a worker).
      page.context().on('request', (request) => requests.push(request.url()));
      await signInWithLinks(page, e2e.server.origin);
      await openImport(page);
      await page.getByRole('tab', { name: 'Image' }).click();
      const started = Date.now();
      await page.getByLabel('Upload screenshot').setInputFiles({ name: 'newsletter.png', mimeType: 'image/png', buffer: png });
      await visible(page.getByRole('status').filter({ hasText: /Loading OCR engine\.\.\.|Recognising text\.\.\. \d+%/ }));

      const list = foundList(page);
      await list.waitFor({ state: 'visible', timeout: 150_000 });
      console.info(`OCR of a 1100x520 screenshot (engine start included): ${Date.now() - started} ms`);
      const found = await list.locator('[id$="-url"]').allTextContents();
      expect(found).toEqual(expected);
      // The text read is in the Text tab, to correct and search again.
      await page.getByRole('tab', { name: 'Text' }).click();
      expect(await page.getByLabel('Text with URLs').inputValue()).toContain('Weekly reads');

      const origin = e2e.server.origin;
      expect(requests.filter((u) => !u.startsWith(`${origin}/`) && !/^(data|blob):/.test(u))).toEqual([]);
      const ocrFiles = requests.filter((u) => u.startsWith(`${origin}/ocr/`)).map((u) => u.slice(origin.length));
      expect(ocrFiles).toContain('/ocr/worker.min.js');
      expect(ocrFiles).toContain('/ocr/lang/eng.traineddata.gz');
      expect(ocrFiles.some((u) => /^\/ocr\/core\/tesseract-core-(relaxedsimd-|simd-)?lstm\.wasm\.js$/.test(u))).toBe(true);
    });

    test("a Chromium bookmarks export: its folders are listed, the user maps them, the summary follows", async () => {
      const page = await e2e.open();
      const user = await signInWithLinks(page, e2e.server.origin);
      const reading = await user.api.createSupercuration({ title: 'Reading list', description: 'Long reads', isPublic: false });
      await openImport(page);
      await page.getByRole('tab', { name: 'Import file' }).click();
      await page.getByRole('tabpanel', { name: 'Import file' }).getByLabel('Import file', { exact: true }).setInputFiles({
        name: 'bookmarks_11_23_26.html',
        mimeType: 'text/html',
        buffer: Buffer.from(CHROMIUM_BOOKMARKS_HTML),
      });

      const folders = await visible(page.getByRole('form', { name: 'Bookmark folders' }));
      await visible(folders.getByText('9 bookmarks in 3 folders (4 in no folder)', { exact: false }));
      const dev = folders.getByLabel('Dev (1)', { exact: true });
      const rust = folders.getByLabel('Dev / Rust (2)', { exact: true });
      const readingFolder = folders.getByLabel('Reading (2)', { exact: true });
      expect([await dev.inputValue(), await rust.inputValue(), await readingFolder.inputValue()]).toEqual(['new', 'new', 'new']);
      await dev.selectOption({ label: 'No supercuration' });
      await readingFolder.selectOption({ label: 'Reading list' });
      // Keyboard: the form submits from its button.
      await folders.getByRole('button', { name: 'Import 9 bookmarks' }).focus();
      await page.keyboard.press('Enter');

      const summary = await visible(page.getByRole('status').filter({ hasText: 'links imported' }));
      expect(await summary.locator('p').first().textContent()).toBe('7 links imported, 1 already saved, 1 skipped');
      const items = await summary.getByRole('listitem').allTextContents();
      expect(items.map((t) => t.replace(/\s+/g, ' ').trim()).sort()).toEqual([
        'Dev / Rust (2 links, new private supercuration)',
        'Reading list (2 links)',
      ]);
      await summary.getByRole('link', { name: 'Reading list' }).click();
      await page.waitForURL(`**/supercurations/${reading.id}`);
      const own = await user.api.mySupercurationChoices();
      expect(own.map((c) => c.title).sort()).toEqual(['Dev / Rust', 'Reading list']);
    });

    test('a Pocket zip of two CSV parts and a Raindrop CSV with nested folders: collections, dates, tags and titles kept, nothing public, a re-import adds nothing', async () => {
      const page = await e2e.open();
      const user = await signInWithLinks(page, e2e.server.origin);
      await openImport(page);
      await page.getByRole('tab', { name: 'Import file' }).click();

      const pocket = await chooseImportFile(page, 'pocket.zip', fixture('pocket.zip'));
      await visible(pocket.getByText('6 bookmarks (6 in no folder).', { exact: false }));
      await pocket.getByRole('button', { name: 'Import 6 bookmarks' }).click();
      await importSummary(page, '4 links imported, 0 already saved, 2 skipped');

      const raindrop = await chooseImportFile(page, 'raindrop.csv', fixture('raindrop.csv'));
      await visible(raindrop.getByLabel('Dev / Rust (2)', { exact: true }));
      await visible(raindrop.getByLabel('Travel (1)', { exact: true }));
      await raindrop.getByRole('button', { name: 'Import 5 bookmarks' }).click();
      const { summary, collections } = await importSummary(page, '4 links imported, 0 already saved, 1 skipped');
      expect(collections).toEqual(['Dev / Rust (2 links, new private supercuration)', 'Travel (1 link, new private supercuration)']);

      // In the collection: the title, the saved date and the tags of the file (as my topics, known at once).
      await summary.getByRole('link', { name: 'Dev / Rust' }).click();
      await page.waitForURL('**/supercurations/*');
      const card = await visible(page.getByRole('article').filter({ hasText: 'Rust, the book' }));
      expect(await card.locator('time').first().getAttribute('datetime')).toBe('2023-05-01T10:00:00.000Z');
      await visible(card.getByText('rust', { exact: true }));
      await visible(card.getByText('books', { exact: true }));

      // A visitor sees none of it on my profile.
      const visitor = await e2e.open();
      await visitor.goto(`${e2e.server.origin}${paths.profile(user.me.id)}`);
      await visible(visitor.getByRole('heading', { name: user.me.name }));
      await visible(visitor.getByText(SUPERCURATION_MESSAGES.noPublic));
      // ...nor in the RSS feed the profile links to.
      const rssHref = await visitor.getByRole('link', { name: `RSS feed of the links ${user.me.name} shares` }).getAttribute('href');
      const rss = await (await fetch(new URL(rssHref ?? '', e2e.server.origin))).text();
      expect(rss).toContain('<channel>');
      for (const title of ['Rust, the book', 'Café, crème', 'Zürich guide']) expect(rss).not.toContain(title);

      // Both files again: nothing new.
      await page.goto(`${e2e.server.origin}/home`);
      await openImport(page);
      await page.getByRole('tab', { name: 'Import file' }).click();
      await (await chooseImportFile(page, 'pocket.zip', fixture('pocket.zip'))).getByRole('button', { name: 'Import 6 bookmarks' }).click();
      await importSummary(page, '0 links imported, 4 already saved, 2 skipped');
      await (await chooseImportFile(page, 'raindrop.csv', fixture('raindrop.csv'))).getByRole('button', { name: 'Import 5 bookmarks' }).click();
      await importSummary(page, '0 links imported, 4 already saved, 1 skipped');
      expect((await user.api.mySupercurationChoices()).map((c) => c.title).sort()).toEqual(['Dev / Rust', 'Travel']);
    });

    test("another curator's public collection, by its RSS feed URL, becomes my private supercuration", async () => {
      const curator = await signedInUser(e2e.server.origin, 'Ada Feedwriter');
      const shelf = await curator.api.createSupercuration({ title: 'Climate shelf', description: 'Good reads on climate', isPublic: true, slug: `climate-${Date.now().toString(36)}` });
      for (const title of ['Heat pumps explained', 'Grid storage at scale']) {
        await curator.api.createLink({ title, description: `${title}, in short.`, url: site.publish({ title, description: 'x' }), supercurationIds: [shelf.id] });
      }
      const page = await e2e.open({ viewport: PHONE });
      await signInWithLinks(page, e2e.server.origin);
      await openImport(page);
      await page.getByRole('tab', { name: 'Feed' }).click();
      const form = await visible(page.getByRole('form', { name: FEED_IMPORT_MESSAGES.heading }));
      const field = form.getByLabel(FEED_IMPORT_MESSAGES.urlLabel);
      // A page, not a feed: said, and nothing imported.
      await field.fill(`${e2e.server.origin}${paths.directory}`);
      await form.getByRole('button', { name: FEED_IMPORT_MESSAGES.submit }).click();
      await visible(page.getByRole('alert').filter({ hasText: FEED_IMPORT_MESSAGES.notAFeed }));

      await field.fill(`${e2e.server.origin}${paths.collectionFeed(shelf.slug ?? '')}`);
      await field.press('Enter');
      const { summary, collections } = await importSummary(page, '2 links imported, 0 already saved, 0 skipped');
      expect(collections).toEqual(['Climate shelf (2 links, new private supercuration)']);
      await expectNoHorizontalScroll(page, PHONE.width);
      await summary.getByRole('link', { name: 'Climate shelf' }).click();
      await page.waitForURL('**/supercurations/*');
      await visible(page.getByText('Good reads on climate'));
      for (const title of ['Heat pumps explained', 'Grid storage at scale']) await visible(page.getByRole('article').filter({ hasText: title }));
    });

    test('a file nested deeper than 100 folders is flattened, and the preview and the summary say so', async () => {
      const page = await e2e.open();
      await signInWithLinks(page, e2e.server.origin);
      await openImport(page);
      await page.getByRole('tab', { name: 'Import file' }).click();
      await page.getByRole('tabpanel', { name: 'Import file' }).getByLabel('Import file', { exact: true }).setInputFiles({
        name: 'deep.html',
        mimeType: 'text/html',
        buffer: Buffer.from(nestedBookmarkFile(BOOKMARK_FOLDER_MAX_DEPTH + 30, 2)),
      });
      const folders = await visible(page.getByRole('form', { name: 'Bookmark folders' }));
      const line = `${flattenedFoldersText(30)}.`;
      await visible(folders.getByText(line, { exact: true }));
      await folders.getByRole('button', { name: 'Import 2 bookmarks' }).click();
      const summary = await visible(page.getByRole('status').filter({ hasText: '2 links imported' }));
      await visible(summary.getByText(line, { exact: true }));
    });

    test('a large bookmarks file shows how many are imported while it runs', async () => {
      const n = 3000;
      const file = `<DL><p><DT><H3>Bulk</H3><DL><p>\n${Array.from({ length: n }, (_, i) => `<DT><A HREF="https://bulk.example.com/${i}">Bulk ${i}</A>\n`).join('')}</DL><p></DL><p>`;
      const page = await e2e.open();
      await signInWithLinks(page, e2e.server.origin);
      await openImport(page);
      await page.getByRole('tab', { name: 'Import file' }).click();
      await page.getByRole('tabpanel', { name: 'Import file' }).getByLabel('Import file', { exact: true }).setInputFiles({ name: 'bulk.html', mimeType: 'text/html', buffer: Buffer.from(file) });
      const folders = await visible(page.getByRole('form', { name: 'Bookmark folders' }));
      // Every text the status line shows, recorded as it changes.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { statusTexts: string[] }).statusTexts = seen;
        new MutationObserver(() => {
          for (const el of document.querySelectorAll('[role="status"]')) {
            const text = el.textContent ?? '';
            if (seen.at(-1) !== text) seen.push(text);
          }
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await folders.getByRole('button', { name: 'Import 3,000 bookmarks' }).click();
      await visible(page.getByRole('status').filter({ hasText: '3,000 links imported, 0 already saved, 0 skipped' }));
      const texts = await page.evaluate(() => (window as unknown as { statusTexts: string[] }).statusTexts);
      expect(texts.some((t) => /^[\d,]+ of 3,000 bookmarks imported$/.test(t))).toBe(true);
      expect(await page.getByRole('progressbar').count()).toBe(0);
    });
  });
}

for (const database of databases) {
  describe(`Import, previews afterwards [${database.name}]`, () => {
    const e2e = useE2E(database, { env: { ...LOOPBACK_PREVIEWS.env, IMPORT_PREVIEW_PER_MINUTE: '120' } });
    const site = useArticleServer();

    test('links imported without titles get their pages’ titles and pictures in the background; the collection says how many are left', async () => {
      const titles = ['Tidal power, revisited', 'Rewilding the Rhine', 'Cities without cars'];
      const urls = titles.map((title) => site.publish({ title, description: `${title}: the long read.` }));
      const gone = `${new URL(urls[0]!).origin}/articles/gone`;
      const file = `<DL><p><DT><H3>Reading pile</H3><DL><p>\n${[...urls, gone].map((u) => `<DT><A HREF="${u}" ADD_DATE="1700000000"></A>`).join('\n')}\n</DL><p></DL><p>`;
      const page = await e2e.open();
      await signInWithLinks(page, e2e.server.origin);
      await openImport(page);
      await page.getByRole('tab', { name: 'Import file' }).click();
      await (await chooseImportFile(page, 'bookmarks.html', Buffer.from(file))).getByRole('button', { name: 'Import 4 bookmarks' }).click();
      const { summary } = await importSummary(page, '4 links imported, 0 already saved, 0 skipped');
      await summary.getByRole('link', { name: 'Reading pile' }).click();
      await page.waitForURL('**/supercurations/*');
      // The page that is gone keeps its host as its title and waits for its retry.
      await visible(page.getByRole('status').filter({ hasText: previewsLeftText(1) }));
      for (const title of titles) {
        const card = await visible(page.getByRole('article').filter({ hasText: title }));
        // The page's og:image, through our image proxy.
        await visible(card.locator(`img[src^="${IMAGE_PROXY_PATH}?url="]`));
      }
      await visible(page.getByRole('heading', { name: '127.0.0.1', exact: true }));
    });
  });
}

