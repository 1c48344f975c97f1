/**
 * The previews section of `npm run bench`: CPU time to read a preview (decodeDocument and
 * extractMetadata, as the preview service does) from a 500 KB page, in this process. The page is
 * made of the corpus in tests/fixtures/previews: its largest page whole, then the bodies of the
 * others until 500 KB, so the preview is in the head and the rest is real-world markup. Measured
 * twice: as it is (og tags in the head, the body is skipped) and without its og/twitter tags (the
 * whole page is read for the fallbacks). BENCH_PREVIEW_RUNS (50) timed runs after 5 warm-up runs.
 * Issue 19's budget: 15 ms.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { decodeDocument, extractMetadata } from '../server/preview/metadata';
import { intEnv, ms, percentile, printTable } from './common';

const CORPUS = path.resolve(import.meta.dirname, '../tests/fixtures/previews');
const PAGE_BYTES = 500 * 1024;
const RUNS = intEnv('BENCH_PREVIEW_RUNS', 50);
const WARM_UP_RUNS = 5;
const BUDGET_MS = 15;

export interface PreviewCpu {
  page: string;
  pageBytes: number;
  runs: number;
  cpuP50Ms: number;
  cpuMeanMs: number;
}

export interface PreviewsResult {
  budgetMs: number;
  pages: PreviewCpu[];
}

function corpusPage(): Buffer {
  const pages = readdirSync(CORPUS)
    .filter((name) => name.endsWith('.html'))
    .map((name) => readFileSync(path.join(CORPUS, name), 'utf8'))
    .sort((a, b) => b.length - a.length);
  const [first = '', ...rest] = pages;
  const parts = [first.replace(/<\/body>[\s\S]*$/i, '')];
  let size = Buffer.byteLength(parts[0] ?? '');
  for (const page of rest.flatMap((p) => /<body[^>]*>([\s\S]*?)(<\/body>|$)/i.exec(p)?.[1] ?? [])) {
    if (size >= PAGE_BYTES) break;
    parts.push(page);
    size += Buffer.byteLength(page);
  }
  return Buffer.from(parts.join('\n')).subarray(0, PAGE_BYTES);
}

function measure(page: string, body: Buffer): PreviewCpu {
  const url = new URL('https://news.example/articles/one');
  const extract = () => extractMetadata(decodeDocument(body, 'text/html; charset=utf-8'), url);
  for (let i = 0; i < WARM_UP_RUNS; i++) extract();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const before = process.cpuUsage();
    extract();
    const { user, system } = process.cpuUsage(before);
    times.push((user + system) / 1000);
  }
  times.sort((a, b) => a - b);
  return {
    page,
    pageBytes: body.length,
    runs: RUNS,
    cpuP50Ms: percentile(times, 50),
    cpuMeanMs: times.reduce((a, b) => a + b, 0) / times.length,
  };
}

export function benchPreviews(): PreviewsResult {
  const page = corpusPage();
  const bare = Buffer.from(page.toString('utf8').replace(/<meta[^>]+(og|twitter):[^>]*>/gi, ''));
  return {
    budgetMs: BUDGET_MS,
    pages: [measure('og tags in the head', page), measure('no og/twitter tags, read to the end', bare)],
  };
}

export function printPreviews(r: PreviewsResult): void {
  printTable([
    ['Link preview extraction (corpus page)', 'size', 'runs', 'CPU p50', 'CPU mean', 'budget'],
    ...r.pages.map((p) => [
      p.page,
      `${Math.round(p.pageBytes / 1024)} KB`,
      String(p.runs),
      ms(p.cpuP50Ms),
      ms(p.cpuMeanMs),
      ms(r.budgetMs),
    ]),
  ]);
}
