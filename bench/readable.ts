/**
 * The readable section of `npm run bench`: readable copies made of BENCH_READABLE_PAGES (10,000)
 * pages, one after the other, through the extractor's thread as the server makes them
 * (server/readable/extractor.ts: linkedom, Readability, sanitize-html, then gzip as stored). The
 * pages are the 59 real-world pages of tests/fixtures/previews, in turn. Reports pages per second,
 * CPU per page (all threads of this process), latency per page, peak RSS of the process and the
 * stored size. Issue 23 asks for pages per second and peak RSS; it sets no budget.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createExtractor } from '../server/readable/extractor';
import { intEnv, mb, ms, percentile, printTable } from './common';

const CORPUS = path.resolve(import.meta.dirname, '../tests/fixtures/previews');
const PAGES = intEnv('BENCH_READABLE_PAGES', 10_000);

export interface ReadableResult {
  pages: number;
  kept: number;
  pagesPerSecond: number;
  cpuMsPerPage: number;
  p50Ms: number;
  p99Ms: number;
  meanPageKb: number;
  meanStoredKb: number;
  rssBeforeMb: number;
  peakRssMb: number;
}

export async function benchReadable(): Promise<ReadableResult> {
  const corpus = readdirSync(CORPUS)
    .filter((name) => name.endsWith('.html'))
    .sort()
    .map((name) => readFileSync(path.join(CORPUS, name), 'utf8'));
  const extractor = createExtractor();
  try {
    // The thread's start-up and warm-up are not counted.
    for (const page of corpus.slice(0, 5)) await extractor.page(page, new URL('https://news.example/warm-up'));
    const rssBeforeMb = process.memoryUsage().rss / 1024 / 1024;
    const times: number[] = [];
    let kept = 0;
    let pageBytes = 0;
    let storedBytes = 0;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < PAGES; i++) {
      const page = corpus[i % corpus.length] as string;
      pageBytes += page.length;
      const t = performance.now();
      const copy = await extractor.page(page, new URL(`https://news.example/articles/${i}`));
      times.push(performance.now() - t);
      if (!copy) continue;
      kept += 1;
      storedBytes += gzipSync(copy.html).length + gzipSync(copy.text).length;
    }
    const elapsedMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    times.sort((a, b) => a - b);
    return {
      pages: PAGES,
      kept,
      pagesPerSecond: PAGES / (elapsedMs / 1000),
      cpuMsPerPage: (cpu.user + cpu.system) / 1000 / PAGES,
      p50Ms: percentile(times, 50),
      p99Ms: percentile(times, 99),
      meanPageKb: pageBytes / PAGES / 1024,
      meanStoredKb: storedBytes / Math.max(1, kept) / 1024,
      rssBeforeMb,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    await extractor.close();
  }
}

export function printReadable(r: ReadableResult): void {
  printTable([
    ['Readable copies (extractor thread)', 'pages', 'kept', 'pages/s', 'CPU/page', 'p50', 'p99', 'page', 'stored (gzip)', 'RSS before', 'peak RSS'],
    [
      'corpus pages in turn',
      String(r.pages),
      String(r.kept),
      r.pagesPerSecond.toFixed(1),
      ms(r.cpuMsPerPage),
      ms(r.p50Ms),
      ms(r.p99Ms),
      `${r.meanPageKb.toFixed(0)} KB`,
      `${r.meanStoredKb.toFixed(1)} KB`,
      mb(r.rssBeforeMb),
      mb(r.peakRssMb),
    ],
  ]);
}
