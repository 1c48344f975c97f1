import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium (never a downloaded one), headless. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

export interface PageOptions {
  viewport?: { width: number; height: number };
  /** false: a browser that runs no script, as some readers and crawlers are. */
  javaScriptEnabled?: boolean;
}

/**
 * A visitor's page arrives rendered by the server and reads the same before its script has run:
 * a test's `goto` returns once the app runs in it (web/AppProviders.tsx marks `<html data-ready>`),
 * so that what the test does next reaches the app rather than inert HTML.
 */
function waitForAppOnGoto(page: Page) {
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    const serverRendered = response?.headers()['content-type']?.startsWith('text/html') && (await response.text()).includes('id="server-data"');
    if (serverRendered) await page.waitForFunction(() => document.documentElement.hasAttribute('data-ready'));
    return response;
  };
}

/**
 * A page in a new browser context that records what could go wrong without showing on screen:
 * requests to any origin but the app's, uncaught page errors and CSP violations.
 */
export class WatchedPage {
  readonly foreignRequests: string[] = [];
  readonly pageErrors: string[] = [];
  readonly cspViolations: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    private readonly allowedOrigin: string,
  ) {}

  static async open(browser: Browser, allowedOrigin: string, options: PageOptions = {}): Promise<WatchedPage> {
    const context = await browser.newContext({
      baseURL: allowedOrigin,
      viewport: options.viewport ?? { width: 1280, height: 800 },
      locale: 'en-US',
      timezoneId: 'UTC',
      javaScriptEnabled: options.javaScriptEnabled ?? true,
    });
    // Well under the test timeout, so a missing element fails with Playwright's own account of it.
    context.setDefaultTimeout(15_000);
    context.setDefaultNavigationTimeout(30_000);
    const watched = new WatchedPage(context, allowedOrigin);
    context.on('page', (page) => {
      watched.watch(page);
      if (options.javaScriptEnabled !== false) waitForAppOnGoto(page);
    });
    await context.newPage();
    return watched;
  }

  /** The first page of the context. */
  get page(): Page {
    const page = this.context.pages()[0];
    if (!page) throw new Error('the context has no page');
    return page;
  }

  private watch(page: Page) {
    page.on('request', (request) => {
      const url = request.url();
      if (/^(data|blob|about):/.test(url)) return;
      let origin: string;
      try {
        origin = new URL(url).origin;
      } catch {
        origin = url;
      }
      if (origin !== this.allowedOrigin) this.foreignRequests.push(`${request.method()} ${url}`);
    });
    page.on('pageerror', (error) => this.pageErrors.push(error.stack ?? error.message));
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) this.cspViolations.push(message.text());
    });
  }

  /** Where each page is and what it shows: for the report of a failed test. */
  async describe(): Promise<string> {
    const parts = await Promise.all(
      this.context.pages().map(async (page) => {
        const text = await page
          .evaluate(() => document.body?.innerText ?? '')
          .catch((err: unknown) => `(could not read the page: ${(err as Error).message})`);
        return `page ${page.url()} shows:\n${text.slice(0, 2_000)}`;
      }),
    );
    return parts.join('\n');
  }

  /** Closes the context and throws if anything was recorded. */
  async close(): Promise<void> {
    await this.context.close();
    const problems = [
      ...this.foreignRequests.map((r) => `request to a third party: ${r}`),
      ...this.pageErrors.map((e) => `uncaught page error: ${e}`),
      ...this.cspViolations.map((c) => `CSP violation: ${c}`),
    ];
    if (problems.length > 0) throw new Error(problems.join('\n'));
  }
}
