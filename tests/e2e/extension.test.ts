import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ApiError } from '../../shared/api/client';
import { type Link, READABLE_MESSAGES } from '../../shared/domain';
import { signedInUser } from '../support/client';
import { freePort } from '../support/free-port';
import {
  type ExtensionBrowser,
  openPopupFor,
  setServerUrl,
  signInFromPopup,
  tabIdOf,
  useExtensionE2E,
  useTestSite,
} from './support/extension';
import { feedHeading, visible } from './support/flows';

/** What the background worker exposes to these tests in the e2e build (extension/entrypoints/background.ts). */
interface TestHooks {
  clickMenu(info: { menuItemId: string; pageUrl?: string; linkUrl?: string }, tab?: { id?: number; url?: string }): Promise<{
    ok: boolean;
    title: string;
    message: string;
  } | null>;
  refreshMenus(): Promise<void>;
  menuItems(): Array<{ id: string; title: string; parentId?: string; enabled?: boolean; type?: string }>;
  lastNotification(): { title: string; message: string } | null;
  badgeText(tabId: number): Promise<string>;
}
declare const supercurateTest: TestHooks;

const FILL_BUDGET_MS = 200;
const LONG_TEXT = 'Choosing well among too many links is the whole point of a curated feed. '.repeat(6).trim();

