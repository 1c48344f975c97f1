import { afterAll, beforeAll, expect, it } from 'vitest';
import { LINK_MESSAGES, READABLE_MESSAGES, type ReadableCopySettings, type ReadableCopyView } from '../../shared/domain';
import { createExtractor } from '../../server/readable/extractor';
import { COPY_FAILURES, READABLE_MAX_ATTEMPTS, createPageFetcher, runReadableCopyRound } from '../../server/services/readable-copy-worker';
import { makeNewLinkJobs } from '../../server/services/new-link-jobs';
import { signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { type ImageSite, sitePage, startImageSite } from '../support/image-site';
import { createCollection } from '../support/supercurations';

/**
 * Readable copies (issue 23): the background maker fetches each saved page from a site on
 * 127.0.0.1, keeps its article sanitised and compressed, and only the link's author and the editors
 * of its collections may read it. The extension's copy of what the user saw is kept as sent, after
 * the same sanitiser. Rounds run here at set times, one page per host each (the server's own maker
 * is off in tests).
 */

let site: ImageSite;

const ARTICLE = `<!doctype html><html lang="en-GB"><head><title>Vents</title><script>window.__xss = 1</script></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Photosynthesis near hydrothermal vents</h1>
<p>Green sulfur bacteria harvest the faint geothermal glow of black smokers. ${'They live two kilometres down, where no sunlight reaches. '.repeat(12)}</p>
<p onmouseover="window.__xss = 2">A second paragraph with <a href="/paper">the paper</a>, <a href="javascript:alert(1)">a trap</a>
and a picture <img src="/glow.png" onerror="window.__xss = 3" alt="The glow">.</p>
<iframe src="https://evil.invalid/"></iframe><form action="/steal"><input name="x"></form>
<p style="position:fixed">${'Chlorobium lives on hydrogen sulfide and very little light. '.repeat(10)}</p></article>
<footer>Footer text</footer></body></html>`;

beforeAll(async () => {
  site = await startImageSite(
    {
      '/article': sitePage('text/html; charset=utf-8', ARTICLE),
      '/moved': sitePage('text/html; charset=utf-8', ARTICLE.replace(/Photosynthesis near hydrothermal vents/g, 'A moved article')),
      '/image.png': sitePage('image/png', Buffer.from('not really')),
      '/flaky': (res) => res.writeHead(503, { 'content-type': 'text/plain' }).end('busy'),
    },
    (res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>'),
  );
});

// The extractor's thread, as the server runs it.
const extractor = createExtractor();

afterAll(async () => {
  await site.close();
  await extractor.close();
});

type Client = Awaited<ReturnType<typeof signedInUser>> | ReturnType<typeof testClient>;

async function copyOf(client: Client, baseUrl: string, linkId: string): Promise<{ status: number; body: ReadableCopyView }> {
  const res = await client.fetch(`${baseUrl}/api/links/${linkId}/copy`);
  return { status: res.status, body: (await res.json()) as ReadableCopyView };
}

async function settingsOf(client: Client, baseUrl: string, keep?: unknown): Promise<{ status: number; body: ReadableCopySettings & { error?: string } }> {
  const res = await client.fetch(`${baseUrl}/api/me/readable-copies`, {
    method: keep === undefined ? 'GET' : 'PUT',
    ...(keep === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ keep }) }),
  });
  return { status: res.status, body: (await res.json()) as ReadableCopySettings & { error?: string } };
}

