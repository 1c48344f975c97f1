/**
 * `npm run store:assets`: the store listing of the browser extension, into
 * `.output/store/`: the summary and description (extension/listing.ts) as text files, three
 * 1280×800 screenshots (the size the Chrome Web Store asks for; AMO takes it too) and Chrome's
 * 440×280 small promo tile.
 *
 * The screenshots are of the real thing, set up as the Chromium e2e test does it
 * (tests/e2e/support/extension-browser.ts): the e2e build of the extension in Debian's Chromium,
 * the real server on a free port with a temporary DATA_DIR, a curator and their collections
 * created through the API, and demo articles served on loopback. Chromium draws its toolbar,
 * context menus and notifications outside the page, where no screenshot reaches (headless has none
 * of them): the script draws those around real screenshots, from what the extension gave (its menu
 * items, and the notification it raised after its click handler added the page).
 *
 * Needs the web app in dist/web (`npm run build`; `vite build` runs here when it is missing).
 * Only loopback is contacted.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { STORE_DESCRIPTION, STORE_SUMMARY, STORE_SUMMARY_MAX_LENGTH } from '../extension/listing';
import { escapeHtml } from '../server/mail/render';
import type { Link } from '../shared/domain/links';
import {
  type ExtensionBrowser,
  type TestSite,
  buildE2EExtension,
  launchWithExtension,
  openPopupFor,
  setServerUrl,
  signInFromPopup,
  startTestSite,
  tabIdOf,
} from '../tests/e2e/support/extension-browser';
import { type ServerProcess, startServerProcess } from '../tests/e2e/support/server-process';
import { testClient } from '../tests/support/client';

const ROOT = path.resolve(import.meta.dirname, '..');
export const STORE_DIR = path.join(ROOT, '.output/store');

/** Chrome Web Store screenshots: 1280×800 (or 640×400); AMO accepts the same. */
export const SCREENSHOT_SIZE = { width: 1280, height: 800 } as const;
/** The Chrome Web Store's small promo tile (required for a listing). */
export const PROMO_TILE_SIZE = { width: 440, height: 280 } as const;

export const STORE_FILES = {
  summary: 'summary.txt',
  description: 'description.txt',
  popup: 'screenshot-1-preview-and-share.png',
  menu: 'screenshot-2-add-to-supercuration.png',
  collection: 'screenshot-3-collection.png',
  promoTile: 'promo-tile-440x280.png',
} as const;
export const STORE_SCREENSHOTS = [STORE_FILES.popup, STORE_FILES.menu, STORE_FILES.collection] as const;

/** A toolbar popup is as wide as its page says (460 px) and at most 600 px tall; more content scrolls. */
const POPUP_WIDTH = 460;
const POPUP_MAX_HEIGHT = 600;
/** The web app is shown in a window this much larger than the screenshot, scaled down to it. */
const COLLECTION_ZOOM_OUT = 1.25;
/** The browser's toolbar drawn above the page in the screenshots. */
const TOOLBAR_HEIGHT = 48;
/** Chromium resolves no name but loopback: nothing in the screenshots' pages can reach outside. */
const LOOPBACK_ONLY = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1';

/** What the background worker exposes in the e2e build (extension/entrypoints/background.ts). */
interface TestHooks {
  clickMenu(
    info: { menuItemId: string; pageUrl?: string },
    tab?: { id?: number; url?: string },
  ): Promise<{ ok: boolean; title: string; message: string } | null>;
  refreshMenus(): Promise<void>;
  menuItems(): Array<{ id: string; title: string; parentId?: string; type?: string }>;
  badgeText(tabId: number): Promise<string>;
}
declare const supercurateTest: TestHooks;

// ---------------------------------------------------------------------------------------------
// Demo content: a curator, their collections, and articles on a loopback site
// ---------------------------------------------------------------------------------------------

const CURATOR = { name: 'Maya Okafor', email: 'maya@example.com', password: 'demo-curator-2025' };
const COLLEAGUE = { name: 'Leo Fischer', email: 'leo@example.com', password: 'demo-curator-2025' };

