import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { TestDatabase } from '../../support/databases';
import { type PageOptions, WatchedPage, launchBrowser } from './browser';
import { type ServerProcess, startServerProcess } from './server-process';

export interface E2E {
  /** The running server (valid inside tests and hooks). */
  readonly server: ServerProcess;
  /** A page in a fresh browser context; checked for third-party requests, errors and CSP after the test. */
  open(options?: PageOptions): Promise<Page>;
}

export interface E2EOptions {
  /** Server environment variables for this suite's server only (kept across restarts). */
  env?: Record<string, string>;
}

/**
 * One real server process and one Chromium for the enclosing suite, a new context per page.
 * After each test every page opened in it is closed and checked.
 */
export function useE2E(database?: TestDatabase, options: E2EOptions = {}): E2E {
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;
  const open: WatchedPage[] = [];

  beforeAll(async () => {
    const [started, launched] = await Promise.allSettled([startServerProcess(database, options.env), launchBrowser()]);
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
  });

  afterEach(async (context) => {
    const pages = open.splice(0);
    if (context.task.result?.state === 'fail') {
      for (const page of pages) console.error(`[${context.task.name}] ${await page.describe()}`);
    }
    const results = await Promise.allSettled(pages.map((p) => p.close()));
    const problems = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
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
    async open(options) {
      if (!server || !browser) throw new Error('the e2e server or browser is not running');
      const watched = await WatchedPage.open(browser, server.origin, options);
      open.push(watched);
      return watched.page;
    },
  };
}
