import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, type Page, type Worker, chromium } from 'playwright-core';
import type { Browser } from 'wxt/browser';
import { CHROMIUM_ARGS } from './browser';

/*
 * The extension's build, Chromium with it loaded, and a loopback test site, without vitest's hooks:
 * the e2e tests (through ./extension) and `npm run store:assets` (scripts/store-assets.ts) use them.
 */

/** The extension API inside the service worker (for `worker.evaluate`). */
declare const chrome: typeof Browser;

const ROOT = path.resolve(import.meta.dirname, '../../..');
const WXT = path.join(ROOT, 'node_modules/wxt/bin/wxt.mjs');
const BUILD_DEADLINE_MS = 120_000;

/** Runs the WXT CLI (`wxt build ...`) at the project root (or `cwd`); resolves with its output, rejects on failure. */
export function runWxt(args: string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT): Promise<string> {
  return new Promise((resolve, reject) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    // Vitest's NODE_ENV=test would give a development build of React.
    childEnv.NODE_ENV = 'production';
    const child = spawn(process.execPath, [WXT, ...args], { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), BUILD_DEADLINE_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`wxt ${args.join(' ')} failed (${code}):\n${output.slice(-5_000)}`));
    });
  });
}

const built = new Map<ExtensionTarget, Promise<string>>();

export type ExtensionTarget = 'chrome' | 'firefox';

/**
 * `npm run build:extension:e2e` for one browser (once per test process), copied aside so that
 * another build running meanwhile can't change the files the browser loads. The e2e build is the
 * store build plus host permissions for http://127.0.0.1/* and http://localhost/* (activeTab is
 * never granted under automation).
 */
export function buildE2EExtension(target: ExtensionTarget = 'chrome'): Promise<string> {
  let build = built.get(target);
  if (!build) {
    build = (async () => {
      await runWxt(target === 'chrome' ? ['build', '--mode', 'e2e'] : ['build', '-b', 'firefox', '--mv3', '--mode', 'e2e']);
      const out = path.join(ROOT, `.output/${target}-mv3-e2e`);
      if (!existsSync(path.join(out, 'manifest.json'))) throw new Error(`no extension build in ${out}`);
      const copy = mkdtempSync(path.join(tmpdir(), 'supercurate-extension-'));
      cpSync(out, copy, { recursive: true });
      return copy;
    })();
    built.set(target, build);
  }
  return build;
}

/** Debian's Chromium with the unpacked extension loaded, in a fresh profile. */
export interface ExtensionBrowser {
  context: BrowserContext;
  /** The extension's id: the host of its service worker's URL. */
  id: string;
  worker: Worker;
  /** chrome-extension://<id>/<file> */
  url(file: string): string;
  /** Problems seen on the extension's pages: uncaught errors, CSP violations, requests to other hosts. */
  problems: string[];
  close(): Promise<void>;
}

