/**
 * The import section of `npm run bench`:
 *   OCR        in headless Chromium, with tesseract.js and the worker, core and English data served
 *              by our server under /ocr/ (as web/features/import/ocr.ts loads them): engine start
 *              (cold, then warm) and recognition of a 1280x800 screenshot, separately; then URL
 *              recall and precision on BENCH_OCR_SHOTS (24) generated screenshots (newsletter,
 *              tweet and chat layouts, several fonts, 14-22 px, light and dark), read with
 *              extractUrls as the app reads them. BENCH_IMPORT_OCR=0 leaves OCR out.
 *   batch      POST /api/links/batch with 100 links, BENCH_BATCHES (20) times, one after another.
 *   bookmarks  a 50,000-bookmark Netscape file of BENCH_BOOKMARK_MB (19.5) MB (50 folders, tags,
 *              descriptions) POSTed to /api/import/bookmarks as multipart, reading the NDJSON
 *              progress stream as the app does (time to the first progress line, number of lines,
 *              total), while /api/health is polled (its slowest answer: how long other requests
 *              waited); the server's peak RSS.
 *   formats    BENCH_FORMAT_ROWS (50,000) rows each of a Pocket export zip (parts of 10,000 rows), a
 *              Raindrop.io CSV (nested folders) and a Netscape file, each imported by its own
 *              user: wall time, server CPU and the server's peak RSS during that import alone,
 *              against the budget (≤ 6 s and ≤ 250 MB each). BENCH_IMPORT_FORMATS=0 leaves them out.
 *   hostile    the hostile files: 10,000 nested folders holding 49,000 bookmarks (2.7 MB) to the
 *              preview, 40,000 nested folders (1.5 MB) to the import: status, time, slowest health
 *              answer meanwhile, server RSS after. BENCH_IMPORT_HOSTILE=0 leaves them out.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import JSZip from 'jszip';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { BOOKMARKS_MAX_COUNT, BOOKMARKS_NDJSON, extractUrls, normalizeUrl, readImportEvents } from '../shared/domain';
import type { BookmarkImportSummary } from '../shared/domain';
import { BOOKMARKS_FOOTER, BOOKMARKS_HEADER, FOLDER_CLOSE, bookmarkLine, escapeHtml, folderOpen } from '../server/services/bookmark-file';
import { OCR_BASE } from '../web/features/import/ocr';
import { CHROMIUM_ARGS } from '../tests/e2e/support/browser';
import { nestedBookmarkFile } from '../tests/support/bookmark-files';
import { whileHealthIsPolled } from '../tests/support/health-probe';
import { intEnv, load, mb, ms, percentile, printTable } from './common';

const ROOT = path.resolve(import.meta.dirname, '..');
const OCR_SHOTS = intEnv('BENCH_OCR_SHOTS', 24);
const OCR_REPEATS = intEnv('BENCH_OCR_REPEATS', 3);
const BATCHES = intEnv('BENCH_BATCHES', 20);
const BATCH_SIZE = 100;
const BOOKMARKS = Math.min(intEnv('BENCH_BOOKMARKS', BOOKMARKS_MAX_COUNT), BOOKMARKS_MAX_COUNT);
const BOOKMARK_BYTES = Math.round(Number(process.env.BENCH_BOOKMARK_MB || 19.5) * 1024 * 1024);
const WITH_OCR = process.env.BENCH_IMPORT_OCR !== '0';
const WITH_HOSTILE = process.env.BENCH_IMPORT_HOSTILE !== '0';
const WITH_FORMATS = process.env.BENCH_IMPORT_FORMATS !== '0';
const FORMAT_ROWS = intEnv('BENCH_FORMAT_ROWS', 50_000);
/** The budget of each format's import of 50,000 rows on a 2-core machine (the imports issue). */
const FORMAT_BUDGET = { seconds: 6, peakRssMb: 250 };
/** BENCH_OCR_DUMP=dir writes each generated screenshot and the text read from it there. */
const DUMP_DIR = process.env.BENCH_OCR_DUMP || undefined;
const VIEWPORT = { width: 1280, height: 800 };

export interface ImportContext {
  baseUrl: string;
  origin: string;
  /** A session cookie of the seeded user with this e-mail. */
  signIn: (email: string) => Promise<string>;
  /** Emails of two seeded users: one shares the batches, the other imports the bookmarks. */
  batchUser: string;
  bookmarkUser: string;
  /** Emails of three more seeded users, one per format of the formats measure. */
  formatUsers: string[];
  /** The server's memory (for the peak during the import). */
  memory?: () => { rssMb: number; peakRssMb: number };
  /** From now on, the peak RSS counts from the RSS of now. */
  resetPeakRss?: () => void;
  /** The server's CPU time so far, in seconds. */
  cpuSeconds?: () => number;
}

export interface ShotResult {
  name: string;
  expected: number;
  found: number;
  missed: string[];
  /** Missed URLs whose host and path are in the text read as written: the scheme or a neighbour misread, so extractUrls passed them over. */
  missedInText: string[];
  extra: string[];
  recogniseMs: number;
  /** The factor it was drawn at. */
  scale: number;
}

