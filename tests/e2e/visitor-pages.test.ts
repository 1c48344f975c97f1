import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { serverEntryOf } from '../../server/http/server-render';
import { signedInUser } from '../support/client';
import { decodedBody, rawGet } from '../support/raw-http';
import { visible, waitForPath } from './support/flows';
import { useE2E } from './support/harness';
import { snapshotWebBuild } from './support/web-build';

/**
 * The pages a visitor opens come rendered by the server, readable without JavaScript,
 * and hydrate without an error or a second fetch of what they came with.
 */
const word = `heron${randomBytes(3).toString('hex')}`;
const slug = `visitors-${randomBytes(4).toString('hex')}`;
const TITLES = Array.from({ length: 12 }, (_, i) => `${word} resource ${String(i + 1).padStart(2, '0')}`);

describe('visitors’ pages, rendered by the server', () => {
  const e2e = useE2E();
  const world = { linkId: '', curatorId: '', privateTitle: `${word} private plans`, privateLinkId: '' };

  beforeAll(async () => {
    const curator = await signedInUser(e2e.server.url, 'Visitor Curator');
    world.curatorId = curator.me.id;
    const collection = await curator.api.createSupercuration({
      title: `${word} field notes`,
      description: 'Birds, rivers and the people who watch them.',
      isPublic: true,
      slug,
    });
    for (const title of TITLES) {
      const link = await curator.api.addResource(collection.id, { link: { title, description: `About ${title}.` } });
      world.linkId ||= link.id;
    }
    await curator.api.createSupercuration({ title: `${word} second shelf`, description: 'More.', isPublic: true, slug: `${slug}-2` });
    const hidden = await curator.api.createSupercuration({ title: world.privateTitle, isPublic: false });
    const privateLink = await curator.api.addResource(hidden.id, { link: { title: `${word} private link`, description: 'Kept to myself.', inMainFeed: false } });
    world.privateLinkId = privateLink.id;
  });

  test('are rendered with React’s production build, however the server is started (npm start sets no NODE_ENV)', async () => {
    const web = await snapshotWebBuild();
    try {
      const bundle = readFileSync(serverEntryOf(web.dir), 'utf8');
      expect(bundle).not.toContain('process.env.NODE_ENV');
      expect(bundle).not.toMatch(/react[A-Za-z]*_development/i);
    } finally {
      web.remove();
    }
  });

  test('the HTML of a public collection, the directory and a link holds their content; private ones are 404 without it', async () => {
    const html = async (path: string) => {
      const res = await fetch(`${e2e.server.url}${path}`);
      return { status: res.status, body: await res.text() };
    };
    const collection = await html(`/supercurations/public/${slug}`);
    expect(collection.status).toBe(200);
    expect(collection.body).toContain(`${word} field notes</h1>`);
    expect(collection.body).toContain('Birds, rivers and the people who watch them.');
    expect(collection.body).toContain('Visitor Curator');
    // Newest first: the first page (10) of the 12 resources.
    for (const title of TITLES.slice(2)) expect(collection.body).toContain(title);
    expect(collection.body).not.toContain(TITLES[0]);

    const oldest = await html(`/supercurations/public/${slug}?sort=oldest`);
    expect(oldest.body).toContain(TITLES[0]);

    const directory = await html(`/directory?q=${word}`);
    expect(directory.body).toContain(`${word} field notes`);
    expect(directory.body).toContain(`${word} second shelf`);
    expect(directory.body).not.toContain(world.privateTitle);

    const link = await html(`/links/${world.linkId}`);
    expect(link.body).toContain(`${TITLES[0]}</h1>`);

    const profile = await html(`/profile/${world.curatorId}`);
    expect(profile.body).toContain('Visitor Curator</h1>');
    expect(profile.body).toContain(`${word} second shelf`);
    expect(profile.body).not.toContain(world.privateTitle);

    const hiddenLink = await html(`/links/${world.privateLinkId}`);
    expect(hiddenLink.status).toBe(404);
    expect(hiddenLink.body).not.toContain(`${word} private link`);
  });

  test('a rendered page compressed (brotli, gzip) decodes to exactly its uncompressed bytes, and answers its ETag with a 304', async () => {
    const url = `${e2e.server.url}/supercurations/public/${slug}`;
    const plain = await rawGet(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toContain(TITLES[11]);
    for (const coding of ['br', 'gzip']) {
      const res = await rawGet(url, { 'accept-encoding': coding });
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body.length).toBeLessThan(plain.body.length / 4);
      expect(decodedBody(res).equals(plain.body)).toBe(true);
      expect(res.headers.etag).toBe(plain.headers.etag);
    }
    const revalidated = await rawGet(url, { 'accept-encoding': 'br', 'if-none-match': String(plain.headers.etag) });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers['content-encoding']).toBeUndefined();
  });

  test('without JavaScript a reader goes from the directory to a collection, reads it, and comes back', async () => {
    const page = await e2e.open({ javaScriptEnabled: false });
    await page.goto(`/directory?q=${word}`);
    const results = page.getByRole('list', { name: 'Supercurations' });
    await visible(results.getByRole('heading', { name: `${word} second shelf` }));
    await results.getByRole('link', { name: `${word} field notes` }).click();
    await waitForPath(page, `/supercurations/public/${slug}`);
    await visible(page.getByRole('heading', { name: `${word} field notes`, level: 1 }));
    const cards = page.getByRole('list', { name: 'Resources' }).getByRole('article');
    expect(await cards.count()).toBe(10);
    await visible(cards.first().getByRole('heading', { name: TITLES[11] }));

    await page.getByRole('contentinfo').getByRole('link', { name: 'Browse the directory' }).click();
    await waitForPath(page, '/directory');
    await visible(page.getByRole('heading', { name: 'Directory', level: 1 }));
  });

  test('with JavaScript each page hydrates without an error or a refetch, and works as before', async () => {
    const page = await e2e.open();
    const problems = watchConsole(page);
    const apiReads: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/') && !url.pathname.endsWith('/avatar')) apiReads.push(url.pathname + url.search);
    });

    for (const path of ['/', '/directory', `/supercurations/public/${slug}`, `/links/${world.linkId}`, `/profile/${world.curatorId}`]) {
      await page.goto(path);
      expect(apiReads, `API reads of ${path}, which came with its data`).toEqual([]);
    }
    expect(problems).toEqual([]);

    // The collection: sort, then subscribe.
    await page.goto(`/supercurations/public/${slug}`);
    const cards = page.getByRole('list', { name: 'Resources' }).getByRole('article');
    await visible(cards.first().getByRole('heading', { name: TITLES[11] }));
    await page.getByLabel('Sort').selectOption({ label: 'Oldest First' });
    await page.waitForURL((url) => url.searchParams.get('sort') === 'oldest');
    await visible(cards.first().getByRole('heading', { name: TITLES[0] }));
    await page.getByLabel('Email').fill(`reader-${randomBytes(3).toString('hex')}@example.com`);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await visible(page.getByText("Thanks for subscribing! You'll receive updates when new resources are added."));

    // The directory: search.
    await page.goto('/directory');
    await page.getByLabel('Search supercurations').fill(`${word} second`);
    await page.waitForURL((url) => url.searchParams.get('q') === `${word} second`);
    const results = page.getByRole('list', { name: 'Supercurations' });
    await expect.poll(() => results.getByRole('article').count()).toBe(1);
    await visible(results.getByRole('heading', { name: `${word} second shelf` }));
    expect(problems).toEqual([]);
  });
});

/** Console errors and warnings (a hydration mismatch is one) and uncaught errors of a page. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}
