import { parentPort } from 'node:worker_threads';
import { copyOfArticle, extractReadable } from './extract';
import type { ExtractRequest } from './extractor';

/**
 * The readable-copy extractor's thread (server/readable/extractor.ts): parsing a page and running
 * Readability takes 20 ms for a typical page and over 100 ms for a heavy one, too long for the
 * server's event loop, and so does sanitising the 2 MB an extension may send. One request at a
 * time: an ExtractRequest in, { id, copy } or { id, error } out.
 */
parentPort?.on('message', ({ id, kind, html, url, lang }: ExtractRequest) => {
  try {
    const copy = kind === 'page' ? extractReadable(html, new URL(url)) : copyOfArticle(html, new URL(url), lang);
    parentPort?.postMessage({ id, copy });
  } catch (err) {
    parentPort?.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