export interface OcrResult {
  engineStartColdMs: number;
  engineStartWarmMs: number;
  /** The factor the 1280x800 screenshot was drawn at before recognition (the app's ocrScale). */
  scale: number;
  /** 1280x800 newsletter screenshot, each of OCR_REPEATS runs. */
  recogniseMs: number[];
  mainUrls: { expected: number; found: number };
  shots: ShotResult[];
  recall: number;
  precision: number;
}

export interface FormatResult {
  format: string;
  rows: number;
  bytes: number;
  status: number;
  ms: number;
  cpuMs: number;
  /** The server's RSS when the import began, and its peak during it. */
  rssBeforeMb?: number;
  peakRssMb?: number;
  created?: number;
  error?: string;
}

export interface ImportResult {
  ocr?: OcrResult;
  formats: FormatResult[];
  batch: { batches: number; size: number; p50Ms: number; p99Ms: number; maxMs: number; linksPerSec: number; failures: number };
  bookmarks: {
    count: number;
    bytes: number;
    folders: number;
    ms: number;
    perSec: number;
    status: number;
    /** From the request's start to the first progress line (upload and parsing included). */
    firstProgressMs?: number;
    progressLines: number;
    summary?: Omit<BookmarkImportSummary, 'collections'> & { collections: number };
    error?: string;
    peakRssMb?: number;
    slowestHealthMs: number;
    healthP99Ms: number;
  };
  hostile: HostileResult[];
}

export interface HostileResult {
  name: string;
  bytes: number;
  route: string;
  status: number;
  ms: number;
  slowestHealthMs: number;
  rssAfterMb?: number;
  peakRssMb?: number;
}

// ---------------------------------------------------------------------------------------------
// Screenshots

const URL_POOL = [
  'https://www.theverge.com/2024/3/12/24098765/ai-browser-arc-search',
  'www.nytimes.com/2024/05/01/technology/ai-chatbots.html',
  'github.com/naptha/tesseract.js',
  'https://blog.example.io/posts/ocr-in-the-browser',
  'newsletter.pragmaticengineer.com/p/the-scaleup-playbook',
  'https://news.ycombinator.com/item?id=39012345',
  'www.wired.com/story/open-source-ai-models',
  'stratechery.com/2024/aggregation-theory-revisited',
  'https://arxiv.org/abs/2403.01234',
  'en.wikipedia.org/wiki/Optical_character_recognition',
  'https://www.bbc.co.uk/news/technology-68123456',
  'medium.com/@curator/why-link-lists-still-matter',
  'https://developer.mozilla.org/en-US/docs/Web/API/Canvas_API',
  'www.economist.com/briefing/2024/02/15/the-creator-economy',
  'substack.com/home/post/p-141234567',
  'https://techcrunch.com/2024/04/18/startup-raises-series-a',
  'www.ft.com/content/7d3b2c1a-retail-china',
  'ourworldindata.org/energy-production-consumption',
  'https://www.youtube.com/watch?v=design-systems-talk',
  'podcasts.apple.com/us/podcast/hard-fork/id1528594034',
  'https://www.smashingmagazine.com/2024/01/accessible-forms',
  'lwn.net/Articles/961234',
  'www.quantamagazine.org/how-the-brain-stores-memories',
  'https://simonwillison.net/2024/Mar/8/llm-tools',
  'docs.python.org/3/library/asyncio.html',
  'https://www.reuters.com/technology/chips-demand-2024',
  'www.producthunt.com/posts/link-curator',
  'martinfowler.com/articles/microservices.html',
  'https://www.nature.com/articles/d41586-024-00123-4',
  'www.theatlantic.com/ideas/archive/2024/02/slow-web',
  'https://css-tricks.com/snippets/css/a-guide-to-flexbox',
  'kottke.org/24/03/the-best-long-reads',
  'https://www.bloomberg.com/news/features/tourism-boom',
  'www.platformer.news/p/social-media-week',
  'https://every.to/chain-of-thought/the-tools-we-use',
  'paulgraham.com/greatwork.html',
];

const FONTS = [
  'DejaVu Sans',
  'Liberation Serif',
  'Liberation Sans',
  'DejaVu Serif',
  'Liberation Sans Narrow',
  'DejaVu Sans Mono',
  'Liberation Mono',
  'DejaVu Sans Condensed',
];
const THEMES = {
  light: { bg: '#ffffff', fg: '#14171a', muted: '#657786', link: '#1a73e8', card: '#f5f7fa' },
  dark: { bg: '#15202b', fg: '#e7e9ea', muted: '#8b98a5', link: '#1d9bf0', card: '#22303c' },
} as const;

interface Shot {
  name: string;
  html: string;
  urls: string[];
}

const FILLER = [
  'Worth your time this week, in no particular order.',
  'A long read about how small teams ship faster than big ones.',
  'Great thread on this, I learned a lot from it.',
  'Reply to hello@example.com or ping @ada, see you in v2.1!',
  'The report.pdf is attached; figures on p. 12.',
  'Saved for later, the charts alone are worth it.',
];

