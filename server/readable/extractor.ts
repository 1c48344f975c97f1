import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReadableCopy } from './extract';

/**
 * Runs extractReadable in a thread of its own (server/readable/worker.ts), so a heavy page never
 * stalls the server's requests. One thread per server process, started at the first page; it is
 * replaced when it fails or takes longer than EXTRACT_TIMEOUT_MS on one page (its pages then fail).
 */

export const EXTRACT_TIMEOUT_MS = 20_000;
/** A page's DOM can take ten times its size: the thread is stopped past this heap rather than the server. */
const WORKER_HEAP_MB = 512;

export interface Extractor {
  /** The readable copy of a whole page (extractReadable). */
  page(html: string, url: URL): Promise<ReadableCopy | null>;
  /** The copy of an article the extension extracted (copyOfArticle). */
  article(html: string, url: URL, lang: string | null): Promise<ReadableCopy | null>;
  close(): Promise<void>;
}

/** What the thread is asked: `html` is the whole page ('page') or the article alone ('article'). */
export interface ExtractRequest {
  id: number;
  kind: 'page' | 'article';
  html: string;
  url: string;
  lang: string | null;
}

/** The thread: the bundled file next to the server's (npm run build), else the TypeScript source through tsx (dev, tests). */
function startWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (!import.meta.url.endsWith('.ts')) {
    // esbuild puts this module in dist/ or dist/chunks/; the worker's bundle is dist/readable-worker.js.
    const bundle = new URL(import.meta.url.includes('/chunks/') ? '../readable-worker.js' : './readable-worker.js', import.meta.url);
    return new Worker(bundle, options);
  }
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const source = new URL('./worker.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source)}); })`, {
    ...options,
    eval: true,
  });
}

interface Pending {
  resolve(copy: ReadableCopy | null): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export function createExtractor(): Extractor {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  const failAll = (err: Error) => {
    for (const p of pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    pending.clear();
  };
  const stop = (w: Worker, err: Error) => {
    if (worker === w) worker = null;
    failAll(err);
    void w.terminate();
  };
  const thread = () => {
    if (worker) return worker;
    const w = startWorker();
    w.unref();
    w.on('message', ({ id, copy, error }: { id: number; copy?: ReadableCopy | null; error?: string }) => {
      const p = pending.get(id);
      if (!p) return;
      pending.delete(id);
      clearTimeout(p.timer);
      if (error !== undefined) p.reject(new Error(error));
      else p.resolve(copy ?? null);
    });
    w.on('error', (err) => stop(w, err));
    w.on('exit', () => stop(w, new Error('readable copy extractor stopped')));
    worker = w;
    return w;
  };

  const ask = (kind: ExtractRequest['kind'], html: string, url: URL, lang: string | null) => {
    const w = thread();
    const id = nextId++;
    return new Promise<ReadableCopy | null>((resolve, reject) => {
      const timer = setTimeout(() => stop(w, new Error('readable copy extraction timed out')), EXTRACT_TIMEOUT_MS);
      pending.set(id, { resolve, reject, timer });
      w.postMessage({ id, kind, html, url: url.href, lang } satisfies ExtractRequest);
    });
  };

  return {
    page: (html, url) => ask('page', html, url, null),
    article: (html, url, lang) => ask('article', html, url, lang),
    async close() {
      const w = worker;
      worker = null;
      failAll(new Error('readable copy extractor closed'));
      if (w) await w.terminate();
    },
  };
}
