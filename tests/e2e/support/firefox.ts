import { randomUUID } from 'node:crypto';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';

const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
/** browser_specific_settings.gecko.id in wxt.config.ts. */
const EXTENSION_ID = 'extension@supercurate.app';
const TIMEOUT_MS = 15_000;

/** Firefox calls nothing but the test's loopback servers (on top of the WebDriver defaults). */
const QUIET_PREFS: Record<string, unknown> = {
  'app.update.enabled': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'browser.newtabpage.enabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'extensions.getAddons.cache.enabled': false,
  'extensions.update.enabled': false,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'network.dns.disablePrefetch': true,
  'network.http.speculative-parallel-limit': 0,
  'toolkit.telemetry.enabled': false,
};

/** The extension API as the extension's own pages see it (for `page.evaluate`). */
declare const browser: {
  tabs: { query(query: object): Promise<Array<{ id?: number; url?: string }>> };
  permissions: { getAll(): Promise<{ origins?: string[]; permissions?: string[] }> };
};

/** Debian's Firefox ESR over WebDriver BiDi, with the unpacked extension installed as a temporary add-on. */
export interface FirefoxWithExtension {
  browser: Browser;
  /** What installExtension answered: the add-on's gecko id. */
  id: string;
  /** A new tab showing one of the extension's pages. */
  openExtensionPage(file: string): Promise<Page>;
  /** The id the extension knows the tab showing `url` by. */
  tabIdOf(url: string): Promise<number>;
  /** The API permissions and host origins the installed extension holds. */
  permissions(): Promise<{ origins?: string[]; permissions?: string[] }>;
  /** Uncaught errors and CSP violations on the extension's pages. */
  problems: string[];
  close(): Promise<void>;
}

export async function launchFirefoxWithExtension(dir: string): Promise<FirefoxWithExtension> {
  // The extension's origin is moz-extension://<a UUID Firefox draws per profile>; this pref fixes it.
  const uuid = randomUUID();
  const origin = `moz-extension://${uuid}`;
  const firefox = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    // WebDriver BiDi refuses to navigate to moz-extension:// pages without it.
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: { ...QUIET_PREFS, 'extensions.webextensions.uuids': JSON.stringify({ [EXTENSION_ID]: uuid }) },
  });
  const problems: string[] = [];
  let id: string;
  try {
    id = await firefox.installExtension(dir);
  } catch (err) {
    await firefox.close();
    throw err;
  }
  const openExtensionPage = async (file: string): Promise<Page> => {
    const page = await firefox.newPage();
    page.setDefaultTimeout(TIMEOUT_MS);
    page.on('pageerror', (error) => problems.push(`uncaught error on ${file}: ${(error as Error).message}`));
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) problems.push(`CSP on ${file}: ${message.text()}`);
    });
    const url = `${origin}/${file.replace(/^\//, '')}`;
    // The load moves the tab into the extension's process, and puppeteer never hears that the
    // navigation ended: the document itself says when it is there. While the tab changes process
    // its window can vanish under an evaluation (Firefox then throws): that counts as not yet.
    page.goto(url).catch(() => undefined);
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
      const loaded = await page
        .evaluate((wanted: string) => location.href === wanted && document.readyState === 'complete', url)
        .catch(() => false);
      if (loaded) return page;
      if (Date.now() > deadline) throw new Error(`${url} did not load in Firefox`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  return {
    browser: firefox,
    id,
    openExtensionPage,
    async tabIdOf(url) {
      const page = await openExtensionPage('options.html');
      try {
        // The e2e build's host permissions let the extension see the URLs of loopback tabs.
        const tabs = await page.evaluate(() => browser.tabs.query({}));
        const tab = tabs.find((t) => t.url === url);
        if (tab?.id === undefined) throw new Error(`no tab found for ${url} among ${JSON.stringify(tabs)}`);
        return tab.id;
      } finally {
        await page.close();
      }
    },
    async permissions() {
      const page = await openExtensionPage('options.html');
      try {
        return await page.evaluate(() => browser.permissions.getAll());
      } finally {
        await page.close();
      }
    },
    problems,
    async close() {
      await firefox.close();
    },
  };
}

/** The first element matching `selector` whose text, aria-hidden parts left out, is exactly `text`. */
export async function byText<T extends Element = Element>(page: Page, selector: string, text: string): Promise<ElementHandle<T>> {
  const handle = await page.waitForFunction(
    (css: string, wanted: string) => {
      const name = (element: Element) => {
        const copy = element.cloneNode(true) as Element;
        for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
        return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
      };
      return [...document.querySelectorAll(css)].find((element) => name(element) === wanted) ?? false;
    },
    { polling: 50 },
    selector,
    text,
  );
  return handle as unknown as ElementHandle<T>;
}

/** The form control whose <label> reads exactly `label`. */
export async function byLabel(page: Page, label: string): Promise<ElementHandle<HTMLInputElement>> {
  const found = await byText<HTMLLabelElement>(page, 'label', label);
  return (await found.evaluateHandle((l) => l.control)) as ElementHandle<HTMLInputElement>;
}

/** Replaces the text of the field labelled `label` by typing `value`. */
export async function typeInto(page: Page, label: string, value: string): Promise<void> {
  const field = await byLabel(page, label);
  await field.evaluate((input) => input.select());
  await field.type(value);
}

/** Clicks the enabled button whose text is `name`. */
export async function clickButton(page: Page, name: string): Promise<void> {
  await (await byText(page, 'button:enabled', name)).click();
}

/** Waits until the page's text contains `text` (a string or a pattern). */
export async function waitForText(page: Page, text: string | RegExp): Promise<void> {
  const source = typeof text === 'string' ? { s: text } : { r: text.source, f: text.flags };
  await page.waitForFunction(
    (wanted: { s?: string; r?: string; f?: string }) => {
      const body = document.body?.innerText ?? '';
      return wanted.s !== undefined ? body.includes(wanted.s) : new RegExp(wanted.r ?? '', wanted.f).test(body);
    },
    { polling: 50 },
    source,
  );
}
