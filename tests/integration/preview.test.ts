import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_MESSAGES, MSG, NO_LINK_FACTS } from '../../shared/domain';
import { type HopPolicy, anyAddress, publicOnly } from '../../server/preview/address-policy';
import { FetchRefusedError, type Resolver, type SafeFetchOptions, safeFetch } from '../../server/preview/safe-fetch';
import { PreviewRefusedError, createPreviewService } from '../../server/preview/service';
import { failure, http as fetchHttp, signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

/**
 * Link previews against pages served by a local site on 127.0.0.1. No test sends traffic
 * anywhere else: refused addresses are refused before any connection, and the injected
 * resolvers answer only for made-up names (everything else fails without asking DNS).
 */

const MB = 1024 * 1024;
/** A preview with no facts and no suggested format (these pages declare none). */
const NONE = { ...NO_LINK_FACTS, format: null };
const TIMEOUT_MS = 1000;

interface Site {
  origin: string;
  port: number;
  hits: Map<string, number>;
  headers: Map<string, http.IncomingHttpHeaders>;
  /** Bytes the endless page had sent when the client hung up. */
  hugeSent: number;
  close(): Promise<void>;
}

const doc = (head: string, body = '') => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const OG = doc(
  `<title>Plain title</title>
   <meta property="og:title" content="OG title">
   <meta property="og:description" content="OG description">
   <meta property="og:image" content="https://cdn.example/og.png">
   <meta name="twitter:title" content="Twitter title">`,
);

function startSite(): Promise<Site> {
  const site = { hits: new Map(), headers: new Map(), hugeSent: 0 } as Site;
  const pages: Record<string, (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => void> = {
    '/og': (_q, res) => send(res, OG),
    '/twitter': (_q, res) =>
      send(
        res,
        doc(`<title>Plain</title>
          <meta name="twitter:title" content="Twitter title">
          <meta name="twitter:description" content="Twitter description">
          <meta name="twitter:image" content="/tw.png">`),
      ),
    '/plain': (_q, res) =>
      send(res, doc('<title> Just a\n  title </title><meta name="description" content="Meta description">')),
    '/nothing': (_q, res) => send(res, doc('', '<p>Hello</p>')),
    '/entities': (_q, res) =>
      send(
        res,
        doc(`<title>Caf&eacute; &lt;3</title>
          <meta name="description" content="Tom &amp; Jerry&#39;s &quot;Big&quot; Day &#x1F600;">`),
      ),
    '/to-sub': (_q, res) => redirect(res, 'sub/page'),
    '/sub/page': (_q, res) =>
      send(res, doc('<meta property="og:title" content="Sub"><meta property="og:image" content="pic.png?a=1&amp;b=2">')),
    '/latin1': (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' });
      res.end(Buffer.from(doc('<title>Caf\xe9 cr\xe8me</title>'), 'latin1'));
    },
    '/meta-charset': (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(Buffer.from(doc('<meta charset="iso-8859-1"><title>Gr\xfc\xdfe</title>'), 'latin1'));
    },
    '/gzip': (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' });
      res.end(gzipSync(doc('<meta property="og:title" content="Compressed">')));
    },
    '/doc.pdf': (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end('%PDF-1.4 <title>Not HTML</title>');
    },
    '/pic.png': (_q, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.alloc(64));
    },
    '/404': (_q, res) => send(res, OG, 404),
    '/500': (_q, res) => send(res, OG, 500),
    '/huge': (_q, res) => {
      // An endless page (bounded at 64 MB so a broken limit cannot hang the run).
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write(doc('<meta property="og:title" content="Huge page">').replace('</body></html>', ''));
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      res.on('close', () => (site.hugeSent = sent));
      const pump = () => {
        while (!res.destroyed && sent < 64 * MB) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      pump();
    },
    '/title-after-2mb': (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body>${'x'.repeat(2.5 * MB)}<title>Too late</title></body></html>`);
    },
    '/slow': () => {
      // Never answers.
    },
    '/stall': (_q, res) => {
      // Sends the head, then never finishes the body.
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><head><meta property="og:title" content="Stalled"></head><body>');
    },
    '/redirect-to': (_q, res, url) => redirect(res, url.searchParams.get('to') ?? '/'),
    '/secret': (_q, res) => send(res, doc('<title>Internal secret</title>')),
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site.invalid');
    site.hits.set(url.pathname, (site.hits.get(url.pathname) ?? 0) + 1);
    site.headers.set(url.pathname, req.headers);
    const hop = /^\/r\/(\d+)$/.exec(url.pathname);
    if (hop) {
      const left = Number(hop[1]);
      return redirect(res, left > 0 ? `/r/${left - 1}${url.search}` : `/og${url.search}`);
    }
    const page = pages[url.pathname];
    if (page) return page(req, res, url);
    send(res, doc('<title>Not found</title>'), 404);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      site.port = (server.address() as AddressInfo).port;
      site.origin = `http://127.0.0.1:${site.port}`;
      site.close = () =>
        new Promise((done) => {
          server.closeAllConnections();
          server.close(() => done());
        });
      resolve(site);
    });
  });
}

