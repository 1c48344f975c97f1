import { afterAll, afterEach, beforeAll } from 'vitest';
import type { TestDatabase } from '../../support/databases';
import { type ExtensionBrowser, type SitePage, type TestSite, buildE2EExtension, launchWithExtension, startTestSite } from './extension-browser';
import { type ServerProcess, startServerProcess } from './server-process';

export * from './extension-browser';

/** startTestSite() for the enclosing suite. */
export function useTestSite() {
  let site: TestSite | undefined;
  beforeAll(async () => {
    site = await startTestSite();
  });
  afterAll(async () => {
    await site?.close();
  });
  const started = (): TestSite => {
    if (!site) throw new Error('the test site is not running');
    return site;
  };
  return {
    get origin() {
      return started().origin;
    },
    /** Serves `page` at `path` (query strings are ignored) and gives its URL. */
    publish(pathname: string, page: SitePage): string {
      return started().publish(pathname, page);
    },
  };
}

export interface ExtensionE2E {
  readonly server: ServerProcess;
  readonly browser: ExtensionBrowser;
}

/**
 * The real server as a child process (like useE2E) and Chromium with the e2e build of the
 * extension, for the enclosing suite. After each test, the extension's pages must have shown no
 * error and contacted nothing but the server (and `extraOrigins()`).
 */
export function useExtensionE2E(
  database?: TestDatabase,
  options: { env?: Record<string, string>; extraOrigins?: () => string[] } = {},
): ExtensionE2E {
  let server: ServerProcess | undefined;
  let browser: ExtensionBrowser | undefined;
  beforeAll(async () => {
    const [started, dir] = await Promise.allSettled([startServerProcess(database, options.env), buildE2EExtension()]);
    if (started.status === 'fulfilled') server = started.value;
    if (started.status === 'rejected') throw started.reason;
    if (dir.status === 'rejected') throw dir.reason;
    browser = await launchWithExtension(dir.value, () => [server?.origin ?? '', ...(options.extraOrigins?.() ?? [])]);
  });
  afterEach(async (context) => {
    if (!browser) return;
    if (context.task.result?.state === 'fail') {
      for (const page of browser.context.pages()) {
        const text = await page.evaluate(() => document.body?.innerText ?? '').catch(() => '(unreadable)');
        console.error(`[${context.task.name}] ${page.url()} shows:\n${text.slice(0, 2_000)}`);
      }
    }
    const problems = browser.problems.splice(0);
    if (problems.length > 0) throw new Error(problems.join('\n'));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.destroy();
  });
  return {
    get server() {
      if (!server) throw new Error('the e2e server is not running');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the browser is not running');
      return browser;
    },
  };
}
