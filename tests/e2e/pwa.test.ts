import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { PWA_MESSAGES, paths } from '../../shared/domain';
import { CHROMIUM_ARGS } from './support/browser';
import { visible, waitForPath } from './support/flows';
import { useE2E } from './support/harness';
import { LOOPBACK_PREVIEWS, signInWithLinks, useArticleServer } from './support/link-flows';

interface Manifest {
  start_url: string;
  display: string;
  scope: string;
  theme_color: string;
  icons: { src: string; sizes: string; purpose?: string }[];
  share_target: { action: string; method: string; params: Record<string, string> };
}

describe('installable web app: manifest, service worker, share target', () => {
  const e2e = useE2E(undefined, LOOPBACK_PREVIEWS);
  const site = useArticleServer();

  test('the manifest and the service worker are served with their types and scope, and Chromium finds the app installable', async () => {
    const manifestRes = await fetch(`${e2e.server.origin}/manifest.webmanifest`);
    expect(manifestRes.status).toBe(200);
    expect(manifestRes.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await manifestRes.json()) as Manifest;
    expect(manifest).toMatchObject({ start_url: paths.home, display: 'standalone', scope: '/', theme_color: '#2563eb' });
    expect(manifest.share_target).toEqual({ action: paths.shareTarget, method: 'GET', params: { title: 'title', text: 'text', url: 'url' } });
    for (const icon of manifest.icons) {
      const res = await fetch(`${e2e.server.origin}${icon.src}`);
      expect([icon.src, res.status, res.headers.get('content-type')]).toEqual([icon.src, 200, 'image/png']);
    }
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    const sw = await fetch(`${e2e.server.origin}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('content-type')).toMatch(/^(application|text)\/javascript/);
    // Revalidated on every load, so a deployment reaches the worker at once.
    expect(sw.headers.get('cache-control')).toBe('no-cache');

    const page = await e2e.open();
    await page.goto('/');
    await visible(page.getByRole('heading', { name: 'Internet. Curated.', level: 1 }));
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${e2e.server.origin}/`);
    // The worker keeps no API answer: only the shell and static files are in its caches.
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      return urls;
    });
    expect(cached).toContain('/index.html');
    expect(cached.filter((u) => u.startsWith('/api/'))).toEqual([]);

    // Chromium's own installability check, in a profile on disk (an incognito context is never installable).
    const profile = mkdtempSync(path.join(tmpdir(), 'supercurate-pwa-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: false,
      args: CHROMIUM_ARGS,
    });
    try {
      const installed = await context.newPage();
      await installed.goto(`${e2e.server.origin}/`);
      await installed.evaluate(() => navigator.serviceWorker.ready);
      const cdp = await context.newCDPSession(installed);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
      expect(installabilityErrors).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  test("a page shared from a phone's share sheet opens Preview & Share, filled; a URL only in the text is found", async () => {
    const url = site.publish({ title: 'Seagrass meadows', description: 'Carbon under the sea.' });
    const page = await e2e.open({ viewport: { width: 390, height: 780 } });
    await signInWithLinks(page, e2e.server.origin);

    await page.goto(`${paths.shareTarget}?${new URLSearchParams({ title: 'Shared from my phone', text: '', url })}`);
    let dialog = await visible(page.getByRole('dialog', { name: 'Preview & Share' }));
    expect(await dialog.getByLabel('URL (optional)').inputValue()).toBe(url);
    expect(await dialog.getByLabel('Title').inputValue()).toBe('Shared from my phone');
    expect(await dialog.getByLabel('Description').inputValue()).toBe('Carbon under the sea.');
    await page.keyboard.press('Escape');
    await waitForPath(page, paths.home);

    // Many apps send the address inside the text only.
    await page.goto(`${paths.shareTarget}?${new URLSearchParams({ title: '', text: `Read this: ${url} (via a friend)` })}`);
    dialog = await visible(page.getByRole('dialog', { name: 'Preview & Share' }));
    expect(await dialog.getByLabel('URL (optional)').inputValue()).toBe(url);
    expect(await dialog.getByLabel('Title').inputValue()).toBe('Seagrass meadows');
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    await waitForPath(page, paths.home);
    await visible(page.getByRole('article').filter({ hasText: 'Seagrass meadows' }));

    await page.goto(`${paths.shareTarget}?${new URLSearchParams({ title: 'Just words', text: 'no address here' })}`);
    await visible(page.getByRole('heading', { name: PWA_MESSAGES.noLink }));
  });
});
