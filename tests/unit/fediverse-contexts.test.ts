import { afterEach, describe, expect, it, vi } from 'vitest';
import { anyAddress } from '../../server/preview/address-policy';
import { PRELOADED_CONTEXTS, guardedDocumentLoader } from '../../server/federation/document-loader';

/**
 * Our document loader (server/federation/document-loader.ts) answers the JSON-LD contexts that
 * Fedify keeps in memory from there: every activity names them, and fetching them from w3.org or
 * w3id.org at each one would be slow, and impossible offline.
 */
describe('fediverse JSON-LD contexts', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('are served from memory, without a request', async () => {
    const fetch = vi.fn(() => Promise.reject(new Error('no network in this test')));
    vi.stubGlobal('fetch', fetch);
    const load = guardedDocumentLoader({ policy: anyAddress, timeoutMs: 1000 })();
    for (const url of PRELOADED_CONTEXTS) {
      const doc = await load(url);
      expect(doc.documentUrl).toBe(url);
      expect(doc.document).toHaveProperty('@context');
    }
    expect(fetch).not.toHaveBeenCalled();
  });
});
