import { type DocumentLoader, FetchError, getDocumentLoader, signRequest } from '@fedify/fedify';
import type { HopPolicy } from '../preview/address-policy';
import { safeFetch } from '../preview/safe-fetch';

/**
 * Fedify's loaders of remote documents (actors, keys, activities), through our SSRF guard
 * (server/preview/safe-fetch.ts: every address of every hop vetted, and the connection pinned to
 * them) instead of Fedify's own check, which looks the name up and then lets fetch look it up again.
 * The JSON-LD contexts Fedify ships (ActivityStreams, security…) are answered from memory by its
 * own loader, never fetched.
 */

/**
 * The contexts Fedify's loader holds in memory (runtime/contexts.js of 1.5.9, the version pinned in
 * package.json; tests/unit/fediverse-contexts.test.ts checks each is served without the network).
 */
export const PRELOADED_CONTEXTS: ReadonlySet<string> = new Set([
  'https://www.w3.org/ns/activitystreams',
  'https://w3id.org/security/v1',
  'https://w3id.org/security/data-integrity/v1',
  'https://www.w3.org/ns/did/v1',
  'https://w3id.org/security/multikey/v1',
  'https://w3id.org/identity/v1',
  'https://purl.archive.org/socialweb/webfinger',
  'http://schema.org/',
  'https://gotosocial.org/ns',
]);
/** An actor or an activity is a few kB. */
const MAX_BYTES = 1024 * 1024;
const MAX_REDIRECTS = 3;
const ACCEPT = 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

export interface LoaderOptions {
  policy: HopPolicy;
  timeoutMs: number;
}

const preloaded = getDocumentLoader({ allowPrivateAddress: false });

async function load(url: string, headers: Record<string, string>, o: LoaderOptions) {
  if (PRELOADED_CONTEXTS.has(url)) return preloaded(url);
  let page: Awaited<ReturnType<typeof safeFetch>>;
  try {
    page = await safeFetch(url, { policy: o.policy, timeoutMs: o.timeoutMs, maxBytes: MAX_BYTES, maxRedirects: MAX_REDIRECTS, headers: { accept: ACCEPT, ...headers } });
  } catch (err) {
    throw new FetchError(url, err instanceof Error ? err.message : String(err));
  }
  if (page.status < 200 || page.status >= 300) throw new FetchError(url, `HTTP ${page.status}: ${url}`);
  if (page.truncated) throw new FetchError(url, `Larger than ${MAX_BYTES} bytes: ${url}`);
  try {
    return { contextUrl: null, document: JSON.parse(page.body.toString('utf8')) as unknown, documentUrl: page.url.href };
  } catch {
    throw new FetchError(url, `Not JSON: ${url}`);
  }
}

export const guardedDocumentLoader =
  (o: LoaderOptions): (() => DocumentLoader) =>
  () =>
  (url) =>
    load(url, {}, o);

/** The loader that signs its GETs with one of our actors' keys (servers in "authorized fetch" mode). */
export const guardedAuthenticatedLoader =
  (o: LoaderOptions) =>
  (identity: { keyId: URL; privateKey: CryptoKey }): DocumentLoader =>
  async (url) => {
    if (PRELOADED_CONTEXTS.has(url)) return preloaded(url);
    const signed = await signRequest(new Request(url, { headers: { accept: ACCEPT } }), identity.privateKey, identity.keyId);
    return load(url, Object.fromEntries(signed.headers), o);
  };
