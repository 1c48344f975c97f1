/**
 * `npm run lighthouse`: what a visitor on a phone gets from the five public pages.
 * Starts the production server (dist/server.js serving dist/web; builds them first when missing)
 * on a fresh SQLite database, seeds it through the API as a curator would (a public collection
 * of 60 resources with thumbnails, 30 public collections in the directory, a profile, a link),
 * then runs Lighthouse (mobile defaults) with Debian's Chromium three times per page and prints
 * the median of each figure. It measures and prints; it fails on nothing but errors.
 *
 *   LIGHTHOUSE_RUNS=3 CHROMIUM=/usr/bin/chromium npm run lighthouse
 *
 * LIGHTHOUSE_TRACES=<dir> also writes there each run's performance trace (<page>-<run>.json), to
 * open in Chromium's DevTools (Performance panel) and see what a long task is made of, and its
 * report (<page>-<run>.lhr.json: the long-tasks, bootup-time and main-thread audits).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import sharp from 'sharp';
import { serverNodeArgs } from '../server/server-node-args';
import { signedInUser } from '../tests/support/client';
import { freePort } from '../tests/support/free-port';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const TRACES = process.env.LIGHTHOUSE_TRACES;
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const START_DEADLINE_MS = 60_000;

function buildIfMissing() {
  if (['dist/web/index.html', 'dist/ssr/entry-server.js', 'dist/server.js'].every((file) => existsSync(path.join(ROOT, file)))) return;
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed');
}

async function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, serverNodeArgs('dist/server.js'), {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
  });
  const deadline = Date.now() + START_DEADLINE_MS;
  for (;;) {
    const up = await fetch(`${url}/api/health/live`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return { url, child };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('the server did not start');
    await sleep(200);
  }
}

/** A thumbnail-like picture (1200×630, the Open Graph size), different for each `seed`. */
const picture = (seed: number) =>
  sharp({
    create: { width: 1200, height: 630, channels: 3, background: { r: (seed * 53) % 256, g: (seed * 97) % 256, b: (seed * 151) % 256 } },
  })
    .composite([
      {
        input: Buffer.from(
          `<svg width="1200" height="630"><circle cx="${200 + ((seed * 71) % 800)}" cy="315" r="180" fill="white" opacity="0.6"/></svg>`,
        ),
      },
    ])
    .jpeg({ quality: 80 })
    .toBuffer();

/** The pages to measure, seeded through the API as a curator would. */
async function seed(url: string): Promise<Record<string, string>> {
  const curator = await signedInUser(url, 'Ada Curator');
  await curator.api.updateProfile(curator.me.id, {
    name: 'Ada Curator',
    bio: 'I collect the best writing on the web, design and science.',
    location: 'Lisbon',
    website: 'https://example.com',
  });
  const upload = async (n: number) => (await curator.api.uploadImage(new Blob([await picture(n)], { type: 'image/jpeg' }))).url;

  const main = await curator.api.createSupercuration({
    title: 'The best of the web this year',
    description: 'Sixty articles, talks and tools worth your time, hand-picked and tagged.',
    isPublic: true,
    slug: 'best-of-the-web',
    thumbnailUrl: await upload(0),
  });
  let linkId = '';
  for (let i = 1; i <= 60; i += 1) {
    const link = await curator.api.addResource(main.id, {
      link: {
        url: `https://example.com/articles/${i}`,
        title: `Article ${i}: a thoughtful piece on building things that last`,
        description: `Why this one matters: a clear explanation with examples, number ${i} of the collection.`,
        thumbnailUrl: await upload(i),
      },
    });
    linkId ||= link.id;
  }
  for (let i = 1; i < 30; i += 1) {
    await curator.api.createSupercuration({
      title: `Collection ${i}: reading list`,
      description: `A curated list of links on subject ${i}.`,
      isPublic: true,
      slug: `collection-${i}`,
      thumbnailUrl: await upload(100 + i),
    });
  }
  return {
    landing: '/',
    directory: '/directory',
    collection: '/supercurations/public/best-of-the-web',
    link: `/links/${linkId}`,
    profile: `/profile/${curator.me.id}`,
  };
}

interface Figures {
  performance: number;
  accessibility: number;
  'best-practices': number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  bytes: number;
}

async function measure(url: string, port: number, traceName: string): Promise<Figures> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  if (TRACES) {
    mkdirSync(TRACES, { recursive: true });
    writeFileSync(path.join(TRACES, `${traceName}.json`), JSON.stringify(result.artifacts.Trace));
    writeFileSync(path.join(TRACES, `${traceName}.lhr.json`), JSON.stringify(result.lhr));
  }
  const { categories, audits } = result.lhr;
  const numeric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
  const score = (id: (typeof CATEGORIES)[number]) => categories[id]?.score ?? Number.NaN;
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    'best-practices': score('best-practices'),
    seo: score('seo'),
    fcp: numeric('first-contentful-paint'),
    lcp: numeric('largest-contentful-paint'),
    tbt: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    bytes: numeric('total-byte-weight'),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function main() {
  buildIfMissing();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'supercurate-lighthouse-'));
  const { url, child } = await startServer(dataDir);
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    const pages = await seed(url);
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
    console.log(`Lighthouse ${RUNS}× per page (mobile defaults), medians:`);
    console.log('page        perf  a11y  b.p.   seo    FCP ms    LCP ms  TBT ms    CLS     KiB');
    for (const [name, pathname] of Object.entries(pages)) {
      const runs: Figures[] = [];
      for (let i = 0; i < RUNS; i += 1) runs.push(await measure(`${url}${pathname}`, chrome.port, `${name}-${i + 1}`));
      const m = (key: keyof Figures) => median(runs.map((r) => r[key]));
      console.log(
        [
          name.padEnd(10),
          m('performance').toFixed(2).padStart(5),
          m('accessibility').toFixed(2).padStart(5),
          m('best-practices').toFixed(2).padStart(5),
          m('seo').toFixed(2).padStart(5),
          m('fcp').toFixed(0).padStart(9),
          m('lcp').toFixed(0).padStart(9),
          m('tbt').toFixed(0).padStart(7),
          m('cls').toFixed(3).padStart(6),
          (m('bytes') / 1024).toFixed(0).padStart(7),
        ].join(' '),
      );
    }
  } finally {
    chrome?.kill();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
