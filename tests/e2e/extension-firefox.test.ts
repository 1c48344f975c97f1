import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Link } from '../../shared/domain';
import { signedInUser } from '../support/client';
import { buildE2EExtension, useTestSite } from './support/extension';
import { type FirefoxWithExtension, byLabel, byText, clickButton, launchFirefoxWithExtension, typeInto, waitForText } from './support/firefox';
import { type ServerProcess, startServerProcess } from './support/server-process';

const PERMISSIONS = ['activeTab', 'scripting', 'contextMenus', 'storage', 'notifications'];

describe('browser extension in Firefox (Debian firefox-esr over WebDriver BiDi, e2e build)', () => {
  const site = useTestSite();
  let server: ServerProcess | undefined;
  let firefox: FirefoxWithExtension | undefined;

  beforeAll(async () => {
    const [started, dir] = await Promise.allSettled([
      startServerProcess(undefined, { PREVIEW_ALLOW_PRIVATE: 'true' }),
      buildE2EExtension('firefox'),
    ]);
    if (started.status === 'fulfilled') server = started.value;
    if (started.status === 'rejected') throw started.reason;
    if (dir.status === 'rejected') throw dir.reason;
    firefox = await launchFirefoxWithExtension(dir.value);
  });
  afterEach(() => {
    const problems = firefox?.problems.splice(0) ?? [];
    if (problems.length > 0) throw new Error(problems.join('\n'));
  });
  afterAll(async () => {
    await firefox?.close();
    await server?.destroy();
  });

  const ff = (): FirefoxWithExtension => {
    if (!firefox) throw new Error('Firefox is not running');
    return firefox;
  };
  const srv = (): ServerProcess => {
    if (!server) throw new Error('the server is not running');
    return server;
  };

  async function saveServerAddress(url: string): Promise<void> {
    const options = await ff().openExtensionPage('options.html');
    const field = await byLabel(options, 'Your Supercurate server');
    // The page shows the stored (or default) address once it has read it.
    await options.waitForFunction((input: HTMLInputElement) => input.value !== '', { polling: 50 }, field);
    await typeInto(options, 'Your Supercurate server', url);
    await clickButton(options, 'Save');
    await waitForText(options, `Saved. Supercurate shares to ${url}`);
    await options.close();
  }

  async function valueOf(page: Page, label: string): Promise<string> {
    return (await byLabel(page, label)).evaluate((input) => input.value);
  }

  test('installs as a temporary add-on, with its permissions and the e2e build’s loopback hosts', async () => {
    expect(ff().id).toBe('extension@supercurate.app');
    const granted = await ff().permissions();
    expect(granted.permissions).toEqual(expect.arrayContaining(PERMISSIONS));
    expect(granted.origins).toEqual(expect.arrayContaining(['http://127.0.0.1/*', 'http://localhost/*']));
  });

  test('the options page saves the server address, and shows it again when reopened', async () => {
    await saveServerAddress(srv().url);
    const reopened = await ff().openExtensionPage('options.html');
    await reopened.waitForFunction(
      (input: HTMLInputElement, url: string) => input.value === url,
      { polling: 50 },
      await byLabel(reopened, 'Your Supercurate server'),
      srv().url,
    );
    await reopened.close();
  });

  test('the popup for a loopback page fills Preview & Share from the page; the shared link is in My Feed', async () => {
    const user = await signedInUser(srv().url, 'Firefox Sharer');
    await saveServerAddress(srv().url);
    const canonical = `${site.origin}/talks/firefox`;
    const pageUrl = site.publish('/talks/firefox', {
      html: `<!doctype html><html><head>
        <title>Curation in Firefox - TestTube</title>
        <meta property="og:title" content="Curation in Firefox">
        <meta property="og:description" content="Sharing from the fox.">
        <meta property="og:type" content="video.other">
        <link rel="canonical" href="${canonical}">
        </head><body><h1>Curation in Firefox</h1><p>A talk about choosing well among too many links.</p></body></html>`,
    });
    const page = await ff().browser.newPage();
    await page.goto(`${pageUrl}?utm_source=newsletter`);

    const tabId = await ff().tabIdOf(`${pageUrl}?utm_source=newsletter`);
    const popup = await ff().openExtensionPage(`popup.html?tabId=${tabId}`);
    await waitForText(popup, 'Sign in to Supercurate');
    await typeInto(popup, 'Email', user.input.email);
    await typeInto(popup, 'Password', user.input.password);
    await clickButton(popup, 'Sign in');

    await waitForText(popup, 'Preview & Share');
    expect(await valueOf(popup, 'Title')).toBe('Curation in Firefox');
    expect(await valueOf(popup, 'Description')).toBe('Sharing from the fox.');
    expect(await valueOf(popup, 'URL (optional)')).toBe(canonical);
    const video = await byText(popup, '[role="group"] button', 'Video');
    const videoPressed = await video.evaluate((button) => button.getAttribute('aria-pressed'));
    expect(videoPressed).toBe('true');

    await clickButton(popup, 'Share');
    await waitForText(popup, 'Link shared');
    const shared = (await user.api.lookupLink(canonical)) as Link;
    expect(shared).toMatchObject({ url: canonical, title: 'Curation in Firefox', format: 'video', user: { name: 'Firefox Sharer' } });

    // The extension signed in with the server's own session cookie: the web app in the same
    // Firefox is signed in, and My Feed lists the link.
    const feed = await ff().browser.newPage();
    await feed.goto(`${srv().url}/home`);
    await waitForText(feed, 'My Feed');
    await waitForText(feed, 'Curation in Firefox');
    await Promise.all([feed.close(), popup.close(), page.close()]);
  });
});