/** `args`: more Chromium switches; `deviceScaleFactor`: for screenshots (1 by default). */
export async function launchWithExtension(
  dir: string,
  allowedOrigins: () => string[],
  options: { args?: string[]; deviceScaleFactor?: number } = {},
): Promise<ExtensionBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'supercurate-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // Headless through the flag in CHROMIUM_ARGS (new headless runs extensions).
    headless: false,
    args: [...CHROMIUM_ARGS, `--disable-extensions-except=${dir}`, `--load-extension=${dir}`, ...(options.args ?? [])],
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: options.deviceScaleFactor,
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
  const id = new URL(worker.url()).host;
  const extensionOrigin = `chrome-extension://${id}`;
  const problems: string[] = [];

  const watch = (page: Page) => {
    const isExtensionPage = () => page.url().startsWith(extensionOrigin);
    page.on('pageerror', (error) => {
      if (isExtensionPage()) problems.push(`uncaught error on ${page.url()}: ${error.message}`);
    });
    page.on('console', (message) => {
      if (isExtensionPage() && message.text().includes('Content Security Policy')) problems.push(`CSP: ${message.text()}`);
    });
    page.on('request', (request) => {
      if (!isExtensionPage()) return;
      const url = request.url();
      if (/^(data|blob|chrome-extension):/.test(url)) return;
      const origin = new URL(url).origin;
      if (!allowedOrigins().includes(origin)) problems.push(`the extension page ${page.url()} requested ${url}`);
    });
  };
  context.on('page', watch);
  for (const page of context.pages()) watch(page);

  return {
    context,
    id,
    worker,
    url: (file) => `${extensionOrigin}/${file.replace(/^\//, '')}`,
    problems,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * The id of the tab showing `page`, as the extension knows it. Without the `tabs` permission
 * tabs.query can't search by URL: the page is brought to the front and the active tab asked for.
 */
export async function tabIdOf(browser: ExtensionBrowser, page: Page): Promise<number> {
  await page.bringToFront();
  const wanted = page.url();
  for (let attempt = 0; attempt < 50; attempt++) {
    const found = await browser.worker.evaluate(async (url) => {
      const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
      return tab && tab.url === url ? tab.id ?? null : null;
    }, wanted);
    if (found !== null) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no tab found for ${wanted}`);
}

/** `popup.html?tabId=N` for the tab showing `page`: the toolbar popup's UI in a full tab. */
export async function openPopupFor(browser: ExtensionBrowser, page: Page): Promise<{ popup: Page; tabId: number }> {
  const tabId = await tabIdOf(browser, page);
  const popup = await browser.context.newPage();
  await popup.goto(browser.url(`popup.html?tabId=${tabId}`));
  return { popup, tabId };
}

/** Saves `url` as the server on the options page; resolves once the page says `expected`. */
export async function setServerUrl(browser: ExtensionBrowser, url: string, expected: RegExp): Promise<void> {
  const options = await browser.context.newPage();
  await options.goto(browser.url('options.html'));
  const input = options.getByLabel('Your Supercurate server');
  // The page fills the field from storage first.
  await options.waitForFunction((el) => (el as HTMLInputElement).value !== '', await input.elementHandle());
  await input.fill(url);
  await options.getByRole('button', { name: 'Save' }).click();
  await options.getByText(expected).waitFor();
  await options.close();
}

/** Fills and sends the popup's sign-in form. */
export async function signInFromPopup(popup: Page, email: string, password: string): Promise<void> {
  await popup.getByLabel('Email').fill(email);
  await popup.getByLabel('Password').fill(password);
  await popup.getByRole('button', { name: 'Sign in' }).click();
}

export interface SitePage {
  /** Response headers beside text/html (e.g. a CSP, X-Frame-Options; a content-type replaces text/html). */
  headers?: Record<string, string>;
  /** The body: a page, or bytes of the content-type in `headers` (an image). */
  html: string | Uint8Array;
  /** `name=value`: only a request with this cookie gets the page (a signed-in reader); others get 403. */
  cookie?: string;
}

export interface TestSite {
  /** http://127.0.0.1:PORT */
  origin: string;
  /** Serves `page` at `pathname` (query strings are ignored) and gives its URL. */
  publish(pathname: string, page: SitePage): string;
  close(): Promise<void>;
}

/** A web site on loopback whose pages the tests share (and the server previews: PREVIEW_ALLOW_PRIVATE). */
export async function startTestSite(): Promise<TestSite> {
  const pages = new Map<string, SitePage>();
  let origin = '';
  const server = http.createServer((req, res) => {
    const page = pages.get(new URL(req.url ?? '/', origin).pathname);
    if (req.url?.startsWith('/thumb.png')) {
      // A 1×1 PNG is enough: the popup shows it through the app's image proxy.
      const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
      res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      return;
    }
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const cookies = (req.headers.cookie ?? '').split(';').map((c) => c.trim());
    if (page.cookie && !cookies.includes(page.cookie)) {
      res.writeHead(403, { 'content-type': 'text/html; charset=utf-8' }).end('<p>Sign in to read this page.</p>');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...page.headers }).end(page.html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    publish(pathname, page) {
      pages.set(pathname, page);
      return `${origin}${pathname}`;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