interface DemoArticle {
  slug: string;
  site: string;
  /** The page's canonical address (a reserved .example name: it is served on loopback). */
  canonical: string;
  title: string;
  description: string;
  author: string;
  /** Cover colours: from, to. */
  colors: [string, string];
  paragraphs: string[];
}

const POPUP_ARTICLE: DemoArticle = {
  slug: 'bookmarks-deserve-a-curator',
  site: 'Field Notes',
  canonical: 'https://fieldnotes.example/essays/bookmarks-deserve-a-curator',
  title: 'Your bookmarks deserve a curator',
  description: 'We save more links than ever and return to almost none. A case for keeping fewer, better ones — and sharing them.',
  author: 'Hannah Reyes',
  colors: ['#2563eb', '#7c3aed'],
  paragraphs: [
    'Every week we save dozens of links we mean to come back to. Most of them we never open again: the folder grows, and the good ones drown among the merely interesting.',
    'Curation is the opposite habit. Keep fewer links, say in a line why each one matters, and put it where the people who care will find it — a collection with a name, a point of view and a few collaborators.',
    'Done well, a reading list becomes something others subscribe to. Done badly, it is another inbox. The difference is not the tool; it is the choosing.',
  ],
};

const MENU_ARTICLE: DemoArticle = {
  slug: 'designing-for-slow-attention',
  site: 'Margins',
  canonical: 'https://margins.example/designing-for-slow-attention',
  title: 'Designing for slow attention',
  description: 'Interfaces that reward a second look: typography, pacing and restraint in reading apps.',
  author: 'Tomás Lindqvist',
  colors: ['#0f766e', '#22c55e'],
  paragraphs: [
    'Most products are tuned for the first second of attention. Reading apps are different: they succeed when you forget them, and fail the moment they ask for a glance.',
    'Slow design starts with generous type, fewer choices per screen and motion that settles instead of pulling. It measures success in finished articles, not sessions.',
    'Three reading apps show the way, each in its own manner: one through margins, one through pacing, one through silence.',
  ],
};

/** Links already in "Design inspiration" when the menu adds one more. */
const SEEDED_LINKS: Array<{
  site: string;
  title: string;
  description: string;
  url: string;
  format: Link['format'];
  colors: [string, string];
}> = [
  {
    site: 'Typewise',
    title: 'A type scale for long-form reading',
    description: 'How to pick sizes and line lengths that stay comfortable for a thirty-minute read.',
    url: 'https://typewise.example/type-scale-long-form',
    format: 'tutorial',
    colors: ['#f59e0b', '#ef4444'],
  },
  {
    site: 'Calm Studio',
    title: 'The calm interface checklist',
    description: 'Twelve questions to ask of every screen before it ships.',
    url: 'https://calm.example/checklist',
    format: 'tool',
    colors: ['#0ea5e9', '#6366f1'],
  },
  {
    site: 'Design Talks',
    title: 'Whitespace is not empty',
    description: 'A short talk on rhythm, grouping and the space between things.',
    url: 'https://talks.example/whitespace-is-not-empty',
    format: 'video',
    colors: ['#db2777', '#f97316'],
  },
];