function send(res: http.ServerResponse, body: string, status = 200) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
}

function redirect(res: http.ServerResponse, location: string) {
  res.writeHead(302, { location });
  res.end();
}

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

let unique = 0;
/** A URL of the local site that no earlier test has previewed (the cache is per URL). */
const fresh = (path: string) => `${site.origin}${path}${path.includes('?') ? '&' : '?'}t=${++unique}`;

/** Resolves only made-up names; anything else fails without a DNS query. */
const resolver = (names: Record<string, string>, calls: string[] = []): Resolver => {
  return async (hostname) => {
    calls.push(hostname);
    const address = names[hostname];
    if (!address) throw new Error(`no DNS in tests: ${hostname}`);
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
};
/** The production policy, except for one host standing in for a public site. */
const exempt = (host: string): HopPolicy => ({
  allowsUrl: (url) => url.hostname === host || publicOnly.allowsUrl(url),
  allowsAddresses: (addresses, url) => url.hostname === host || publicOnly.allowsAddresses(addresses, url),
});

describeEachDatabase(
  'link previews (PREVIEW_ALLOW_PRIVATE=true)',
  (ctx) => {
    let user: Awaited<ReturnType<typeof signedInUser>>;
    beforeAll(async () => {
      user = await signedInUser(ctx.server.url, 'Previewer');
    });

    it('reads og:* tags first', async () => {
      const url = fresh('/og');
      expect(await user.api.preview(url)).toEqual({
        url,
        title: 'OG title',
        description: 'OG description',
        thumbnailUrl: 'https://cdn.example/og.png',
        ...NONE,
      });
    });

    it('falls back to twitter:* tags, resolving a relative image', async () => {
      const url = fresh('/twitter');
      expect(await user.api.preview(url)).toEqual({
        url,
        title: 'Twitter title',
        description: 'Twitter description',
        thumbnailUrl: `${site.origin}/tw.png`,
        ...NONE,
      });
    });

    it('falls back to <title> and meta description', async () => {
      const url = fresh('/plain');
      expect(await user.api.preview(url)).toEqual({
        url,
        title: 'Just a title',
        description: 'Meta description',
        thumbnailUrl: null,
        ...NONE,
      });
    });

    it('resolves a relative og:image against the final URL after a redirect', async () => {
      const preview = await user.api.preview(fresh('/to-sub'));
      expect(preview).toMatchObject({ title: 'Sub', thumbnailUrl: `${site.origin}/sub/pic.png?a=1&b=2` });
    });

    it('decodes HTML entities', async () => {
      expect(await user.api.preview(fresh('/entities'))).toMatchObject({
        title: 'Café <3',
        description: 'Tom & Jerry\'s "Big" Day 😀',
      });
    });

    it('decodes the charset of the Content-Type or <meta charset>, and gzip', async () => {
      expect((await user.api.preview(fresh('/latin1'))).title).toBe('Café crème');
      expect((await user.api.preview(fresh('/meta-charset'))).title).toBe('Grüße');
      expect((await user.api.preview(fresh('/gzip'))).title).toBe('Compressed');
    });

    it('answers the fallback for a page with nothing, a PDF, 404 and 500; an image previews itself', async () => {
      for (const path of ['/nothing', '/doc.pdf', '/404', '/500']) {
        const url = fresh(path);
        expect(await user.api.preview(url)).toEqual({
          url,
          title: '127.0.0.1',
          description: LINK_MESSAGES.noPreview,
          thumbnailUrl: null,
          ...NONE,
        });
      }
      const image = fresh('/pic.png');
      expect(await user.api.preview(image)).toMatchObject({ title: '127.0.0.1', thumbnailUrl: image });
    });

    it('normalises the URL (SPEC §5) and names the host in the fallback', async () => {
      const url = fresh('/nothing').replace('127.0.0.1', 'localhost');
      expect(await user.api.preview(`  @${url}  `)).toEqual({
        url,
        title: 'localhost',
        description: LINK_MESSAGES.noPreview,
        thumbnailUrl: null,
        ...NONE,
      });
    });

    it('sends a real User-Agent and asks for HTML', async () => {
      await user.api.preview(fresh('/og'));
      const headers = site.headers.get('/og') ?? {};
      expect(headers['user-agent']).toBe(`Mozilla/5.0 (compatible; SupercurateBot/1.0; +${ctx.server.url})`);
      expect(headers.accept).toMatch(/^text\/html/);
      expect(headers.cookie).toBeUndefined();
    });

    it('stops reading a huge page at 2 MB and still answers from its head', async () => {
      site.hugeSent = 0;
      expect((await user.api.preview(fresh('/huge'))).title).toBe('Huge page');
      await expect.poll(() => site.hugeSent).toBeGreaterThan(0);
      expect(site.hugeSent).toBeLessThan(16 * MB);
    });

    it('never reads past 2 MB', async () => {
      expect(await user.api.preview(fresh('/title-after-2mb'))).toMatchObject({
        title: '127.0.0.1',
        description: LINK_MESSAGES.noPreview,
      });
    });

    it('gives up on a page that never answers within the timeout', async () => {
      const started = Date.now();
      const url = fresh('/slow');
      expect(await user.api.preview(url)).toMatchObject({ title: '127.0.0.1', description: LINK_MESSAGES.noPreview });
      // It waited for the page (no upper bound: wall-clock limits are for the bench, not tests).
      expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    });

    it('uses what arrived of a page whose body stalls', async () => {
      expect((await user.api.preview(fresh('/stall'))).title).toBe('Stalled');
    });

    it('follows up to 5 redirects, and not a 6th', async () => {
      // /r/n answers n + 1 redirects: /r/n → ... → /r/0 → /og.
      const og = site.hits.get('/og') ?? 0;
      expect((await user.api.preview(fresh('/r/4'))).title).toBe('OG title');
      expect(site.hits.get('/og')).toBe(og + 1);
      const last = site.hits.get('/r/0') ?? 0;
      expect(await user.api.preview(fresh('/r/5'))).toMatchObject({
        title: '127.0.0.1',
        description: LINK_MESSAGES.noPreview,
      });
      expect(site.hits.get('/r/0')).toBe(last + 1);
      expect(site.hits.get('/og')).toBe(og + 1);
    });

    it('refuses a redirect to a non-http(s) URL', async () => {
      const err = await failure(user.api.preview(fresh(`/redirect-to?to=${encodeURIComponent('file:///etc/passwd')}`)));
      expect([err.status, err.message]).toEqual([400, LINK_MESSAGES.previewRefused]);
    });

    it('caches per URL in the database: no refetch, not even after a restart', async () => {
      const url = fresh('/plain');
      const before = site.hits.get('/plain') ?? 0;
      const first = await user.api.preview(url);
      expect(await user.api.preview(url)).toEqual(first);
      ctx.server = await ctx.server.restart();
      expect(await user.api.preview(url)).toEqual(first);
      expect(site.hits.get('/plain')).toBe(before + 1);

      const rows = await sql<{ fetched_at: string; expires_at: string }>`
        select fetched_at, expires_at from link_previews where url = ${url}`.execute(ctx.server.db.kysely);
      const row = rows.rows[0];
      if (!row) throw new Error('no cached row');
      expect(Date.parse(row.expires_at) - Date.parse(row.fetched_at)).toBe(24 * 60 * 60 * 1000);
    });

    it('caches a fallback for 10 minutes only', async () => {
      const url = fresh('/500');
      await user.api.preview(url);
      const rows = await sql<{ fetched_at: string; expires_at: string }>`
        select fetched_at, expires_at from link_previews where url = ${url}`.execute(ctx.server.db.kysely);
      const row = rows.rows[0];
      if (!row) throw new Error('no cached row');
      expect(Date.parse(row.expires_at) - Date.parse(row.fetched_at)).toBe(10 * 60 * 1000);
    });

    it('shares one fetch between concurrent requests for the same URL', async () => {
      const url = fresh('/twitter');
      const before = site.hits.get('/twitter') ?? 0;
      const results = await Promise.all(Array.from({ length: 5 }, () => user.api.preview(url)));
      expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
      expect(site.hits.get('/twitter')).toBe(before + 1);
    });

    it('is for signed-in users only', async () => {
      const before = site.hits.get('/og') ?? 0;
      const res = await fetchHttp(`${ctx.server.url}/api/preview?url=${encodeURIComponent(fresh('/og'))}`);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: MSG.notAuthenticated });
      expect(site.hits.get('/og')).toBe(before);
    });

    it('refuses URLs that are not http(s)', async () => {
      for (const url of ['javascript:alert(1)', 'ftp://files.example/a', 'file:///etc/passwd', 'not a url', '']) {
        const err = await failure(user.api.preview(url));
        expect([err.status, err.message]).toEqual([400, LINK_MESSAGES.onlyHttpUrls]);
      }
      const missing = await user.fetch(`${ctx.server.url}/api/preview`);
      expect(missing.status).toBe(400);
      const long = await failure(user.api.preview(`https://a.example/${'a'.repeat(3000)}`));
      expect(long.status).toBe(400);
    });

    it('rate limits each user to 60 previews a minute', async () => {
      const busy = await signedInUser(ctx.server.url, 'Busy');
      const ask = (u: typeof busy) => u.fetch(`${ctx.server.url}/api/preview?url=javascript:1`).then((r) => r.status);
      const statuses = await Promise.all(Array.from({ length: 60 }, () => ask(busy)));
      expect(statuses.every((s) => s === 400)).toBe(true);
      const res = await busy.fetch(`${ctx.server.url}/api/preview?url=javascript:1`);
      expect(res.status).toBe(429);
      expect(await res.json()).toMatchObject({ error: MSG.tooManyRequests });
      // Someone else is not affected.
      expect(await ask(user)).toBe(400);
    });
  },
  { PREVIEW_ALLOW_PRIVATE: 'true', PREVIEW_TIMEOUT_MS: String(TIMEOUT_MS) },
);

