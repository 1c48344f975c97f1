import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { setTimeout } from 'node:timers/promises';
import zlib from 'node:zlib';
import { type HopPolicy, bareHostname } from './address-policy';

/**
 * An SSRF-guarded GET (or POST: ActivityPub deliveries). Every hop (the URL and each redirect) is
 * resolved here, vetted by the policy with ALL its addresses, and then connected to one of exactly those addresses through a
 * custom `lookup`, so a DNS answer that changes between the check and the connection (DNS
 * rebinding) cannot move the request. Host and TLS SNI stay the hostname. Redirects are followed
 * by hand; one deadline covers DNS, connection, redirects and body; the body is cut at a limit.
 */

/** The hop may not be fetched (address, port, name or scheme refused). */
export class FetchRefusedError extends Error {
  constructor(readonly url: string) {
    super(`Refused to fetch ${url}`);
  }
}

/** Why a fetch failed: the link checker counts a DNS or TLS failure at once, the others later. */
export type FetchFailure = 'dns' | 'tls' | 'timeout' | 'network' | 'redirects';

/** The page could not be fetched: DNS, network, TLS, timeout or too many redirects. */
export class FetchFailedError extends Error {
  constructor(
    message: string,
    readonly kind: FetchFailure = 'network',
  ) {
    super(message);
  }
}

/** Node's codes for a certificate or handshake that failed (tls.connect's errors). */
const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
]);

function failureKind(err: NodeJS.ErrnoException): FetchFailure {
  const code = err.code ?? '';
  if (TLS_CODES.has(code) || code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS')) return 'tls';
  // EPROTO from OpenSSL ('SSL routines: wrong version number'): a handshake that failed.
  if (code === 'EPROTO' && err.message.includes('SSL routines')) return 'tls';
  return 'network';
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface SafeFetchOptions {
  policy: HopPolicy;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  headers: Record<string, string>;
  /** A redirect to the same host is followed this much later (a polite fetcher's spacing). */
  sameHostHopDelayMs?: number;
  /** GET (default) or HEAD, on every hop; or POST with `body` (give it no redirects to follow). */
  method?: 'GET' | 'HEAD' | 'POST';
  body?: Buffer;
  /** Whether to read the body of a final response (e.g. only 2xx HTML). Default: 2xx. */
  wantBody?: (status: number, contentType: string) => boolean;
  resolve?: Resolver;
}

export interface FetchedPage {
  /** The URL that answered, after redirects. */
  url: URL;
  status: number;
  /** Lowercase media type without parameters ('' when absent). */
  mediaType: string;
  /** The raw Content-Type header. */
  contentType: string;
  /** The final response's headers. */
  headers: http.IncomingHttpHeaders;
  /** Redirects followed. */
  redirects: number;
  /** Decompressed body, at most maxBytes; empty when not wanted. */
  body: Buffer;
  /** The body was cut at maxBytes or ended early (timeout, connection lost). */
  truncated: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function safeFetch(input: string | URL, options: SafeFetchOptions): Promise<FetchedPage> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const resolve = options.resolve ?? systemResolver;
  const wantBody = options.wantBody ?? ((status) => status >= 200 && status < 300);
  let url = new URL(input);
  for (let redirects = 0; ; redirects++) {
    const addresses = await vetHop(url, options.policy, resolve, signal);
    const res = await request(url, addresses, options.method ?? 'GET', options.headers, signal, options.body);
    const location = res.headers.location;
    if (REDIRECTS.has(res.statusCode ?? 0) && location) {
      res.destroy();
      if (redirects >= options.maxRedirects) throw new FetchFailedError(`More than ${options.maxRedirects} redirects`, 'redirects');
      const next = nextUrl(url, location);
      if (options.sameHostHopDelayMs && next.host === url.host) await pause(options.sameHostHopDelayMs, signal);
      url = next;
      continue;
    }
    const status = res.statusCode ?? 0;
    const contentType = res.headers['content-type'] ?? '';
    const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
    const head = { url, status, mediaType, contentType, headers: res.headers, redirects };
    if (options.method === 'HEAD' || !wantBody(status, mediaType)) {
      res.destroy();
      return { ...head, body: Buffer.alloc(0), truncated: false };
    }
    const { body, truncated } = await readLimited(res, options.maxBytes, signal);
    return { ...head, body, truncated };
  }
}

function nextUrl(from: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new FetchFailedError('Invalid redirect location');
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new FetchRefusedError(next.href);
  return next;
}

/** Resolves the hop's hostname and returns its addresses if the policy allows ALL of them. */
async function vetHop(url: URL, policy: HopPolicy, resolve: Resolver, signal: AbortSignal) {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefusedError(url.href);
  if (!policy.allowsUrl(url)) throw new FetchRefusedError(url.href);
  const host = bareHostname(url.hostname);
  const family = net.isIP(host);
  let addresses: ResolvedAddress[];
  if (family) {
    addresses = [{ address: host, family }];
  } else {
    try {
      addresses = await abortable(resolve(host), signal);
    } catch (err) {
      if (signal.aborted) throw new FetchFailedError('Timed out', 'timeout');
      throw new FetchFailedError(`Cannot resolve ${host}: ${(err as Error).message}`, 'dns');
    }
  }
  if (addresses.length === 0) throw new FetchFailedError(`No address for ${host}`, 'dns');
  if (!policy.allowsAddresses(addresses.map((a) => a.address), url)) throw new FetchRefusedError(url.href);
  return addresses;
}

/** Waits `ms`, or fails as a timeout when the deadline comes first. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await setTimeout(ms, undefined, { signal });
  } catch {
    throw new FetchFailedError('Timed out', 'timeout');
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** One request to the vetted addresses only; resolves with the response head. */
function request(
  url: URL,
  addresses: ResolvedAddress[],
  method: 'GET' | 'HEAD' | 'POST',
  headers: Record<string, string>,
  signal: AbortSignal,
  body?: Buffer,
): Promise<http.IncomingMessage> {
  // Answers any lookup of this hop with the vetted addresses (never asks DNS again).
  const lookup: net.LookupFunction = (_hostname, opts, callback) => {
    const first = addresses[0] as ResolvedAddress;
    if (opts.all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, addresses);
    else callback(null, first.address, first.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request({
      protocol: url.protocol,
      hostname: bareHostname(url.hostname),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method,
      headers: { ...headers, 'accept-encoding': 'gzip, deflate, br' },
      lookup,
      // A fresh connection per request: a pooled socket would skip our lookup.
      agent: false,
      signal,
    });
    req.once('response', resolve);
    req.once('error', (err) =>
      reject(signal.aborted ? new FetchFailedError('Timed out', 'timeout') : new FetchFailedError(err.message, failureKind(err))),
    );
    req.end(body);
  });
}

function decoded(res: http.IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : null;
  if (!decoder) return res;
  return pipeline(res, decoder, () => {});
}

/**
 * Reads at most maxBytes of the (decompressed) body, then drops the connection. A body that ends
 * early with an error still gives what arrived, marked truncated; nothing at all is a failure.
 */
async function readLimited(res: http.IncomingMessage, maxBytes: number, signal: AbortSignal) {
  const stream = decoded(res);
  const onAbort = () => stream.destroy(new FetchFailedError('Timed out', 'timeout'));
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        truncated = chunk.length > room || !res.complete;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (err) {
    if (size === 0) throw err instanceof FetchFailedError ? err : new FetchFailedError((err as Error).message);
    truncated = true;
  } finally {
    signal.removeEventListener('abort', onAbort);
    stream.destroy();
    res.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated };
}