function shotHtml(layout: 'newsletter' | 'tweet' | 'chat', font: string, size: number, dark: boolean, urls: string[]): string {
  const t = dark ? THEMES.dark : THEMES.light;
  const a = (u: string) => `<span style="color:${t.link}">${escapeHtml(u)}</span>`;
  const style = `margin:0;padding:36px 48px;background:${t.bg};color:${t.fg};font-family:'${font}';font-size:${size}px;line-height:1.5`;
  let body: string;
  if (layout === 'newsletter') {
    body =
      `<h2 style="margin:0 0 12px">The Weekly Curator #${size * 7}</h2><p style="color:${t.muted}">${FILLER[0]}</p>` +
      urls
        .map((u, i) =>
          i % 2 === 0
            ? `<p><b>${i + 1}. ${FILLER[(i + 1) % FILLER.length]}</b><br>${a(u)}</p>`
            : `<p>${FILLER[(i + 2) % FILLER.length]} Read it at ${a(u)} before Friday.</p>`,
        )
        .join('') +
      `<p style="color:${t.muted}">${FILLER[3]}</p>`;
  } else if (layout === 'tweet') {
    body = urls
      .map(
        (u, i) => `<div style="border-bottom:1px solid ${t.muted};padding:10px 0">
          <b>Curator ${i + 1}</b> <span style="color:${t.muted}">@curator_${i} · ${i + 2}h</span>
          <div>${FILLER[(i + 2) % FILLER.length]} ${a(u)}</div>
          <div style="color:${t.muted};font-size:${Math.max(12, size - 3)}px">${12 * (i + 1)} replies  ${40 * (i + 1)} reposts  ${((i + 1) * 1.2).toFixed(1)}K likes</div></div>`,
      )
      .join('');
  } else {
    body = urls
      .map(
        (u, i) => `<div style="margin:10px 0;${i % 2 ? 'margin-left:320px' : 'margin-right:320px'};background:${t.card};border-radius:14px;padding:8px 16px">
          <div style="color:${t.muted};font-size:${Math.max(12, size - 3)}px">${i % 2 ? 'Grace' : 'Ada'} · 10:${String(10 + i * 7).padStart(2, '0')}</div>
          <div>${i % 3 === 0 ? 'look at this ' : ''}${a(u)}${i % 3 === 1 ? ' (via the newsletter)' : ''}</div></div>`,
      )
      .join('');
  }
  return `<!doctype html><html><body style="${style}">${body}</body></html>`;
}

function makeShots(count: number): Shot[] {
  const layouts = ['newsletter', 'tweet', 'chat'] as const;
  const shots: Shot[] = [];
  let next = 0;
  for (let i = 0; i < count; i++) {
    const layout = layouts[i % layouts.length]!;
    const font = FONTS[i % FONTS.length]!;
    const size = 14 + (i % 9); // 14..22 px
    const dark = i % 4 >= 2;
    const n = 3 + (i % 4); // 3..6 URLs
    const urls = Array.from({ length: n }, () => URL_POOL[next++ % URL_POOL.length]!);
    shots.push({
      name: `${String(i + 1).padStart(2, '0')} ${layout} ${font} ${size}px ${dark ? 'dark' : 'light'}`,
      html: shotHtml(layout, font, size, dark, urls),
      urls,
    });
  }
  return shots;
}

// ---------------------------------------------------------------------------------------------
// OCR in the page

interface PageTesseract {
  createWorker(lang: string, oem: undefined, options: Record<string, unknown>): Promise<PageWorker>;
}
interface PageWorker {
  recognize(image: HTMLCanvasElement, options: object, output: object): Promise<unknown>;
  terminate(): Promise<unknown>;
}
type OcrWindow = Window & {
  Tesseract: PageTesseract;
  OcrImage: {
    prepareForOcr(bitmap: ImageBitmap): HTMLCanvasElement;
    recognisePrepared(worker: PageWorker, canvas: HTMLCanvasElement): Promise<string>;
  };
  benchWorker?: PageWorker;
};

/** Starts a worker as web/features/import/ocr.ts does; returns the time it took in the page. */
function startWorker(page: Page): Promise<number> {
  return page.evaluate(async (base) => {
    const w = window as unknown as OcrWindow;
    await w.benchWorker?.terminate();
    const origin = window.location.origin;
    const t0 = performance.now();
    w.benchWorker = await w.Tesseract.createWorker('eng', undefined, {
      workerPath: `${origin}${base}/worker.min.js`,
      corePath: `${origin}${base}/core`,
      langPath: `${origin}${base}/lang`,
      gzip: true,
      workerBlobURL: false,
    });
    return performance.now() - t0;
  }, OCR_BASE);
}

/**
 * web/features/import/ocr-image.ts and ocr-text.ts bundled for the page, so the screenshots are
 * prepared and read by the app's own code (window.OcrImage.prepareForOcr, recognisePrepared).
 */
