import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testDatabases } from '../support/databases';
import { type ImageSite, sitePage, startImageSite } from '../support/image-site';
import { expectNoHorizontalScroll, visible } from './support/flows';
import { useE2E } from './support/harness';
import { LOOPBACK_PREVIEWS, feedCard, openShareDialog, signInWithLinks } from './support/link-flows';

/**
 * Issue 19 in the browser: what a page says of itself (site name, icon, author, date, language)
 * on its card and detail page, the domain where it says nothing, and the format it suggests
 * preselected in Preview & Share. The pages live on a loopback site that only the app server
 * fetches (PREVIEW_ALLOW_PRIVATE); the browser sees the icon through the image proxy.
 */

const databases = await testDatabases();
const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

const html = (head: string, lang = 'en') =>
  sitePage('text/html; charset=utf-8', `<!doctype html><html lang="${lang}"><head>${head}</head><body><p>Text</p></body></html>`);

const article = (title: string, icon: string) => `<title>Not the og:title</title>
  <meta property="og:title" content="${title}">
  <meta property="og:description" content="What the daily says.">
  <meta property="og:image" content="/og.png">
  <meta property="og:site_name" content="The Daily Loopback">
  <meta name="author" content="Ada Lovelace">
  <meta property="article:published_time" content="2024-03-05T10:20:30+01:00">
  <link rel="apple-touch-icon" href="${icon}">`;

let site: ImageSite;

beforeAll(async () => {
  const png = (background: string, side: number) =>
    sharp({ create: { width: side, height: side, channels: 3, background } }).png().toBuffer();
  site = await startImageSite(
    {
      '/article': html(article('Facts of the day', '/touch.png')),
      // The page names an icon that is not there: the card shows none rather than a broken image.
      '/article-lost-icon': html(article('An icon gone missing', '/missing.png')),
      '/plain': html('<meta property="og:title" content="A plain page"><meta property="og:description" content="Says nothing of itself.">', ''),
      '/watch': html('<title>A talk</title><link rel="alternate" type="application/json+oembed" href="/oembed">'),
      '/oembed': sitePage(
        'application/json',
        JSON.stringify({ type: 'video', version: '1.0', title: 'A talk', thumbnail_url: '/thumb.png', provider_name: 'LoopTube' }),
      ),
      '/touch.png': sitePage('image/png', await png('#2563eb', 180)),
      '/og.png': sitePage('image/png', await png('#0891b2', 240)),
      '/thumb.png': sitePage('image/png', await png('#dc2626', 240)),
    },
    (res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'),
  );
});

afterAll(() => site.close());

/** With E2E_SCREENSHOTS=<dir> (outside the repository), how the facts look is saved there for a person to see. */
async function screenshot(locator: Locator, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (dir) await locator.screenshot({ path: `${dir}/${name}.png` });
}

const proxied = (url: string) => `/api/images/proxy?url=${encodeURIComponent(url)}`;

/** The line under a card's title: the external link to the page, named after its publisher. */
const publisherLink = (card: Locator) => card.getByRole('link', { name: /Loopback|127\.0\.0\.1/ });

const iconLoaded = (icon: Locator) => icon.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0);

/** Errors the page logged (hydration mismatches are reported there). */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