/** Words of `text` in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** A 1200×630 social card (the og:image of a page): its site and title on a gradient. */
function cover([from, to]: [string, string], site: string, title: string): Promise<Buffer> {
  const lines = wrap(title, 22).slice(0, 3);
  const top = 315 - (lines.length * 84) / 2 + 40;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="1200" height="630" fill="url(#g)"/>
    <circle cx="1040" cy="90" r="240" fill="#fff" opacity="0.12"/>
    <circle cx="1150" cy="600" r="180" fill="#fff" opacity="0.08"/>
    <text x="96" y="${top - 40}" font-family="DejaVu Sans" font-size="30" font-weight="bold" letter-spacing="4" fill="#fff" opacity="0.8">${escapeHtml(site.toUpperCase())}</text>
    ${lines.map((line, i) => `<text x="96" y="${top + 40 + i * 84}" font-family="DejaVu Sans" font-size="68" font-weight="bold" fill="#fff">${escapeHtml(line)}</text>`).join('')}
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

function articleHtml(article: DemoArticle, coverUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>${escapeHtml(article.title)} — ${escapeHtml(article.site)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta property="og:site_name" content="${escapeHtml(article.site)}">
<meta property="og:title" content="${escapeHtml(article.title)}">
<meta property="og:description" content="${escapeHtml(article.description)}">
<meta property="og:type" content="article">
<meta property="og:image" content="${coverUrl}">
<link rel="canonical" href="${article.canonical}">
<style>
  body { margin: 0; font-family: "DejaVu Serif", Georgia, serif; color: #1f2937; background: #fffdf8; }
  header { display: flex; align-items: center; gap: 24px; padding: 18px 64px; border-bottom: 1px solid #eee7da; font-family: "DejaVu Sans", sans-serif; }
  header strong { font-size: 20px; letter-spacing: .02em; }
  header nav { display: flex; gap: 20px; font-size: 14px; color: #6b7280; }
  main { max-width: 720px; margin: 0 auto 0 120px; padding: 40px 0; }
  .kicker { font-family: "DejaVu Sans", sans-serif; text-transform: uppercase; letter-spacing: .12em; font-size: 12px; color: #b45309; }
  h1 { font-size: 44px; line-height: 1.15; margin: 12px 0 16px; }
  .dek { font-size: 20px; line-height: 1.5; color: #4b5563; margin: 0 0 20px; }
  .byline { font-family: "DejaVu Sans", sans-serif; font-size: 14px; color: #6b7280; margin-bottom: 24px; }
  img { width: 100%; border-radius: 10px; display: block; margin-bottom: 28px; }
  p { font-size: 18px; line-height: 1.7; }
</style></head><body>
<header><strong>${escapeHtml(article.site)}</strong><nav><span>Essays</span><span>Notes</span><span>Archive</span></nav></header>
<main><div class="kicker">Essay</div><h1>${escapeHtml(article.title)}</h1>
<p class="dek">${escapeHtml(article.description)}</p>
<div class="byline">By ${escapeHtml(article.author)} · 8 min read</div>
<img src="${coverUrl}" alt="">
${article.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
</main></body></html>`;
}

interface Demo {
  popupArticleUrl: string;
  menuArticleUrl: string;
  /** "Design inspiration", the collection the menu adds to. */
  menuCollection: { id: string; title: string; slug: string };
}

async function publishArticle(site: TestSite, article: DemoArticle): Promise<string> {
  const coverUrl = site.publish(`/covers/${article.slug}.png`, { headers: { 'content-type': 'image/png' }, html: await cover(article.colors, article.site, article.title) });
  return site.publish(`/articles/${article.slug}`, { html: articleHtml(article, coverUrl) });
}

/** Seeds the server through its API: the curator, a colleague, collections, links. */
async function seed(server: ServerProcess, site: TestSite): Promise<Demo> {
  const maya = testClient(server.url);
  await maya.api.signUp(CURATOR);
  const me = await maya.api.me();
  if (!me) throw new Error('sign-up did not start a session');
  await maya.api.updateProfile(me.id, { name: CURATOR.name, bio: 'Design lead. I collect essays on reading, attention and the craft of interfaces.' });
  // Beside the default topics every account starts with.
  await maya.api.createTopic({ name: 'Design', color: '#db2777' });
  await maya.api.createTopic({ name: 'Reading', color: '#2563eb' });

  await maya.api.createSupercuration({ title: 'Reading list', description: 'Long reads for the weekend.' });
  const design = await maya.api.createSupercuration({
    title: 'Design inspiration',
    description: 'Interfaces, type and pacing that respect the reader. Updated every week.',
    isPublic: true,
    slug: 'design-inspiration',
  });
  await maya.api.createSupercuration({
    title: 'Tools worth keeping',
    description: 'Small tools that earned a place in my day.',
    isPublic: true,
    slug: 'tools-worth-keeping',
  });
  for (const link of SEEDED_LINKS) {
    const thumbnailUrl = site.publish(`/covers/${link.url.replace(/\W+/g, '-')}.png`, {
      headers: { 'content-type': 'image/png' },
      html: await cover(link.colors, link.site, link.title),
    });
    await maya.api.addResource(design.id, {
      link: { url: link.url, title: link.title, description: link.description, thumbnailUrl, format: link.format },
    });
  }

  const leo = testClient(server.url);
  await leo.api.signUp(COLLEAGUE);
  const team = await leo.api.createSupercuration({ title: 'Team research', description: 'What the product team is reading.' });
  await leo.api.addCollaborator(team.id, me.id);

  return {
    popupArticleUrl: await publishArticle(site, POPUP_ARTICLE),
    menuArticleUrl: await publishArticle(site, MENU_ARTICLE),
    menuCollection: { id: design.id, title: design.title, slug: 'design-inspiration' },
  };
}

// ---------------------------------------------------------------------------------------------
// Scenes: real screenshots, with the browser's own surfaces drawn around them
// ---------------------------------------------------------------------------------------------

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

const SCENE_STYLE = `
  * { box-sizing: border-box; }
  body { margin: 0; width: ${SCREENSHOT_SIZE.width}px; height: ${SCREENSHOT_SIZE.height}px; overflow: hidden; position: relative;
    font-family: "DejaVu Sans", sans-serif; font-size: 13px; color: #1f2937; background: #fff; }
  .toolbar { position: absolute; inset: 0 0 auto 0; height: ${TOOLBAR_HEIGHT}px; display: flex; align-items: center; gap: 12px;
    padding: 0 16px; background: #f1f3f4; border-bottom: 1px solid #dadce0; }
  .nav { display: flex; gap: 14px; color: #5f6368; font-size: 16px; }
  .omnibox { flex: 1; height: 32px; border-radius: 16px; background: #fff; display: flex; align-items: center; padding: 0 16px; color: #202124; }
  .omnibox .scheme { color: #80868b; }
  .action { position: relative; width: 32px; height: 32px; border-radius: 50%; display: grid; place-items: center; }
  .action.open { background: #dfe1e5; }
  .action img { width: 18px; height: 18px; }
  .badge { position: absolute; right: -2px; bottom: 0; min-width: 14px; height: 14px; border-radius: 3px; background: #16a34a;
    color: #fff; font-size: 10px; line-height: 14px; text-align: center; padding: 0 2px; }
  .page { position: absolute; top: ${TOOLBAR_HEIGHT}px; left: 0; }
  .shadow { box-shadow: 0 2px 6px rgba(60,64,67,.3), 0 8px 28px rgba(60,64,67,.25); }
  .menu { position: absolute; background: #fff; border-radius: 8px; padding: 6px 0; min-width: 240px; }
  .menu div { height: 30px; display: flex; align-items: center; gap: 10px; padding: 0 16px 0 40px; position: relative; white-space: nowrap; }
  .menu div.sep { height: 1px; padding: 0; margin: 5px 0; background: #e3e3e3; }
  .menu div.icon img { position: absolute; left: 14px; width: 16px; height: 16px; }
  .menu div.hover { background: #e8eaed; }
  .menu div.disabled { color: #9aa0a6; }
  .menu .arrow { margin-left: auto; padding-left: 24px; color: #5f6368; }
  .notification { position: absolute; right: 20px; bottom: 20px; width: 380px; background: #fff; border-radius: 12px; padding: 14px 16px;
    display: grid; grid-template-columns: 1fr 56px; gap: 4px 14px; }
  .notification .from { grid-column: 1 / 3; display: flex; align-items: center; gap: 6px; color: #5f6368; font-size: 12px; }
  .notification .from img { width: 14px; height: 14px; }
  .notification .title { font-weight: bold; font-size: 14px; color: #202124; }
  .notification .message { color: #3c4043; font-size: 13px; line-height: 1.4; }
  .notification .big { grid-column: 2; grid-row: 2 / 4; width: 56px; height: 56px; }
`;

function toolbarHtml(url: string, icon: string, options: { open?: boolean; badge?: string } = {}): string {
  const parsed = new URL(url);
  return `<div class="toolbar">
    <div class="nav"><span>←</span><span>→</span><span>↻</span></div>
    <div class="omnibox"><span>${escapeHtml(parsed.host)}</span><span class="scheme">${escapeHtml(parsed.pathname)}</span></div>
    <div class="action${options.open ? ' open' : ''}"><img src="${icon}" alt="">${options.badge ? `<span class="badge">${escapeHtml(options.badge)}</span>` : ''}</div>
  </div>`;
}

/** Renders `body` (with SCENE_STYLE) in a 1280×800 page and writes its screenshot to `file`. */
async function renderScene(
  browser: ExtensionBrowser,
  body: string,
  file: string,
  size: { width: number; height: number } = SCREENSHOT_SIZE,
  style = SCENE_STYLE,
): Promise<void> {
  const scene = await browser.context.newPage();
  try {
    await scene.setViewportSize(size);
    await scene.setContent(`<!doctype html><html><head><meta charset="utf-8"><style>${style}</style></head><body>${body}</body></html>`, {
      waitUntil: 'load',
    });
    await scene.screenshot({ path: file, type: 'png' });
  } finally {
    await scene.close();
  }
}

/** Classic scrollbars (headless Chromium's) would frame the page; the page still scrolls. */
async function hideScrollbar(page: Page): Promise<void> {
  await page.addStyleTag({ content: 'html { scrollbar-width: none; }' });
}

/** The page as a tab shows it below the toolbar. */
async function pageShot(page: Page): Promise<Buffer> {
  await page.setViewportSize({ width: SCREENSHOT_SIZE.width, height: SCREENSHOT_SIZE.height - TOOLBAR_HEIGHT });
  await hideScrollbar(page);
  await page.bringToFront();
  return page.screenshot({ type: 'png' });
}

async function waitForImage(page: Page, alt: string): Promise<void> {
  const image = await page.getByAltText(alt).elementHandle();
  await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0, image);
}

/** Screenshot 1: the popup's Preview & Share, filled from the demo article, open over it. */
async function popupScene(browser: ExtensionBrowser, demo: Demo, icon: string, file: string): Promise<void> {
  const article = await browser.context.newPage();
  await article.goto(demo.popupArticleUrl);
  const { popup } = await openPopupFor(browser, article);
  await popup.setViewportSize({ width: POPUP_WIDTH, height: POPUP_MAX_HEIGHT });
  const signIn = popup.getByRole('heading', { name: 'Sign in to Supercurate' });
  const form = popup.getByRole('heading', { name: 'Preview & Share' });
  await signIn.or(form).waitFor();
  if (await signIn.isVisible()) {
    await signInFromPopup(popup, CURATOR.email, CURATOR.password);
    await form.waitFor();
  }
  const title = await popup.getByLabel('Title').elementHandle();
  await popup.waitForFunction(([input, expected]) => (input as HTMLInputElement).value === expected, [title, POPUP_ARTICLE.title] as const);
  await waitForImage(popup, 'Thumbnail preview');
  await popup.getByRole('group', { name: 'Topics' }).getByRole('button', { name: 'Reading', exact: true }).click();
  await popup.getByRole('checkbox', { name: 'Reading list' }).check();
  // The popup opens at its top, where the page's details are.
  await popup.evaluate(() => window.scrollTo(0, 0));
  const height = Math.min(POPUP_MAX_HEIGHT, await popup.evaluate(() => document.documentElement.scrollHeight));
  await popup.setViewportSize({ width: POPUP_WIDTH, height });
  const popupPng = await popup.screenshot({ type: 'png' });
  const pagePng = await pageShot(article);
  await popup.close();
  await article.close();

  await renderScene(
    browser,
    `${toolbarHtml(POPUP_ARTICLE.canonical, icon, { open: true })}
    <img class="page" src="${dataUrl(pagePng)}" alt="">
    <img class="shadow" style="position:absolute; top:${TOOLBAR_HEIGHT - 4}px; right:12px; border-radius:8px" src="${dataUrl(popupPng)}" alt="">`,
    file,
  );
}

/** Screenshot 2: the menu on the demo article, and the notification the click raised. */
async function menuScene(browser: ExtensionBrowser, demo: Demo, icon: string, file: string): Promise<void> {
  const article = await browser.context.newPage();
  await article.goto(demo.menuArticleUrl);
  const worker = browser.worker;
  const tabId = await tabIdOf(browser, article);
  await worker.evaluate(() => supercurateTest.refreshMenus());
  const items = await worker.evaluate(() => supercurateTest.menuItems());
  const chosen = `supercurate-add:${demo.menuCollection.id}`;
  const result = await worker.evaluate(
    ([info, tab]) => supercurateTest.clickMenu(info, tab),
    [{ menuItemId: chosen, pageUrl: demo.menuArticleUrl }, { id: tabId, url: demo.menuArticleUrl }] as const,
  );
  if (!result?.ok) throw new Error(`"Add to supercuration" failed: ${JSON.stringify(result)}`);
  // The ✓ on the toolbar button, set once the server answered.
  let badge = '';
  for (let attempt = 0; attempt < 50 && badge !== '✓'; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    badge = await worker.evaluate((id) => supercurateTest.badgeText(id), tabId);
  }
  const pagePng = await pageShot(article);
  await article.close();

  const root = items.find((i) => !i.parentId);
  const children = items.filter((i) => i.parentId === root?.id);
  const item = (i: (typeof items)[number]) =>
    i.type === 'separator' ? '<div class="sep"></div>' : `<div class="${i.id === chosen ? 'hover' : ''}">${escapeHtml(i.title)}</div>`;
  // Right-clicked on the article's picture.
  const menuTop = 320;
  const menuLeft = 520;
  await renderScene(
    browser,
    `${toolbarHtml(MENU_ARTICLE.canonical, icon, { badge })}
    <img class="page" src="${dataUrl(pagePng)}" alt="">
    <div class="menu shadow" style="top:${menuTop}px; left:${menuLeft}px">
      <div>Back</div><div>Forward</div><div>Reload</div><div class="sep"></div>
      <div>Save as…</div><div>Print…</div><div class="sep"></div>
      <div class="icon hover"><img src="${icon}" alt="">${escapeHtml(root?.title ?? '')}<span class="arrow">▸</span></div>
      <div class="sep"></div><div>View page source</div><div>Inspect</div>
    </div>
    <div class="menu shadow" style="top:${menuTop + 6 + 5 * 30 + 11}px; left:${menuLeft + 244}px">${children.map(item).join('')}</div>
    <div class="notification shadow">
      <div class="from"><img src="${icon}" alt="">Supercurate</div>
      <div class="title">${escapeHtml(result.title)}</div>
      <img class="big" src="${icon}" alt="">
      <div class="message">${escapeHtml(result.message)}</div>
    </div>`,
    file,
  );
}

/** Screenshot 3: the collection in the web app, with the article the menu added. */
async function collectionScene(browser: ExtensionBrowser, server: ServerProcess, demo: Demo, file: string): Promise<void> {
  const web = await browser.context.newPage();
  // A wider window, scaled down to 1280×800: the hero and the resources' cards both fit.
  await web.setViewportSize({ width: SCREENSHOT_SIZE.width * COLLECTION_ZOOM_OUT, height: SCREENSHOT_SIZE.height * COLLECTION_ZOOM_OUT });
  await web.goto(`${server.url}/supercurations/public/${demo.menuCollection.slug}`);
  await web.getByRole('heading', { name: demo.menuCollection.title, level: 1 }).waitFor();
  await web.getByRole('heading', { name: MENU_ARTICLE.title }).first().waitFor();
  await web.waitForFunction(() => [...document.images].every((img) => img.complete));
  await hideScrollbar(web);
  const png = await web.screenshot({ type: 'png' });
  await web.close();
  await sharp(png).resize(SCREENSHOT_SIZE.width, SCREENSHOT_SIZE.height).png().toFile(file);
}

/** Chrome's small promo tile: the icon, the name and the tagline. */
async function promoTile(browser: ExtensionBrowser, icon: string, file: string): Promise<void> {
  const style = `body { margin: 0; width: ${PROMO_TILE_SIZE.width}px; height: ${PROMO_TILE_SIZE.height}px; display: grid; place-items: center;
    font-family: "DejaVu Sans", sans-serif; color: #fff; background: linear-gradient(135deg, #1d4ed8, #7c3aed); }
    .tile { display: grid; justify-items: center; gap: 10px; text-align: center; }
    img { width: 96px; height: 96px; } h1 { margin: 0; font-size: 32px; letter-spacing: -.01em; } p { margin: 0; font-size: 17px; opacity: .9; }`;
  await renderScene(browser, `<div class="tile"><img src="${icon}" alt=""><h1>Supercurate</h1><p>Internet. Curated.</p></div>`, file, PROMO_TILE_SIZE, style);
}

// ---------------------------------------------------------------------------------------------

/** The format chips are emoji: without a colour emoji font (Debian: fonts-noto-color-emoji) they show as boxes. */
function warnWithoutEmojiFont(): void {
  const fonts = spawnSync('fc-list', [':', 'family'], { encoding: 'utf8' });
  if (fonts.status === 0 && !/emoji/i.test(fonts.stdout)) {
    console.warn('store:assets: no emoji font found (fonts-noto-color-emoji): the screenshots will show boxes for emoji');
  }
}

function buildWebAppIfMissing(): void {
  if (existsSync(path.join(ROOT, 'dist/web/index.html'))) return;
  const result = spawnSync('npx', ['vite', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('vite build failed');
}

/**
 * Writes the listing's texts, screenshots and promo tile into `outDir` (emptied first) and gives
 * the paths written.
 */
export async function writeStoreAssets(outDir = STORE_DIR): Promise<string[]> {
  if (STORE_SUMMARY.length > STORE_SUMMARY_MAX_LENGTH) throw new Error(`the summary is over ${STORE_SUMMARY_MAX_LENGTH} characters`);
  warnWithoutEmojiFont();
  buildWebAppIfMissing();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const out = (name: string) => path.join(outDir, name);
  writeFileSync(out(STORE_FILES.summary), `${STORE_SUMMARY}\n`);
  writeFileSync(out(STORE_FILES.description), `${STORE_DESCRIPTION}\n`);

  const [site, server, extension] = await Promise.allSettled([
    startTestSite(),
    startServerProcess(undefined, { PREVIEW_ALLOW_PRIVATE: 'true' }),
    buildE2EExtension('chrome'),
  ]);
  let browser: ExtensionBrowser | undefined;
  try {
    for (const started of [site, server, extension]) if (started.status === 'rejected') throw started.reason;
    if (site.status !== 'fulfilled' || server.status !== 'fulfilled' || extension.status !== 'fulfilled') throw new Error('unreachable');
    const demo = await seed(server.value, site.value);
    browser = await launchWithExtension(extension.value, () => [server.value.origin], { args: [LOOPBACK_ONLY] });
    const icon = dataUrl(readFileSync(path.join(extension.value, 'icon/128.png')));
    await setServerUrl(browser, server.value.url, /^Saved\./);
    await popupScene(browser, demo, icon, out(STORE_FILES.popup));
    await menuScene(browser, demo, icon, out(STORE_FILES.menu));
    await collectionScene(browser, server.value, demo, out(STORE_FILES.collection));
    await promoTile(browser, icon, out(STORE_FILES.promoTile));
    if (browser.problems.length > 0) throw new Error(`the extension's pages had problems:\n${browser.problems.join('\n')}`);
  } finally {
    await browser?.close();
    if (server.status === 'fulfilled') await server.value.destroy();
    if (site.status === 'fulfilled') await site.value.close();
  }
  return Object.values(STORE_FILES).map(out);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = Date.now();
  const files = await writeStoreAssets();
  for (const file of files) {
    const size = file.endsWith('.png') ? await sharp(file).metadata().then((m) => ` ${m.width}×${m.height}`) : '';
    console.log(`${path.relative(ROOT, file)}${size}`);
  }
  console.log(`store assets written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