describeEachDatabase('readable copies', (ctx) => {
  let clock = Date.now();
  /** Rounds a (simulated) second apart until no copy is due, at most `max`. */
  async function drain(max = 10): Promise<void> {
    const deps = {
      db: ctx.server.db,
      fetchPage: createPageFetcher({ allowPrivate: true, timeoutMs: 5000, publicUrl: ctx.server.url }),
      extractor,
      perMinute: 1000,
    };
    // The server's worker queues new links' copies within a moment; here at once.
    await makeNewLinkJobs(ctx.server.db);
    for (let round = 0; round < max; round++) {
      clock = Math.max(clock, Date.now()) + 1100;
      if ((await runReadableCopyRound(deps, new Date(clock))) === 0) return;
    }
  }
  const row = (linkId: string) =>
    ctx.server.db.kysely.selectFrom('link_copies').select(['due_at', 'failure', 'source', 'attempts', 'queue']).where('link_id', '=', linkId).executeTakeFirst();

  it('keeps a sanitised copy of a saved page, readable by its author and its collections’ editors only', async () => {
    const author = await signedInUser(ctx.server.url);
    const collaborator = await signedInUser(ctx.server.url);
    const stranger = await signedInUser(ctx.server.url);
    const collection = await createCollection(author);
    await author.api.addCollaborator(collection.id, collaborator.me.id);
    const link = await author.api.createLink({ url: `${site.origin}/article`, title: 'Vents', description: 'Deep life', supercurationIds: [collection.id] });
    expect((await copyOf(author, ctx.server.url, link.id)).body.state).toBe('pending');

    const found = async (client: typeof author, q: string) => (await client.api.search({ q })).items.map((hit) => hit.link.id);
    expect(await found(author, 'Chlorobium')).toEqual([]);
    await drain();
    // The copy's text is searchable from then on, by whoever may read it.
    expect(await found(author, 'Chlorobium')).toEqual([link.id]);
    expect(await found(collaborator, 'Chlorobium')).toEqual([link.id]);
    expect(await found(stranger, 'Chlorobium')).toEqual([]);
    const { status, body } = await copyOf(author, ctx.server.url, link.id);
    expect(status).toBe(200);
    expect(body).toMatchObject({ state: 'kept', source: 'server', lang: 'en-GB', title: 'Vents', url: `${site.origin}/article`, failure: null });
    expect(body.wordCount).toBeGreaterThan(150);
    expect(body.readingMinutes).toBeGreaterThanOrEqual(1);
    expect(body.html).toContain('Green sulfur bacteria harvest');
    expect(body.html).toContain(`<a href="${site.origin}/paper" rel="noopener noreferrer nofollow">the paper</a>`);
    expect(body.html).toContain(`src="/api/images/proxy?url=${encodeURIComponent(`${site.origin}/glow.png`)}"`);
    for (const banned of ['<script', 'onerror', 'onmouseover', 'javascript:', '<iframe', '<form', '<input', 'style=', '__xss', 'Footer text']) {
      expect(body.html).not.toContain(banned);
    }
    expect((await copyOf(collaborator, ctx.server.url, link.id)).status).toBe(200);
    for (const other of [stranger, testClient(ctx.server.url)]) {
      const denied = await copyOf(other, ctx.server.url, link.id);
      expect([denied.status, (denied.body as unknown as { error: string }).error]).toEqual([404, LINK_MESSAGES.linkNotFound]);
    }
    // Deleting the link deletes its copy.
    await author.api.deleteLink(link.id);
    expect(await row(link.id)).toBeUndefined();
  });

  it("keeps the extension's copy of what the user saw, sanitised, without fetching the page", async () => {
    const author = await signedInUser(ctx.server.url);
    const asked = site.hits.get('/members-only') ?? 0;
    const html = '<h2>Members only</h2><p>Paywalled words the server could never read.</p><img src="data:image/png;base64,AAAA" onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">x</a>';
    const res = await author.fetch(`${ctx.server.url}/api/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.origin}/members-only`, title: 'Members', description: 'Behind a wall', readable: { html, lang: 'fr' } }),
    });
    expect(res.status).toBe(201);
    const link = (await res.json()) as { id: string };
    await drain();
    expect(site.hits.get('/members-only') ?? 0).toBe(asked);
    const { body } = await copyOf(author, ctx.server.url, link.id);
    expect(body).toMatchObject({ state: 'kept', source: 'extension', lang: 'fr', wordCount: 10 });
    expect(body.html).toContain('Paywalled words the server could never read.');
    expect((await author.api.search({ q: 'paywalled' })).items.map((hit) => hit.link.id)).toEqual([link.id]);
    for (const banned of ['<script', 'onerror', 'javascript:', 'alert']) expect(body.html).not.toContain(banned);
    // An image that is not at an http(s) address goes.
    expect(body.html).not.toContain('<img');
  });

  it('refuses a copy over the limit with a clear 400, writing nothing', async () => {
    const author = await signedInUser(ctx.server.url);
    const res = await author.fetch(`${ctx.server.url}/api/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.origin}/huge`, title: 'Huge', description: 'd', readable: { html: `<p>${'a'.repeat(2_000_001)}</p>` } }),
    });
    expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([400, READABLE_MESSAGES.tooLarge]);
    expect((await author.api.listLinks({ scope: 'mine' })).items).toEqual([]);
  });

  it('a new URL replaces the copy; a page that is gone or not HTML is given up, a failing one retried', async () => {
    const author = await signedInUser(ctx.server.url);
    const link = await author.api.createLink({ url: `${site.origin}/article?v=2`, title: 'Vents', description: 'd' });
    await drain();
    expect((await copyOf(author, ctx.server.url, link.id)).body.state).toBe('kept');
    await author.api.updateLink(link.id, { url: `${site.origin}/moved` });
    expect((await copyOf(author, ctx.server.url, link.id)).body).toMatchObject({ state: 'pending', html: null });
    await drain();
    expect((await copyOf(author, ctx.server.url, link.id)).body.html).toContain('A moved article');

    const gone = await author.api.createLink({ url: `${site.origin}/gone`, title: 'Gone', description: 'd' });
    const image = await author.api.createLink({ url: `${site.origin}/image.png`, title: 'Image', description: 'd' });
    const flaky = await author.api.createLink({ url: `${site.origin}/flaky`, title: 'Flaky', description: 'd' });
    await drain();
    expect((await copyOf(author, ctx.server.url, gone.id)).body).toMatchObject({ state: 'unavailable', failure: COPY_FAILURES.unreachable });
    expect((await copyOf(author, ctx.server.url, image.id)).body).toMatchObject({ state: 'unavailable', failure: COPY_FAILURES.notHtml });
    // A 503 is tried again later (READABLE_RETRY_MS), READABLE_MAX_ATTEMPTS times in all.
    expect(await row(flaky.id)).toMatchObject({ attempts: 1, failure: null });
    expect((await copyOf(author, ctx.server.url, flaky.id)).body.state).toBe('pending');
    for (let attempt = 2; attempt <= READABLE_MAX_ATTEMPTS; attempt++) {
      clock += 31 * 60_000;
      await ctx.server.db.kysely.updateTable('link_copies').set({ due_at: new Date(clock).toISOString() }).where('link_id', '=', flaky.id).execute();
      await drain();
    }
    expect(await row(flaky.id)).toMatchObject({ attempts: READABLE_MAX_ATTEMPTS, due_at: null, failure: COPY_FAILURES.unreachable });
  });

  it('the setting: on by default with progress; off deletes the copies and keeps no new ones; on queues them again', async () => {
    const author = await signedInUser(ctx.server.url);
    expect((await settingsOf(testClient(ctx.server.url), ctx.server.url)).status).toBe(401);
    const first = await author.api.createLink({ url: `${site.origin}/article?v=3`, title: 'A', description: 'd' });
    await author.api.createLink({ title: 'No URL', description: 'A note' });
    expect((await settingsOf(author, ctx.server.url)).body).toEqual({ keep: true, total: 1, kept: 0, waiting: 1 });
    await drain();
    expect((await settingsOf(author, ctx.server.url)).body).toEqual({ keep: true, total: 1, kept: 1, waiting: 0 });

    const bad = await settingsOf(author, ctx.server.url, 'yes');
    expect([bad.status, bad.body.error]).toEqual([400, READABLE_MESSAGES.invalidSetting]);
    expect((await settingsOf(author, ctx.server.url, false)).body).toEqual({ keep: false, total: 1, kept: 0, waiting: 0 });
    expect(await row(first.id)).toBeUndefined();
    expect((await copyOf(author, ctx.server.url, first.id)).body.state).toBe('off');
    // The deleted copy's text is no longer searched.
    expect((await author.api.search({ q: 'Chlorobium' })).items).toEqual([]);
    const second = await author.api.createLink({ url: `${site.origin}/article?v=4`, title: 'B', description: 'd' });
    await makeNewLinkJobs(ctx.server.db);
    expect(await row(second.id)).toBeUndefined();

    // Back on: every link with a URL waits behind new links (the backfill's queue).
    expect((await settingsOf(author, ctx.server.url, true)).body).toEqual({ keep: true, total: 2, kept: 0, waiting: 2 });
    expect(await row(second.id)).toMatchObject({ queue: 1 });
    await drain();
    expect((await settingsOf(author, ctx.server.url)).body).toMatchObject({ kept: 2, waiting: 0 });
  });

  it('puts the copies in the account export', async () => {
    const author = await signedInUser(ctx.server.url);
    const link = await author.api.createLink({ url: `${site.origin}/article?v=5`, title: 'A', description: 'd' });
    await drain();
    const res = await author.fetch(`${ctx.server.url}/api/me/export`);
    const data = (await res.json()) as { keepReadableCopies: boolean; links: { id: string }[]; readableCopies: { linkId: string; html: string; source: string }[] };
    expect(data.links.map((l) => l.id)).toEqual([link.id]);
    expect(data.keepReadableCopies).toBe(true);
    expect(data.readableCopies).toHaveLength(1);
    expect(data.readableCopies[0]).toMatchObject({ linkId: link.id, source: 'server' });
    expect(data.readableCopies[0]?.html).toContain('Green sulfur bacteria');
  });

  it('two makers racing claim each copy once', async () => {
    const author = await signedInUser(ctx.server.url);
    await author.api.createLink({ url: `${site.origin}/article?v=6`, title: 'A', description: 'd' });
    const asked = site.hits.get('/article') ?? 0;
    const deps = { db: ctx.server.db, fetchPage: createPageFetcher({ allowPrivate: true, timeoutMs: 5000, publicUrl: ctx.server.url }), extractor, perMinute: 1000 };
    await makeNewLinkJobs(ctx.server.db);
    clock = Math.max(clock, Date.now()) + 1100;
    const claimed = await Promise.all([runReadableCopyRound(deps, new Date(clock)), runReadableCopyRound(deps, new Date(clock))]);
    expect(claimed.sort()).toEqual([0, 1]);
    expect(site.hits.get('/article')).toBe(asked + 1);
  });
});