async function ocrImageScript(): Promise<string> {
  const out = await build({
    stdin: {
      contents: "export { prepareForOcr } from './ocr-image'; export { recognisePrepared } from './ocr-text';",
      resolveDir: path.join(ROOT, 'web/features/import'),
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    globalName: 'OcrImage',
    write: false,
  });
  return out.outputFiles[0]!.text;
}

/** Prepares the PNG and reads its text as the app does (prepareForOcr, recognisePrepared). */
function recognise(page: Page, png: Buffer): Promise<{ text: string; ms: number; scale: number }> {
  return page.evaluate(
    async ({ b64 }) => {
      const w = window as unknown as OcrWindow;
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = w.OcrImage.prepareForOcr(bitmap);
      const scale = canvas.width / bitmap.width;
      bitmap.close();
      if (!w.benchWorker) throw new Error('no OCR worker');
      const t0 = performance.now();
      const text = await w.OcrImage.recognisePrepared(w.benchWorker, canvas);
      return { text, ms: performance.now() - t0, scale };
    },
    { b64: png.toString('base64') },
  );
}

const normalised = (urls: string[]) => [...new Set(urls.map((u) => normalizeUrl(u)).filter((u): u is string => !!u))];

function ensureWebBuild(): void {
  if (existsSync(path.join(ROOT, 'dist/web/ocr/worker.min.js')) && existsSync(path.join(ROOT, 'dist/web/index.html'))) return;
  console.log('dist/web/ocr missing: running vite build...');
  const build = spawnSync('npx', ['vite', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('vite build failed');
}

async function benchOcr(browser: Browser, origin: string): Promise<OcrResult> {
  const painter = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US' });
  const paint = await painter.newPage();
  const screenshot = async (html: string) => {
    await paint.setContent(html);
    return paint.screenshot({ type: 'png' });
  };

  // Our own CSP allows only our scripts; tesseract.js itself comes in from node_modules, the
  // worker, core and data from /ocr/ on our origin as in the app.
  const context = await browser.newContext({ viewport: VIEWPORT, bypassCSP: true });
  const foreign: string[] = [];
  context.on('request', (r) => {
    if (!r.url().startsWith(`${origin}/`) && !/^(data|blob):/.test(r.url())) foreign.push(r.url());
  });
  const page = await context.newPage();
  await page.goto(`${origin}/login`);
  const tesseractDir = path.dirname(createRequire(import.meta.url).resolve('tesseract.js/package.json'));
  await page.addScriptTag({ path: path.join(tesseractDir, 'dist/tesseract.min.js') });
  await page.addScriptTag({ content: await ocrImageScript() });

  const engineStartColdMs = await startWorker(page);
  const engineStartWarmMs = await startWorker(page);
  console.log(`OCR engine start: ${ms(engineStartColdMs)} cold, ${ms(engineStartWarmMs)} warm; load average ${load()}`);

  let scale = NaN;
  const mainUrls = URL_POOL.slice(0, 6);
  const mainPng = await screenshot(shotHtml('newsletter', 'DejaVu Sans', 18, false, mainUrls));
  const recogniseMs: number[] = [];
  let mainFound = 0;
  for (let i = 0; i < OCR_REPEATS; i++) {
    const r = await recognise(page, mainPng);
    scale = r.scale;
    recogniseMs.push(r.ms);
    const found = new Set(extractUrls(r.text));
    mainFound = normalised(mainUrls).filter((u) => found.has(u)).length;
  }
  console.log(`OCR of 1280x800 (scale ${scale.toFixed(2)}): ${recogniseMs.map(ms).join(', ')}; load average ${load()}`);

  const shots: ShotResult[] = [];
  if (DUMP_DIR) mkdirSync(DUMP_DIR, { recursive: true });
  for (const shot of makeShots(OCR_SHOTS)) {
    const png = await screenshot(shot.html);
    const r = await recognise(page, png);
    if (DUMP_DIR) {
      const base = path.join(DUMP_DIR, shot.name.replace(/\W+/g, '-'));
      writeFileSync(`${base}.png`, png);
      writeFileSync(`${base}.txt`, r.text);
    }
    const found = extractUrls(r.text);
    const expected = normalised(shot.urls);
    const flat = r.text.replace(/\s+/g, ' ');
    const inText = new Set(
      shot.urls.filter((u) => flat.includes(u.replace(/^https?:\/\//, ''))).map((u) => normalizeUrl(u)),
    );
    const foundSet = new Set(found);
    const expectedSet = new Set(expected);
    shots.push({
      name: shot.name,
      expected: expected.length,
      found: expected.filter((u) => foundSet.has(u)).length,
      missed: expected.filter((u) => !foundSet.has(u)),
      missedInText: expected.filter((u) => !foundSet.has(u) && inText.has(u)),
      extra: found.filter((u) => !expectedSet.has(u)),
      recogniseMs: r.ms,
      scale: r.scale,
    });
  }
  await context.close();
  await painter.close();
  if (foreign.length > 0) console.log(`WARNING: requests to other origins: ${foreign.join(', ')}`);

  const expectedTotal = shots.reduce((s, x) => s + x.expected, 0);
  const hit = shots.reduce((s, x) => s + x.found, 0);
  const extras = shots.reduce((s, x) => s + x.extra.length, 0);
  return {
    engineStartColdMs,
    engineStartWarmMs,
    scale,
    recogniseMs,
    mainUrls: { expected: mainUrls.length, found: mainFound },
    shots,
    recall: hit / expectedTotal,
    precision: hit / (hit + extras),
  };
}

// ---------------------------------------------------------------------------------------------
// Batch share and bookmarks

async function benchBatch(baseUrl: string, origin: string, cookie: string): Promise<ImportResult['batch']> {
  const times: number[] = [];
  let failures = 0;
  const run = Date.now().toString(36);
  const post = async (b: number) => {
    const items = Array.from({ length: BATCH_SIZE }, (_, i) => ({
      url: `https://batch-${b % 7}.example.com/${run}/post-${b}-${i}`,
      title: `Batch ${b} link ${i}: a title of ordinary length`,
      description: `Found in a newsletter, item ${i} of batch ${b}.`,
    }));
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}/api/links/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, cookie },
      body: JSON.stringify({ items }),
    });
    const body = (await res.json()) as { links?: unknown[] };
    const elapsed = performance.now() - t0;
    if (res.status !== 201 || body.links?.length !== BATCH_SIZE) {
      failures++;
      if (failures === 1) console.log(`batch share failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
    return elapsed;
  };
  await post(-1); // warm-up
  const started = performance.now();
  for (let b = 0; b < BATCHES; b++) times.push(await post(b));
  const totalS = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    batches: BATCHES,
    size: BATCH_SIZE,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    maxMs: times[times.length - 1] ?? NaN,
    linksPerSec: (BATCHES * BATCH_SIZE) / totalS,
    failures,
  };
}

/**
 * A Chromium-style export: a bookmarks bar root with 25 folders, each with one subfolder. Each
 * bookmark's description is `describe`d to a given length (the file's size is set through it).
 */
function bookmarkFile(count: number, descriptionLength: (n: number) => number): { html: string; folders: number } {
  const folderCount = 50;
  const perFolder = Math.ceil(count / folderCount);
  const topics = ['Design', 'Research', 'Reading', 'Tools', 'Podcasts', 'Video', 'Startups', 'Science', 'Travel', 'Recipes'];
  const parts = [
    BOOKMARKS_HEADER,
    '    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="1700000000" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>\n    <DL><p>\n',
  ];
  const base = Date.parse('2019-01-01T00:00:00Z');
  let n = 0;
  const bookmarks = (folder: number) => {
    for (let i = 0; i < perFolder && n < count; i++, n++) {
      parts.push(
        bookmarkLine(
          {
            url: `https://site-${n % 997}.example.org/${topics[folder % topics.length]!.toLowerCase()}/article-${n}?page=${i}`,
            title: `${topics[folder % topics.length]} article number ${n}`,
            description: `A note about bookmark ${n}, kept for later. `.repeat(20).slice(0, descriptionLength(n)).trim(),
            createdAt: new Date(base + n * 3_600_000).toISOString(),
            tags: n % 3 === 0 ? [topics[n % topics.length]!.toLowerCase(), `tag-${n % 40}`] : [],
          },
          '        ',
          '',
        ),
      );
    }
  };
  const now = new Date().toISOString();
  for (let f = 0; f < folderCount; f += 2) {
    parts.push(folderOpen(`${topics[f % topics.length]} ${f / 2 + 1}`, now));
    bookmarks(f);
    parts.push(folderOpen(`Archive ${f / 2 + 1}`, now));
    bookmarks(f + 1);
    parts.push(FOLDER_CLOSE, FOLDER_CLOSE);
  }
  parts.push('    </DL><p>\n', BOOKMARKS_FOOTER);
  return { html: parts.join(''), folders: folderCount };
}

