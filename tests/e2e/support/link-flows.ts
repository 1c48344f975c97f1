import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll } from 'vitest';
import type { CreateLinkInput } from '../../../shared/domain';
import { signedInUser } from '../../support/client';
import { signInInUi, visible, waitForPath, feedHeading } from './flows';

export interface Article {
  title: string;
  description: string;
  /** The page's body; `<h1>{title}</h1>` by default. */
  body?: string;
}

/** Server settings that let it preview and proxy pages on loopback, where the test sites live. */
export const LOOPBACK_PREVIEWS = { env: { PREVIEW_ALLOW_PRIVATE: 'true' } };

/**
 * A web site on loopback whose pages carry og:title, og:description and an og:image (a PNG on the
 * same site). Only the app server fetches from it: previews, and thumbnails through its image proxy.
 */
export function useArticleServer() {
  const articles = new Map<string, Article>();
  let thumbnail = Buffer.alloc(0);
  const server = http.createServer((req, res) => {
    if (req.url === '/thumb.png') {
      res.writeHead(200, { 'content-type': 'image/png' }).end(thumbnail);
      return;
    }
    const article = articles.get(req.url ?? '');
    if (!article) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html><head><title>Not the og:title</title>
<meta property="og:title" content="${article.title}">
<meta property="og:description" content="${article.description}">
<meta property="og:image" content="${origin}/thumb.png">
</head><body>${article.body ?? `<h1>${article.title}</h1>`}</body></html>`);
  });
  let origin = '';
  beforeAll(async () => {
    thumbnail = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#0891b2' } }).png().toBuffer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  let counter = 0;
  return {
    /** The og:image of every article. */
    get thumbnailUrl() {
      return `${origin}/thumb.png`;
    },
    /** Publishes an article at a new path and gives its URL. */
    publish(article: Article): string {
      counter += 1;
      const path = `/articles/${counter}-${Date.now().toString(36)}`;
      articles.set(path, article);
      return `${origin}${path}`;
    },
  };
}

/** The cards of the feed tab on screen, newest first. */
export function feedCards(page: Page): Locator {
  return page.getByRole('tabpanel').getByRole('article');
}

export function feedCard(page: Page, title: string): Locator {
  return feedCards(page).filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

/** Registers a user through the API, shares `links` as them, and signs them in in the page. */
export async function signInWithLinks(page: Page, baseUrl: string, links: CreateLinkInput[] = [], name?: string) {
  const user = await signedInUser(baseUrl, name);
  const created = [];
  for (const link of links) created.push(await user.api.createLink(link));
  await signInInUi(page, user.input);
  await waitForPath(page, '/home');
  await visible(feedHeading(page));
  return { ...user, links: created };
}

/** Pastes `url` in the add box, waits for its preview and opens Preview & Share. */
export async function openShareDialog(page: Page, url: string): Promise<Locator> {
  await page.getByLabel('Share a link').fill(url);
  await visible(page.getByRole('article', { name: 'Link preview' }));
  await page.getByRole('form', { name: 'Add a link' }).getByRole('button', { name: 'Share' }).click();
  return visible(page.getByRole('dialog', { name: 'Preview & Share' }));
}