describeEachDatabase('link previews refuse private addresses (PREVIEW_ALLOW_PRIVATE off)', (ctx) => {
  it('refuses loopback, private, link-local, metadata and unspecified addresses without connecting', async () => {
    const user = await signedInUser(ctx.server.url, 'Attacker');
    const hitsBefore = [...site.hits.values()].reduce((a, b) => a + b, 0);
    const targets = [
      `${site.origin}/secret`,
      'http://127.0.0.1/secret',
      `http://localhost:${site.port}/secret`,
      'http://localhost/secret',
      `http://[::1]:${site.port}/secret`,
      'http://[::1]/secret',
      'http://[::ffff:127.0.0.1]/secret',
      'http://10.0.0.1/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://0.0.0.0/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://metadata.google.internal/computeMetadata/v1/',
    ];
    for (const target of targets) {
      const err = await failure(user.api.preview(target));
      // IPv6 literals already fail URL normalisation (no dot in the host).
      const message = target.includes('[') ? LINK_MESSAGES.onlyHttpUrls : LINK_MESSAGES.previewRefused;
      expect([target, err.status, err.message]).toEqual([target, 400, message]);
    }
    expect([...site.hits.values()].reduce((a, b) => a + b, 0)).toBe(hitsBefore);
    const rows = await sql<{ n: number }>`select count(*) as n from link_previews`.execute(ctx.server.db.kysely);
    expect(Number(rows.rows[0]?.n)).toBe(0);
  });

  it('refuses, through the preview service, a redirect from an allowed site to 169.254.169.254', async () => {
    const previews = createPreviewService({
      db: ctx.server.db,
      allowPrivate: false,
      timeoutMs: 2000,
      publicUrl: ctx.server.url,
      policy: exempt('public.test'),
      resolve: resolver({ 'public.test': '127.0.0.1' }),
    });
    const before = site.hits.get('/redirect-to') ?? 0;
    const target = encodeURIComponent('http://169.254.169.254/latest/meta-data/');
    const start = `http://public.test:${site.port}/redirect-to?to=${target}`;
    await expect(previews.get(start)).rejects.toBeInstanceOf(PreviewRefusedError);
    expect(site.hits.get('/redirect-to')).toBe(before + 1);
  });
});