describe('browser extension (Chromium, unpacked e2e build)', () => {
  const site = useTestSite();
  const extraOrigins: string[] = [];
  // The server's maker of readable copies runs (and is refused the members-only page).
  const e2e = useExtensionE2E(undefined, { env: { PREVIEW_ALLOW_PRIVATE: 'true', READABLE_COPY_PER_MINUTE: '600' }, extraOrigins: () => extraOrigins });

  const ext = (): ExtensionBrowser => e2e.browser;

  /** A page that blocks framing and scripts of its own, like many real ones: the capture reads its DOM anyway. */
  function publishVideo(slug: string, title: string) {
    const canonical = `${site.origin}/watch/${slug}`;
    const url = site.publish(`/watch/${slug}`, {
      headers: { 'x-frame-options': 'DENY', 'content-security-policy': "default-src 'none'; img-src 'self'; frame-ancestors 'none'" },
      html: `<!doctype html><html><head>
        <title>${title} - TestTube</title>
        <meta property="og:site_name" content="TestTube">
        <meta property="og:title" content="${title}">
        <meta property="og:description" content="A talk about choosing well among too many links.">
        <meta property="og:type" content="video.other">
        <meta property="og:image" content="/thumb.png">
        <link rel="canonical" href="${canonical}">
        </head><body><h1>${title}</h1><p>${LONG_TEXT}</p></body></html>`,
    });
    return { url: `${url}?utm_source=newsletter`, canonical, thumbnail: `${site.origin}/thumb.png` };
  }

  function publishArticle(slug: string, title: string, description = 'An article worth keeping.') {
    return site.publish(`/articles/${slug}`, {
      html: `<!doctype html><html><head><title>${title}</title>
        <meta property="og:title" content="${title}"><meta property="og:description" content="${description}">
        <meta property="og:type" content="article"></head>
        <body><article><h1>${title}</h1><p>${LONG_TEXT}</p></article></body></html>`,
    });
  }

  async function openTab(url: string): Promise<Page> {
    const page = await ext().context.newPage();
    await page.goto(url);
    return page;
  }

  /** Signs the extension in as `user` (signing out whoever is signed in), from a popup for `page`. */
  async function signInAs(page: Page, user: { email: string; password: string }): Promise<void> {
    const { popup } = await openPopupFor(ext(), page);
    const signOut = popup.getByRole('button', { name: 'Sign out' });
    const form = popup.getByRole('heading', { name: 'Sign in to Supercurate' });
    await visible(signOut.or(form));
    if (await signOut.isVisible()) {
      await signOut.click();
      await visible(form);
    }
    await signInFromPopup(popup, user.email, user.password);
    await visible(popup.getByRole('button', { name: 'Sign out' }));
    await popup.close();
  }

  async function shareForm(popup: Page) {
    const heading = await visible(popup.getByRole('heading', { name: /^(Preview & Share|Edit link)$/ }));
    return { heading, form: popup.locator('form').filter({ has: popup.getByLabel('Title') }) };
  }

  test('signed out → sign in → Preview & Share filled from the page DOM → share; the link is on the server; the popup then edits it', async () => {
    const user = await signedInUser(e2e.server.url, 'Ada Extension');
    const reading = await user.api.createSupercuration({ title: 'Talks to watch' });
    const video = publishVideo('curation', 'Why curation matters');
    await setServerUrl(ext(), e2e.server.url, /^Saved\. Supercurate shares to/);

    const page = await openTab(video.url);
    const { popup, tabId } = await openPopupFor(ext(), page);
    await visible(popup.getByRole('heading', { name: 'Sign in to Supercurate' }));
    const signInButton = popup.getByRole('button', { name: 'Sign in' });
    expect(await signInButton.isDisabled()).toBe(true);
    await signInFromPopup(popup, user.input.email, 'not-the-password');
    await visible(popup.getByText('Invalid email or password'));
    await signInFromPopup(popup, user.input.email, user.input.password);

    const { heading } = await shareForm(popup);
    expect(await heading.textContent()).toBe('Preview & Share');
    await visible(popup.getByText('Ada Extension'));
    expect(await popup.getByLabel('Title').inputValue()).toBe('Why curation matters');
    expect(await popup.getByLabel('Description').inputValue()).toBe('A talk about choosing well among too many links.');
    expect(await popup.getByLabel('URL (optional)').inputValue()).toBe(video.canonical);
    expect(await popup.getByLabel('Thumbnail URL').inputValue()).toBe(video.thumbnail);
    const videoFormat = popup.getByRole('group', { name: 'Format' }).getByRole('button', { name: 'Video' });
    expect(await videoFormat.getAttribute('aria-pressed')).toBe('true');
    // The thumbnail comes through the user's server (its image proxy), never from the page's site.
    const proxied = `${e2e.server.url}/api/images/proxy?url=${encodeURIComponent(video.thumbnail)}`;
    await expect.poll(() => popup.getByAltText('Thumbnail preview').getAttribute('src')).toBe(proxied);
    await expect
      .poll(() => popup.getByAltText('Thumbnail preview').evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);

    await popup.getByRole('group', { name: 'Topics' }).getByRole('button', { name: 'AI', exact: true }).click();
    // The user's collections, through the web app's own query hooks.
    await popup.getByRole('group', { name: 'Add to Supercurations' }).getByLabel('Talks to watch').check();
    await popup.getByRole('button', { name: 'Share', exact: true }).click();
    await visible(popup.getByRole('heading', { name: 'Link shared' }));

    const shared = await user.api.lookupLink(video.canonical);
    expect(shared).toMatchObject({
      url: video.canonical,
      title: 'Why curation matters',
      description: 'A talk about choosing well among too many links.',
      thumbnailUrl: video.thumbnail,
      format: 'video',
      topicIds: ['ai'],
      supercurationIds: [reading.id],
      user: { name: 'Ada Extension' },
    });
    await expect.poll(() => ext().worker.evaluate((id) => supercurateTest.badgeText(id), tabId)).toBe('✓');
    await popup.close();

    // Already shared: the popup says so and opens in edit mode ('Update').
    const again = await openPopupFor(ext(), page);
    await visible(again.popup.getByText('You already shared this page. Update it below.'));
    expect(await (await shareForm(again.popup)).heading.textContent()).toBe('Edit link');
    expect(await again.popup.getByLabel('Title').inputValue()).toBe('Why curation matters');
    await again.popup.getByLabel('Title').fill('Why curation matters (a talk)');
    await again.popup.getByRole('button', { name: 'Update', exact: true }).click();
    await visible(again.popup.getByRole('heading', { name: 'Link updated' }));
    expect((await user.api.getLink((shared as Link).id)).title).toBe('Why curation matters (a talk)');
    await again.popup.close();

    // The session is the web app's cookie, in the browser's store: the web app is signed in too.
    const web = await ext().context.newPage();
    await web.goto(`${e2e.server.url}/home`);
    await visible(feedHeading(web));
    await web.close();
    await page.close();
  });

  test("shares a page only the user's browser may read (a member's cookie): the readable copy holds the text they saw", async () => {
    const user = await signedInUser(e2e.server.url, 'Mia Member');
    const memberText = 'Only members read how green sulfur bacteria live by the glow of hydrothermal vents.';
    const url = site.publish('/members/deep-vents', {
      cookie: 'member=yes',
      html: `<!doctype html><html lang="en"><head><title>Members: deep vents</title>
        <meta name="description" content="A members-only article."></head>
        <body><nav>Menu Account Log out</nav><article><h1>Members: deep vents</h1>
        <p>${memberText} ${LONG_TEXT}</p><p>${LONG_TEXT}</p><script>window.__member = 1</script></article>
        <footer>Footer links</footer></body></html>`,
    });
    await ext().context.addCookies([{ name: 'member', value: 'yes', url: site.origin }]);
    // The server itself is refused the page.
    expect((await fetch(url)).status).toBe(403);
    const page = await openTab(url);
    await signInAs(page, user.input);
    const { popup } = await openPopupFor(ext(), page);
    await shareForm(popup);
    expect(await popup.getByLabel('Title').inputValue()).toBe('Members: deep vents');
    await popup.getByRole('button', { name: 'Share', exact: true }).click();
    await visible(popup.getByRole('heading', { name: 'Link shared' }));
    await popup.close();

    const shared = (await user.api.lookupLink(url)) as Link;
    const copy = await user.api.readableCopy(shared.id);
    expect(copy).toMatchObject({ state: 'kept', source: 'extension', lang: 'en' });
    expect(copy.html).toContain(memberText);
    expect(copy.html).not.toMatch(/<script|Menu Account|Footer links/);

    // The reader view, in the browser the extension shares (signed in to the web app too).
    const reader = await ext().context.newPage();
    await reader.goto(`${e2e.server.url}/links/${shared.id}/read`);
    await visible(reader.locator('.reader-article').getByText(memberText, { exact: false }));
    await visible(reader.getByText(READABLE_MESSAGES.fromExtension));
    await reader.close();
    await page.close();
  });

  test('reads a single-page app after it navigated (live title and text, not the stale tags of its first route)', async () => {
    const user = await signedInUser(e2e.server.url, 'Spa Reader');
    const appUrl = site.publish('/app', {
      html: `<!doctype html><html><head><title>The App</title>
        <meta property="og:title" content="The App"><meta property="og:description" content="Home of the app">
        <meta property="og:url" content="${site.origin}/app"></head><body><main><h1>Home</h1></main></body></html>`,
    });
    const page = await openTab(appUrl);
    await signInAs(page, user.input);
    await page.evaluate((text) => {
      history.pushState({}, '', '/app/items/42');
      document.title = 'Item 42: curated reading';
      const main = document.querySelector('main') as HTMLElement;
      main.innerHTML = `<h1>Item 42</h1><p>${text}</p>`;
    }, LONG_TEXT);

    const { popup } = await openPopupFor(ext(), page);
    await shareForm(popup);
    expect(await popup.getByLabel('Title').inputValue()).toBe('Item 42: curated reading');
    expect(await popup.getByLabel('URL (optional)').inputValue()).toBe(`${site.origin}/app/items/42`);
    expect(await popup.getByLabel('Description').inputValue()).toMatch(/^Choosing well among too many links/);
    await popup.close();
    await page.close();
  });

  test('"Add to supercuration": the menu lists own and collaborative collections; its click handler adds the page or a link and reports a duplicate', async () => {
    const user = await signedInUser(e2e.server.url, 'Menu User');
    const other = await signedInUser(e2e.server.url, 'Team Owner');
    const articleUrl = publishArticle('keeping', 'An article worth keeping');
    const linkedUrl = publishArticle('linked', 'A linked article', 'Found through a link.');
    const page = await openTab(articleUrl);
    await signInAs(page, user.input);

    let own: { id: string } | null = null;
    try {
      own = await user.api.createSupercuration({ title: 'Reading list' });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
    const hooks = ext().worker;
    if (!own) {
      // A server without the supercurations API: the menu says so instead of listing collections.
      await hooks.evaluate(() => supercurateTest.refreshMenus());
      const titles = (await hooks.evaluate(() => supercurateTest.menuItems())).map((i) => i.title);
      expect(titles).toContain('Your server has no supercurations yet');
      console.warn('supercurations API missing: the add-to-collection part of this test was skipped');
      return;
    }
    const team = await other.api.createSupercuration({ title: 'Team picks' });
    await other.api.addCollaborator(team.id, user.me.id);

    await hooks.evaluate(() => supercurateTest.refreshMenus());
    const items = await hooks.evaluate(() => supercurateTest.menuItems());
    expect(items[0]).toMatchObject({ id: 'supercurate', title: 'Add to supercuration' });
    const titles = items.filter((i) => i.parentId === 'supercurate' && i.type !== 'separator').map((i) => i.title);
    expect(titles).toEqual(['Reading list', 'Team picks (collaborator)', 'New supercuration…']);

    const tabId = await tabIdOf(ext(), page);
    const click = (menuItemId: string, extra: { linkUrl?: string } = {}) =>
      hooks.evaluate(([info, tab]) => supercurateTest.clickMenu(info, tab), [
        { menuItemId, pageUrl: articleUrl, ...extra },
        { id: tabId, url: articleUrl },
      ] as const);

    expect(await click(`supercurate-add:${own.id}`)).toMatchObject({
      ok: true,
      title: 'Added to Reading list',
      message: 'An article worth keeping',
    });
    expect(await hooks.evaluate(() => supercurateTest.lastNotification())).toEqual({
      title: 'Added to Reading list',
      message: 'An article worth keeping',
    });
    const resources = await user.api.listResources(own.id);
    expect(resources.items.map((l) => [l.url, l.title, l.format])).toEqual([[articleUrl, 'An article worth keeping', 'article']]);
    await expect.poll(() => hooks.evaluate((id) => supercurateTest.badgeText(id), tabId)).toBe('✓');

    expect(await click(`supercurate-add:${own.id}`)).toMatchObject({
      ok: false,
      title: 'Could not add to Reading list',
      message: 'This link has already been added to this supercuration',
    });

    // A right-clicked link: previewed by the server, added to a collection the user collaborates on.
    expect(await click(`supercurate-add:${team.id}`, { linkUrl: linkedUrl })).toMatchObject({
      ok: true,
      title: 'Added to Team picks',
      message: 'A linked article',
    });
    const teamLinks = await other.api.listResources(team.id);
    expect(teamLinks.items.map((l) => [l.url, l.description])).toEqual([[linkedUrl, 'Found through a link.']]);
    await page.close();
  });

  test('says when the session expired and when the server cannot be reached', async () => {
    const user = await signedInUser(e2e.server.url, 'Session User');
    const page = await openTab(publishArticle('session', 'Session article'));
    await signInAs(page, user.input);

    // The server forgets the session (signed out elsewhere, or expired) while the extension remembers the account.
    const { popup } = await openPopupFor(ext(), page);
    await shareForm(popup);
    await popup.evaluate(async (server) => {
      await fetch(`${server}/api/auth/sign-out`, {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
    }, e2e.server.url);
    await popup.reload();
    await visible(popup.getByText('Your session has expired. Please sign in again.'));
    await visible(popup.getByRole('heading', { name: 'Sign in to Supercurate' }));
    await popup.close();

    const closed = `http://127.0.0.1:${await freePort()}`;
    extraOrigins.push(closed);
    await setServerUrl(ext(), closed, /Cannot reach your Supercurate server at/);
    const down = await openPopupFor(ext(), page);
    await visible(down.popup.getByText(`Cannot reach your Supercurate server at ${closed}.`, { exact: false }));
    await visible(down.popup.getByRole('button', { name: 'Try again' }));
    await down.popup.close();
    await setServerUrl(ext(), e2e.server.url, /^Saved\./);
    await page.close();
  });

  /**
   * Reopening the popup fills it from the page every time. The time from opening to filled (the
   * issue's budget is 200 ms) is logged for the closing note; timing is measured, not asserted.
   */
  test('the popup is filled from the page each time it opens', async () => {
    const user = await signedInUser(e2e.server.url, 'Speedy');
    const page = await openTab(publishVideo('speed', 'Fast popup').url);
    await signInAs(page, user.input);
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const { popup } = await openPopupFor(ext(), page);
      await shareForm(popup);
      expect(await popup.getByLabel('Title').inputValue()).toBe('Fast popup');
      times.push(await popup.evaluate(() => performance.getEntriesByName('supercurate:filled')[0]?.startTime ?? Number.NaN));
      await popup.close();
    }
    // The first opening warms the browser's caches; the figure is the median of the others.
    const sorted = times.slice(1).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] as number;
    console.info(`popup filled from the page in ${median.toFixed(0)} ms (budget ${FILL_BUDGET_MS} ms) (median of ${sorted.length}; all: ${times.map((t) => t.toFixed(0)).join(', ')})`);
    expect(Number.isFinite(median)).toBe(true);
    await page.close();
  });
});