const compact = ({ collections, ...rest }: BookmarkImportSummary) => ({ ...rest, collections: collections.length });

/** Imports the file as the web app does: multipart, with the NDJSON progress stream read as it comes. */
async function benchBookmarks(ctx: ImportContext, cookie: string): Promise<ImportResult['bookmarks']> {
  // Without descriptions first, to spread the bytes left up to BOOKMARK_BYTES over the bookmarks.
  const bare = Buffer.byteLength(bookmarkFile(BOOKMARKS, () => 0).html);
  const each = Math.max(0, Math.floor((BOOKMARK_BYTES - bare) / BOOKMARKS) - 5); // '<DD>' and a newline
  const { html, folders } = bookmarkFile(BOOKMARKS, () => each);
  const bytes = Buffer.byteLength(html);
  const form = new FormData();
  form.append('file', new Blob([html], { type: 'text/html' }), 'bookmarks.html');
  const t0 = performance.now();
  const { result, slowestHealthMs, healthMs } = await whileHealthIsPolled(ctx.baseUrl, () => streamImport(ctx, cookie, form, t0));
  const elapsed = performance.now() - t0;
  healthMs.sort((a, b) => a - b);
  return {
    count: BOOKMARKS,
    bytes,
    folders,
    ms: elapsed,
    perSec: BOOKMARKS / (elapsed / 1000),
    ...result,
    peakRssMb: ctx.memory?.().peakRssMb,
    slowestHealthMs,
    healthP99Ms: percentile(healthMs, 99),
  };
}