describe('safe fetch: every hop is vetted', () => {
  const options = (over: Partial<SafeFetchOptions>): SafeFetchOptions => ({
    policy: publicOnly,
    resolve: resolver({ 'public.test': '127.0.0.1', 'sneaky.test': '127.0.0.1' }),
    timeoutMs: 2000,
    maxBytes: MB,
    maxRedirects: 5,
    headers: { 'user-agent': 'test' },
    ...over,
  });

  it('refuses a redirect from an allowed site to internal addresses, before connecting', async () => {
    const targets = [
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      `http://127.0.0.1:${site.port}/secret`,
      'http://127.0.0.1/secret',
      `http://localhost:${site.port}/secret`,
      `http://[::1]:${site.port}/secret`,
      'http://[::ffff:7f00:1]/secret',
      'http://10.0.0.1/',
      'http://0.0.0.0/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://sneaky.test/secret',
      'gopher://127.0.0.1:6379/_INFO',
    ];
    for (const target of targets) {
      const before = site.hits.get('/redirect-to') ?? 0;
      const start = `http://public.test:${site.port}/redirect-to?to=${encodeURIComponent(target)}`;
      await expect(safeFetch(start, options({ policy: exempt('public.test') })), target).rejects.toBeInstanceOf(
        FetchRefusedError,
      );
      expect(site.hits.get('/redirect-to')).toBe(before + 1);
    }
    expect(site.hits.get('/secret') ?? 0).toBe(0);
  });

  it('connects to the vetted address, never asking DNS again, with Host kept as the name', async () => {
    const calls: string[] = [];
    const page = await safeFetch(`http://rebind.test:${site.port}/og`, {
      ...options({ policy: anyAddress, resolve: resolver({ 'rebind.test': '127.0.0.1' }, calls) }),
    });
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('OG title');
    expect(calls).toEqual(['rebind.test']);
    expect(site.headers.get('/og')?.host).toBe(`rebind.test:${site.port}`);
  });

  it('vets and resolves every hop of a redirect chain', async () => {
    const calls: string[] = [];
    const page = await safeFetch(
      `http://public.test:${site.port}/redirect-to?to=${encodeURIComponent(`http://other.test:${site.port}/r/2`)}`,
      options({ policy: anyAddress, resolve: resolver({ 'public.test': '127.0.0.1', 'other.test': '127.0.0.1' }, calls) }),
    );
    expect(page.url.href).toBe(`http://other.test:${site.port}/og`);
    expect(calls).toEqual(['public.test', ...Array(4).fill('other.test')]);
  });

  it('refuses non-default ports in production', async () => {
    await expect(safeFetch(`http://public.test:${site.port}/og`, options({}))).rejects.toBeInstanceOf(
      FetchRefusedError,
    );
  });
});