for (const database of databases) {
  describe(`link facts [${database.name}]`, () => {
    const e2e = useE2E(database, LOOPBACK_PREVIEWS);

    test("a card names the site with its icon, the link's page its author, date and language; a page without facts keeps its domain", async () => {
      const page = await e2e.open();
      const plainUrl = `${site.origin}/plain`;
      const { api, links } = await signInWithLinks(page, e2e.server.url, [{ title: 'Plain link', description: 'Mine.', url: plainUrl }], 'Facts Reader');
      const plain = links[0];
      if (!plain) throw new Error('no link was created');

      // Preview & Share from the add-link box: the preview names the site already.
      const articleUrl = `${site.origin}/article`;
      const dialog = await openShareDialog(page, articleUrl);
      await visible(page.getByRole('article', { name: 'Link preview' }).getByText('The Daily Loopback'));
      // An article suggests no format: none is chosen for the user.
      const formats = dialog.getByRole('group', { name: 'Format' });
      expect(await formats.getByRole('button', { pressed: true }).count()).toBe(0);
      await dialog.getByRole('button', { name: 'Share', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });

      // The card: the site's name and domain, its icon through our image proxy, the same external link.
      const card = feedCard(page, 'Facts of the day');
      const publisher = await visible(publisherLink(card));
      expect(await publisher.textContent()).toBe('The Daily Loopback · 127.0.0.1');
      expect(await publisher.getAttribute('href')).toBe(articleUrl);
      expect(await publisher.getAttribute('target')).toBe('_blank');
      expect(await publisher.getAttribute('rel')).toBe('noopener noreferrer nofollow');
      const icon = publisher.locator('img');
      expect(await icon.getAttribute('src')).toBe(proxied(`${site.origin}/touch.png`));
      expect(await icon.getAttribute('alt')).toBe('');
      await expect.poll(() => iconLoaded(icon)).toBe(true);
      expect(await card.getByRole('heading', { name: 'Facts of the day' }).getAttribute('lang')).toBe('en');

      // The link without facts: its domain, no icon, no language.
      const plainCard = feedCard(page, 'Plain link');
      const plainPublisher = await visible(plainCard.getByRole('link', { name: '127.0.0.1', exact: true }));
      expect(await plainPublisher.getAttribute('href')).toBe(plainUrl);
      expect(await plainPublisher.locator('img').count()).toBe(0);
      expect(await plainCard.getByRole('heading', { name: 'Plain link' }).getAttribute('lang')).toBeNull();

      // An icon that fails to load leaves no broken image behind.
      const lostUrl = `${site.origin}/article-lost-icon`;
      await api.preview(lostUrl);
      const lostLink = await api.createLink({ title: 'An icon gone missing', description: 'Its icon is gone.', url: lostUrl });
      await page.reload();
      const lost = await visible(publisherLink(feedCard(page, 'An icon gone missing')));
      expect(await lost.textContent()).toBe('The Daily Loopback · 127.0.0.1');
      await lost.locator('img').waitFor({ state: 'detached' });

      // Wide and on a phone: nothing overflows the card.
      await visible(publisher);
      await expect.poll(() => iconLoaded(publisher.locator('img'))).toBe(true);
      await screenshot(card, 'link-facts-card-1280');
      await page.setViewportSize(PHONE);
      await expect.poll(() => iconLoaded(publisher.locator('img'))).toBe(true);
      await screenshot(card, 'link-facts-card-375');
      await expectNoHorizontalScroll(page, PHONE.width);
      const box = await publisher.boundingBox();
      const cardBox = await card.boundingBox();
      expect(box && cardBox && box.x + box.width <= cardBox.x + cardBox.width).toBe(true);
      await page.setViewportSize(DESKTOP);

      // The link's page: publisher, author, the date it was published and its language.
      await card.getByRole('link', { name: 'Facts of the day' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/links/'));
      await visible(page.getByRole('heading', { name: 'Facts of the day', level: 1 }));
      const facts = await visible(page.getByRole('list', { name: 'About the page' }));
      await visible(facts.getByText('The Daily Loopback · 127.0.0.1'));
      await visible(facts.getByText('By Ada Lovelace', { exact: true }));
      const published = facts.locator('time');
      expect(await published.textContent()).toBe('March 5, 2024');
      expect(await published.getAttribute('datetime')).toBe('2024-03-05T09:20:30.000Z');
      await visible(facts.getByText('English', { exact: true }));
      expect(await page.getByRole('heading', { level: 1 }).getAttribute('lang')).toBe('en');
      await expect.poll(() => iconLoaded(facts.locator('img'))).toBe(true);
      const detailUrl = page.url();
      await screenshot(page.getByRole('article'), 'link-facts-detail-1280');
      await page.setViewportSize(PHONE);
      await screenshot(page.getByRole('article'), 'link-facts-detail-375');
      await expectNoHorizontalScroll(page, PHONE.width);
      await page.setViewportSize(DESKTOP);

      // The plain link's page: its domain, nothing it does not know.
      await page.goto(`/links/${plain.id}`);
      await visible(page.getByRole('heading', { name: 'Plain link', level: 1 }));
      const plainFacts = await visible(page.getByRole('list', { name: 'About the page' }));
      expect(await plainFacts.getByRole('listitem').allTextContents()).toEqual(['127.0.0.1']);

      // A visitor gets the same facts from the server's render, and hydration agrees with it.
      const visitor = await e2e.open();
      const errors = consoleErrors(visitor);
      const response = await visitor.goto(new URL(detailUrl).pathname);
      expect(await response?.text()).toContain('By Ada Lovelace');
      const visitorFacts = await visible(visitor.getByRole('list', { name: 'About the page' }));
      expect(await visitorFacts.locator('time').textContent()).toBe('March 5, 2024');
      await visible(visitorFacts.getByText('English', { exact: true }));
      await expect.poll(() => iconLoaded(visitorFacts.locator('img'))).toBe(true);
      expect(errors).toEqual([]);
      // Its missing icon gives way to a plain globe there too, whether it failed before or after hydration.
      await visitor.goto(`/links/${lostLink.id}`);
      const lostFacts = await visible(visitor.getByRole('list', { name: 'About the page' }));
      await visible(lostFacts.getByText('The Daily Loopback · 127.0.0.1'));
      await lostFacts.locator('img').waitFor({ state: 'detached' });
      await visible(lostFacts.locator('svg.lucide-globe'));
    });

    test('Preview & Share opens on the format a video page suggests, and the user may still change it', async () => {
      const page = await e2e.open();
      await signInWithLinks(page, e2e.server.url, [], 'Video Watcher');
      const videoDialog = await openShareDialog(page, `${site.origin}/watch`);
      // The page gave no picture: its oEmbed answer did, and named the provider.
      const preview = page.getByRole('article', { name: 'Link preview' });
      await visible(preview.getByText('LoopTube · 127.0.0.1'));
      expect(await videoDialog.getByLabel('Thumbnail URL').inputValue()).toBe(`${site.origin}/thumb.png`);
      const videoFormats = videoDialog.getByRole('group', { name: 'Format' });
      const video = videoFormats.getByRole('button', { name: 'Video' });
      expect(await video.getAttribute('aria-pressed')).toBe('true');
      expect(await videoFormats.getByRole('button', { pressed: true }).count()).toBe(1);
      const podcast = videoFormats.getByRole('button', { name: 'Podcast' });
      await podcast.click();
      await expect.poll(() => podcast.getAttribute('aria-pressed')).toBe('true');
      expect(await video.getAttribute('aria-pressed')).toBe('false');
      await videoDialog.getByRole('button', { name: 'Share', exact: true }).click();
      await videoDialog.waitFor({ state: 'hidden' });
      const talk = feedCard(page, 'A talk');
      await visible(talk.getByRole('list', { name: 'Tags' }).getByText('Podcast'));
      await visible(talk.getByRole('link', { name: 'LoopTube · 127.0.0.1' }));
    });
  });
}