async function streamImport(ctx: ImportContext, cookie: string, form: FormData, t0: number) {
  const res = await fetch(`${ctx.baseUrl}/api/import/bookmarks`, {
    method: 'POST',
    headers: { origin: ctx.origin, cookie, accept: BOOKMARKS_NDJSON },
    body: form,
  });
  let text = '';
  let offset = 0;
  let firstProgressMs: number | undefined;
  let progressLines = 0;
  let summary: BookmarkImportSummary | undefined;
  let error: string | undefined;
  if (res.ok && res.body) {
    const decoder = new TextDecoder();
    const reader = res.body.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      text += decoder.decode(r.value, { stream: true });
      const read = readImportEvents(text, offset);
      offset = read.next;
      for (const event of read.events) {
        if (event.type === 'progress') {
          progressLines += 1;
          firstProgressMs ??= performance.now() - t0;
        } else if (event.type === 'summary') summary = event.summary;
        else error = event.error;
      }
    }
  } else {
    error = (await res.text()).slice(0, 300);
  }
  return {
    status: res.status,
    firstProgressMs,
    progressLines,
    ...(summary ? { summary: compact(summary) } : { error: error ?? 'no summary line' }),
  };
}

const FORMAT_TOPICS = ['design', 'research', 'reading', 'tools', 'podcasts', 'video', 'startups', 'science', 'travel', 'recipes'];
const csvField = (v: string | number) => (typeof v === 'number' || !/[",\n]/.test(v) ? String(v) : `"${v.replace(/"/g, '""')}"`);
const csvLine = (fields: (string | number)[]) => `${fields.map(csvField).join(',')}\n`;
/** Row n of a generated export: a URL on one of 997 hosts, a title, a saved date, some tags. */
const row = (n: number) => ({
  url: `https://site-${n % 997}.example.org/${FORMAT_TOPICS[n % 10]}/article-${n}`,
  title: `${FORMAT_TOPICS[n % 10]} article number ${n}, saved for later`,
  savedS: Math.floor(Date.parse('2019-01-01T00:00:00Z') / 1000) + n * 3600,
  tags: n % 3 === 0 ? [FORMAT_TOPICS[(n + 3) % 10] as string, `tag-${n % 40}`] : [],
});

/** Pocket's export: a zip of part_000000.csv... of 10,000 rows each. */
async function pocketExport(rows: number): Promise<Buffer> {
  const zip = new JSZip();
  for (let part = 0; part * 10_000 < rows; part++) {
    let csv = csvLine(['title', 'url', 'time_added', 'tags', 'status']);
    for (let n = part * 10_000; n < Math.min(rows, (part + 1) * 10_000); n++) {
      const r = row(n);
      csv += csvLine([r.title, r.url, r.savedS, r.tags.join('|'), n % 4 === 0 ? 'archive' : 'unread']);
    }
    zip.file(`part_${String(part).padStart(6, '0')}.csv`, csv);
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** Raindrop.io's CSV export: 50 folders nested two deep, notes, excerpts, ISO dates, favourites. */
function raindropExport(rows: number): Buffer {
  let csv = csvLine(['id', 'title', 'note', 'excerpt', 'url', 'folder', 'tags', 'created', 'cover', 'highlights', 'favorite']);
  for (let n = 0; n < rows; n++) {
    const r = row(n);
    const folder = `${FORMAT_TOPICS[n % 10]}/Shelf ${n % 5}`;
    const note = n % 2 === 0 ? `A note on ${n}, with a comma` : '';
    const created = new Date(r.savedS * 1000).toISOString();
    csv += csvLine([n + 1, r.title, note, `An excerpt of article ${n}.`, r.url, folder, r.tags.join(', '), created, '', '', n % 50 === 0 ? 'true' : 'false']);
  }
  return Buffer.from(csv);
}

/** Each format's export of FORMAT_ROWS bookmarks, imported by its own user with the server's peak RSS reset first. */
async function benchFormats(ctx: ImportContext): Promise<FormatResult[]> {
  const files: [format: string, name: string, bytes: Buffer][] = [
    ['Pocket (zip of CSV parts)', 'pocket.zip', await pocketExport(FORMAT_ROWS)],
    ['Raindrop.io (CSV, nested folders)', 'raindrop.csv', raindropExport(FORMAT_ROWS)],
    ['Netscape bookmarks (HTML)', 'bookmarks.html', Buffer.from(bookmarkFile(FORMAT_ROWS, () => 40).html)],
  ];
  const results: FormatResult[] = [];
  for (const [i, [format, name, bytes]] of files.entries()) {
    const cookie = await ctx.signIn(ctx.formatUsers[i] as string);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    ctx.resetPeakRss?.();
    const rssBeforeMb = ctx.memory?.().rssMb;
    const cpu0 = ctx.cpuSeconds?.() ?? NaN;
    const t0 = performance.now();
    const result = await streamImport(ctx, cookie, form, t0);
    results.push({
      format,
      rows: FORMAT_ROWS,
      bytes: bytes.length,
      status: result.status,
      ms: performance.now() - t0,
      cpuMs: ((ctx.cpuSeconds?.() ?? NaN) - cpu0) * 1000,
      rssBeforeMb,
      peakRssMb: ctx.memory?.().peakRssMb,
      created: 'summary' in result ? result.summary.created : undefined,
      error: 'error' in result ? result.error : undefined,
    });
  }
  return results;
}

/** The hostile files, each sent once while health is polled. */
async function benchHostile(ctx: ImportContext, cookie: string): Promise<HostileResult[]> {
  const cases = [
    { name: '10,000 nested folders, 49,000 bookmarks', html: nestedBookmarkFile(10_000, 49_000), route: '/api/import/bookmarks/preview' },
    { name: '40,000 nested folders, no bookmark', html: nestedBookmarkFile(40_000, 0), route: '/api/import/bookmarks' },
  ];
  const results: HostileResult[] = [];
  for (const c of cases) {
    const form = new FormData();
    form.append('file', new Blob([c.html], { type: 'text/html' }), 'bookmarks.html');
    const t0 = performance.now();
    const { result: status, slowestHealthMs } = await whileHealthIsPolled(ctx.baseUrl, async () => {
      const res = await fetch(`${ctx.baseUrl}${c.route}`, { method: 'POST', headers: { origin: ctx.origin, cookie }, body: form });
      await res.arrayBuffer();
      return res.status;
    });
    const memory = ctx.memory?.();
    results.push({
      name: c.name,
      bytes: Buffer.byteLength(c.html),
      route: c.route,
      status,
      ms: performance.now() - t0,
      slowestHealthMs,
      rssAfterMb: memory?.rssMb,
      peakRssMb: memory?.peakRssMb,
    });
  }
  return results;
}

export async function benchImport(ctx: ImportContext): Promise<ImportResult> {
  let ocr: OcrResult | undefined;
  if (WITH_OCR) {
    ensureWebBuild();
    console.log(`Measuring OCR in Chromium: engine start, 1280x800 x ${OCR_REPEATS}, ${OCR_SHOTS} screenshots...`);
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    try {
      ocr = await benchOcr(browser, ctx.origin);
    } finally {
      await browser.close();
    }
  }
  console.log(`Measuring batch share: ${BATCHES} x ${BATCH_SIZE} links; load average ${load()}`);
  const batch = await benchBatch(ctx.baseUrl, ctx.origin, await ctx.signIn(ctx.batchUser));
  const cookie = await ctx.signIn(ctx.bookmarkUser);
  // Before the big import, so that the peak RSS read after each is its own.
  console.log(`Measuring hostile bookmark files; load average ${load()}`);
  const hostile = WITH_HOSTILE ? await benchHostile(ctx, cookie) : [];
  // The formats before the big import, whose memory the server keeps for a while.
  console.log(`Measuring ${FORMAT_ROWS.toLocaleString('en-US')}-row imports of each format; load average ${load()}`);
  const formats = WITH_FORMATS ? await benchFormats(ctx) : [];
  console.log(`Measuring a ${BOOKMARKS.toLocaleString('en-US')}-bookmark import; load average ${load()}`);
  const bookmarks = await benchBookmarks(ctx, cookie);
  return { ocr, batch, bookmarks, hostile, formats };
}

export function printImport({ ocr, batch, bookmarks, hostile, formats }: ImportResult): void {
  if (ocr) {
    const sorted = [...ocr.recogniseMs].sort((a, b) => a - b);
    printTable([
      ['OCR in Chromium (tesseract.js from /ocr/)', 'time'],
      ['Engine start, cold (createWorker eng, data fetched)', ms(ocr.engineStartColdMs)],
      ['Engine start, warm (a second createWorker in the same page)', ms(ocr.engineStartWarmMs)],
      [`Recognition 1280x800 at scale ${ocr.scale.toFixed(2)}, first of ${sorted.length}`, ms(ocr.recogniseMs[0] ?? NaN)],
      [`Recognition 1280x800, median of ${sorted.length}`, ms(percentile(sorted, 50))],
      [`  URLs found in it`, `${ocr.mainUrls.found}/${ocr.mainUrls.expected}`],
    ]);
    console.log('');
    printTable([
      ['Screenshot', 'URLs found', 'wrong URLs', 'missed, in text', 'scale', 'recognition'],
      ...ocr.shots.map((s) => [
        s.name,
        `${s.found}/${s.expected}`,
        String(s.extra.length),
        String(s.missedInText.length),
        s.scale.toFixed(2),
        ms(s.recogniseMs),
      ]),
    ]);
    const sum = (shots: ShotResult[], f: (s: ShotResult) => number) => shots.reduce((a, s) => a + f(s), 0);
    const share = (shots: ShotResult[]) =>
      `${sum(shots, (s) => s.found)}/${sum(shots, (s) => s.expected)} (${((100 * sum(shots, (s) => s.found)) / sum(shots, (s) => s.expected)).toFixed(0)} %)`;
    const groups = (key: (s: ShotResult) => string) => {
      const by = new Map<string, ShotResult[]>();
      for (const s of ocr.shots) by.set(key(s), [...(by.get(key(s)) ?? []), s]);
      return [...by].map(([k, v]) => `${k} ${share(v)}`).join(', ');
    };
    const part = (i: number) => (s: ShotResult) => s.name.split(' ')[i] ?? '?';
    console.log(`Recall by layout: ${groups(part(1))}`);
    console.log(`Recall by theme:  ${groups((s) => s.name.split(' ').at(-1) ?? '?')}`);
    console.log(`Recall by size:   ${groups((s) => (Number(/(\d+)px/.exec(s.name)?.[1]) <= 17 ? '14-17px' : '18-22px'))}`);
    console.log('Misses (expected → wrong URLs extracted from the same screenshot):');
    for (const s of ocr.shots.filter((x) => x.missed.length > 0 || x.extra.length > 0)) {
      console.log(`  ${s.name}: missed ${s.missed.map((u) => (s.missedInText.includes(u) ? `${u} [in text]` : u)).join(', ') || '-'}`);
      if (s.extra.length > 0) console.log(`    extracted instead: ${s.extra.join(', ')}`);
    }
    const missed = sum(ocr.shots, (s) => s.missed.length);
    const inText = sum(ocr.shots, (s) => s.missedInText.length);
    console.log(
      `URL recall ${(100 * ocr.recall).toFixed(1)} % (${share(ocr.shots)}, target ≥ 95 %), precision ${(100 * ocr.precision).toFixed(1)} %; ` +
        `of ${missed} missed, ${inText} were read correctly apart from the scheme or a neighbouring character ([in text]).`,
    );
    console.log('');
  }
  printTable([
    ['POST /api/links/batch', 'p50', 'p99', 'max', 'links/s', 'failures'],
    [
      `${batch.batches} batches of ${batch.size}, one at a time`,
      ms(batch.p50Ms),
      ms(batch.p99Ms),
      ms(batch.maxMs),
      Math.round(batch.linksPerSec).toLocaleString('en-US'),
      String(batch.failures),
    ],
  ]);
  console.log('');
  const s = bookmarks.summary;
  printTable([
    ['POST /api/import/bookmarks (NDJSON)', 'size', 'status', 'first progress', 'progress lines', 'time', 'bookmarks/s', 'created', 'dup/invalid', 'collections', 'server peak RSS', 'health p99 / max meanwhile'],
    [
      `${bookmarks.count.toLocaleString('en-US')} bookmarks, ${bookmarks.folders} folders`,
      mb(bookmarks.bytes / 1024 / 1024),
      String(bookmarks.status),
      bookmarks.firstProgressMs === undefined ? '-' : ms(bookmarks.firstProgressMs),
      String(bookmarks.progressLines),
      ms(bookmarks.ms),
      Math.round(bookmarks.perSec).toLocaleString('en-US'),
      s ? String(s.created) : '-',
      s ? `${s.skipped.duplicates}/${s.skipped.invalid}` : '-',
      s ? String(s.collections) : '-',
      bookmarks.peakRssMb === undefined ? '?' : mb(bookmarks.peakRssMb),
      `${ms(bookmarks.healthP99Ms)} / ${ms(bookmarks.slowestHealthMs)}`,
    ],
  ]);
  if (bookmarks.error) console.log(`bookmark import failed: ${bookmarks.error}`);
  if (hostile.length > 0) {
    console.log('');
    printTable([
      ['Hostile bookmark file', 'size', 'route', 'status', 'time', 'slowest health meanwhile', 'server RSS after', 'server peak RSS so far'],
      ...hostile.map((h) => [
        h.name,
        mb(h.bytes / 1024 / 1024),
        h.route,
        String(h.status),
        ms(h.ms),
        ms(h.slowestHealthMs),
        h.rssAfterMb === undefined ? '?' : mb(h.rssAfterMb),
        h.peakRssMb === undefined ? '?' : mb(h.peakRssMb),
      ]),
    ]);
  }  if (formats.length > 0) {
    console.log('');
    printTable([
      ['Import by format', 'rows', 'size', 'status', 'created', 'wall time', 'server CPU', 'server RSS before → peak', `budget ≤ ${FORMAT_BUDGET.seconds} s, ≤ ${FORMAT_BUDGET.peakRssMb} MB`],
      ...formats.map((f) => [
        f.format,
        f.rows.toLocaleString('en-US'),
        mb(f.bytes / 1024 / 1024),
        String(f.status),
        f.created === undefined ? '-' : f.created.toLocaleString('en-US'),
        ms(f.ms),
        ms(f.cpuMs),
        f.peakRssMb === undefined ? '?' : `${mb(f.rssBeforeMb ?? NaN)} → ${mb(f.peakRssMb)}`,
        f.status === 200 && f.ms <= FORMAT_BUDGET.seconds * 1000 && (f.peakRssMb ?? Infinity) <= FORMAT_BUDGET.peakRssMb ? 'PASS' : 'MISS',
      ]),
    ]);
    for (const f of formats) if (f.error) console.log(`${f.format} import failed: ${f.error}`);
  }
}
