import http from 'node:http';
import { type Kysely, sql } from 'kysely';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DAY_MS, LINK_CHECK_HOST_SPACING_MS, type Link } from '../../shared/domain';
import * as linkHealthMigration from '../../server/db/migrations/0016_link_health';
import { type LinkCheckDeps, createLinkFetcher, runLinkCheckRound } from '../../server/services/link-checks';
import { makeNewLinkJobs } from '../../server/services/new-link-jobs';
import { failure, signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { createCollection } from '../support/supercurations';

/**
 * The link checker against real HTTP on loopback, with injected time: the worker is off
 * (LINK_CHECK_PER_MINUTE 0), and each test runs the rounds itself at set times. Hosts are names
 * (`*.test`) that the checker's resolver sends to 127.0.0.1; any other name has no address.
 * In the solo project: its 100,000-link test runs 336 claim rounds against PostgreSQL, 20-30 s on
 * an idle machine, and past its 300 s beside the browsers of the end-to-end tests (CI, stop 34).
 */

/** What a path of the fixture site answers; changed by the tests as they go. */
type Answer = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const answers = new Map<string, Answer>();
/** Each request the site received: its host, method, path and the round's (injected) time. */
const requests: { host: string; method: string; path: string; at: number }[] = [];
let clock = 0;
let server: http.Server;
let port = 0;

const status =
  (code: number, headers: Record<string, string> = {}): Answer =>
  (_req, res) =>
    res.writeHead(code, headers).end();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({ host: (req.headers.host ?? '').split(':')[0] as string, method: req.method ?? '', path: url.pathname, at: clock });
    (answers.get(url.pathname) ?? status(200))(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(
  () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
);

const fetcher = createLinkFetcher({
  allowPrivate: true,
  timeoutMs: 5000,
  publicUrl: 'http://127.0.0.1',
  resolve: async (host) => {
    if (host.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  },
});

const DAYS_AHEAD = 8 * DAY_MS;

describeEachDatabase('link health: checks of saved links, broken links and what curators do with them', (ctx) => {
  const deps = (perMinute = 6000): LinkCheckDeps => ({ db: ctx.server.db, fetcher, perMinute, random: () => 0 });
  /** A round at `ms` (from now); the site records that time for the requests it receives. */
  const roundAt = async (ms: number) => {
    clock = ms;
    return runLinkCheckRound(deps(), new Date(Date.now() + ms));
  };
  const checkOf = (id: string) =>
    ctx.server.db.kysely.selectFrom('link_checks').select(['due_at', 'failures', 'last_result', 'method', 'marked_fine']).where('link_id', '=', id).executeTakeFirstOrThrow();
  /** Makes the link's check due at `ms` from now, alone (other links' checks are moved far away). */
  async function dueAlone(id: string, ms: number) {
    const far = new Date(Date.now() + 1000 * DAY_MS).toISOString();
    await ctx.server.db.kysely.updateTable('link_checks').set({ due_at: far }).where('link_id', '!=', id).execute();
    await ctx.server.db.kysely.updateTable('link_checks').set({ due_at: new Date(Date.now() + ms).toISOString() }).where('link_id', '=', id).execute();
  }
  /** Shares a link; its check is then queued, as the server's worker does within a moment. */
  const shareAt = async (user: Awaited<ReturnType<typeof signedInUser>>, url: string, supercurationIds?: string[]) => {
    const link = await user.api.createLink({ url, title: `Page at ${url}`, description: 'Worth reading', ...(supercurationIds ? { supercurationIds } : {}) });
    await makeNewLinkJobs(ctx.server.db);
    return link;
  };

  it('a page gone twice a day apart is broken: badge, count, filter and feeds; it clears when the page is back', async () => {
    const user = await signedInUser(ctx.server.url);
    const collection = await createCollection(user, { isPublic: true });
    const seenBefore = requests.length;
    answers.set('/gone', status(404));
    const link = await shareAt(user, `http://gone.test:${port}/gone`, [collection.id]);
    // Its first check is due within the week.
    const first = Date.parse((await checkOf(link.id)).due_at);
    expect(first).toBeGreaterThanOrEqual(Date.now() - 60_000);
    expect(first).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS);
    await dueAlone(link.id, DAYS_AHEAD);

    // HEAD answers 404: asked again with GET a second later (a HEAD answer is not trusted).
    expect(await roundAt(DAYS_AHEAD)).toBe(1);
    expect(await checkOf(link.id)).toMatchObject({ method: 'GET', failures: 0 });
    expect(await roundAt(DAYS_AHEAD + LINK_CHECK_HOST_SPACING_MS / 2)).toBe(0);
    expect(await roundAt(DAYS_AHEAD + 1.5 * LINK_CHECK_HOST_SPACING_MS)).toBe(1);
    expect(await checkOf(link.id)).toMatchObject({ failures: 1, last_result: '404' });
    expect((await user.api.getLink(link.id)).broken).toBe(false);
    // Not again before a day has passed; then broken.
    expect(await roundAt(DAYS_AHEAD + DAY_MS / 2)).toBe(0);
    expect(await roundAt(DAYS_AHEAD + DAY_MS + 2000)).toBe(1);
    expect(requests.slice(seenBefore).filter((r) => r.host === 'gone.test').map((r) => r.method)).toEqual(['HEAD', 'GET', 'GET']);

    const brokenLink = await user.api.getLink(link.id);
    expect(brokenLink.broken).toBe(true);
    expect(await user.api.brokenLinkCount()).toEqual({ count: 1 });
    expect(await user.api.supercurationBrokenCount(collection.id)).toEqual({ count: 1 });
    expect((await user.api.listLinks({ broken: '1' })).items.map((l: Link) => l.id)).toEqual([link.id]);
    expect((await user.api.listResources(collection.id, { broken: '1' })).items.map((l: Link) => l.id)).toEqual([link.id]);
    // Visitors see the badge too; the feeds leave the link out.
    const visitorView = (await (await fetch(`${ctx.server.url}/api/links/${link.id}`)).json()) as Link;
    expect(visitorView.broken).toBe(true);
    const rss = await (await fetch(`${ctx.server.url}/users/${user.me.id}/feed.xml`)).text();
    const collectionRss = await (await fetch(`${ctx.server.url}/supercurations/public/${collection.slug}/feed.xml`)).text();
    expect(rss).not.toContain('/gone');
    expect(collectionRss).not.toContain('/gone');

    // Back: the next check (weekly once broken) clears it.
    answers.set('/gone', status(200));
    const due = Date.parse((await checkOf(link.id)).due_at) - Date.now();
    expect(due).toBeGreaterThan(DAYS_AHEAD + DAY_MS + 6 * DAY_MS);
    expect(await roundAt(due + 1000)).toBe(1);
    expect((await user.api.getLink(link.id)).broken).toBe(false);
    expect(await user.api.brokenLinkCount()).toEqual({ count: 0 });
    expect(await fetch(`${ctx.server.url}/users/${user.me.id}/feed.xml`).then((r) => r.text())).toContain('/gone');
  });

  it('a server failing (5xx, timeout, refused connection) counts only at the third failure', async () => {
    const user = await signedInUser(ctx.server.url);
    answers.set('/down', status(500));
    const link = await shareAt(user, `http://down.test:${port}/down`);
    await ctx.server.db.kysely.updateTable('link_checks').set({ method: 'GET' }).where('link_id', '=', link.id).execute();
    await dueAlone(link.id, DAYS_AHEAD);
    const states: boolean[] = [];
    for (let day = 0; day < 3; day++) {
      expect(await roundAt(DAYS_AHEAD + day * (DAY_MS + 60_000))).toBe(1);
      states.push((await user.api.getLink(link.id)).broken);
    }
    expect(states).toEqual([false, false, true]);
  });

  it('no DNS name, a TLS failure and a redirect to the home page are dead answers; a page that moved is fine', async () => {
    const user = await signedInUser(ctx.server.url);
    answers.set('/old-article', status(301, { location: '/' }));
    answers.set('/moved', status(301, { location: '/new-place' }));
    const cases = {
      dns: await shareAt(user, 'http://nowhere.invalid/page'),
      // TLS spoken to a server that speaks plain HTTP: the handshake fails.
      tls: await shareAt(user, `https://tls.test:${port}/page`),
      home: await shareAt(user, `http://home.test:${port}/old-article`),
      moved: await shareAt(user, `http://moved.test:${port}/moved`),
    };
    const far = new Date(Date.now() + 1000 * DAY_MS).toISOString();
    await ctx.server.db.kysely.updateTable('link_checks').set({ due_at: far }).execute();
    await ctx.server.db.kysely
      .updateTable('link_checks')
      .set({ due_at: new Date(Date.now() + DAYS_AHEAD).toISOString() })
      .where('link_id', 'in', Object.values(cases).map((l) => l.id))
      .execute();
    expect(await roundAt(DAYS_AHEAD)).toBe(4);
    const results = Object.fromEntries(await Promise.all(Object.entries(cases).map(async ([name, l]) => [name, (await checkOf(l.id)).last_result])));
    expect(results).toEqual({ dns: 'dns', tls: 'tls', home: 'home', moved: 'ok' });
    expect(await roundAt(DAYS_AHEAD + DAY_MS + 1000)).toBe(3);
    const broken = await Promise.all(Object.values(cases).map(async (l) => (await user.api.getLink(l.id)).broken));
    expect(broken).toEqual([true, true, true, false]);
  });

  it('a site that refuses HEAD is asked with GET from then on; 401 or 403 counts nothing', async () => {
    const user = await signedInUser(ctx.server.url);
    answers.set('/no-head', (req, res) => res.writeHead(req.method === 'HEAD' ? 405 : 200).end());
    answers.set('/private', status(403));
    const noHead = await shareAt(user, `http://nohead.test:${port}/no-head`);
    const secret = await shareAt(user, `http://private.test:${port}/private`);
    await dueAlone(noHead.id, DAYS_AHEAD);
    await ctx.server.db.kysely.updateTable('link_checks').set({ due_at: new Date(Date.now() + DAYS_AHEAD).toISOString(), method: 'GET' }).where('link_id', '=', secret.id).execute();
    expect(await roundAt(DAYS_AHEAD)).toBe(2);
    expect(await roundAt(DAYS_AHEAD + 1500)).toBe(1);
    expect(await checkOf(noHead.id)).toMatchObject({ method: 'GET', last_result: 'ok', failures: 0 });
    expect(await checkOf(secret.id)).toMatchObject({ last_result: '403', failures: 0 });
  });

  it('honours Retry-After: the host is left alone until then, and nothing is counted', async () => {
    const user = await signedInUser(ctx.server.url);
    answers.set('/busy', status(429, { 'retry-after': '120' }));
    const busy = await shareAt(user, `http://busy.test:${port}/busy`);
    const other = await shareAt(user, `http://busy.test:${port}/other`);
    await dueAlone(busy.id, DAYS_AHEAD);
    expect(await roundAt(DAYS_AHEAD)).toBe(1);
    expect(await checkOf(busy.id)).toMatchObject({ last_result: '429', failures: 0 });
    await ctx.server.db.kysely.updateTable('link_checks').set({ due_at: new Date(Date.now() + DAYS_AHEAD).toISOString() }).where('link_id', '=', other.id).execute();
    expect(await roundAt(DAYS_AHEAD + 60_000)).toBe(0);
    answers.set('/busy', status(200));
    expect(await roundAt(DAYS_AHEAD + 121_000)).toBe(1);
    expect(await roundAt(DAYS_AHEAD + 122_500)).toBe(1);
    expect((await checkOf(busy.id)).last_result).toBe('ok');
  });

  it('"Mark as fine" clears the badge and counts no failure until the page has worked again; a new URL starts over', async () => {
    const owner = await signedInUser(ctx.server.url);
    const collection = await createCollection(owner, { isPublic: false });
    answers.set('/fine', status(410));
    const link = await shareAt(owner, `http://fine.test:${port}/fine`, [collection.id]);
    await ctx.server.db.kysely.updateTable('link_checks').set({ method: 'GET' }).where('link_id', '=', link.id).execute();
    await dueAlone(link.id, DAYS_AHEAD);
    await roundAt(DAYS_AHEAD);
    await roundAt(DAYS_AHEAD + DAY_MS + 1000);
    expect((await owner.api.getLink(link.id)).broken).toBe(true);

    // Only who may edit the link marks it fine (others see it in the main feed: 403).
    const stranger = await signedInUser(ctx.server.url);
    expect((await failure(stranger.api.markLinkFine(link.id))).status).toBe(403);
    await owner.api.markLinkFine(link.id);
    expect((await owner.api.getLink(link.id)).broken).toBe(false);
    expect(await owner.api.supercurationBrokenCount(collection.id)).toEqual({ count: 0 });
    await dueAlone(link.id, 20 * DAY_MS);
    await roundAt(20 * DAY_MS);
    await dueAlone(link.id, 22 * DAY_MS);
    await roundAt(22 * DAY_MS);
    expect(await checkOf(link.id)).toMatchObject({ failures: 0, marked_fine: 1 });
    expect((await owner.api.getLink(link.id)).broken).toBe(false);

    // Broken again, then the curator edits the URL: the new page is checked at once, from scratch.
    await ctx.server.db.kysely.updateTable('links').set({ broken_at: new Date().toISOString() }).where('id', '=', link.id).execute();
    const edited = await owner.api.updateLink(link.id, { url: `http://fine.test:${port}/new-home` });
    expect(edited.broken).toBe(false);
    const check = await checkOf(link.id);
    expect(check).toMatchObject({ failures: 0, marked_fine: 0, method: 'HEAD', last_result: null });
    expect(Date.parse(check.due_at)).toBeLessThanOrEqual(Date.now());
  });

  it('an upgrade gives every link saved before a first check within the coming week', async () => {
    const db = ctx.server.db.kysely;
    const owner = await signedInUser(ctx.server.url);
    await shareAt(owner, `http://upgrade.test:${port}/one`);
    await owner.api.createLink({ title: 'No URL', description: 'A thought' });
    const withUrl = await db.selectFrom('links').select('id').where('url', 'is not', null).orderBy('id').execute();
    await linkHealthMigration.down(db as Kysely<unknown>);
    const before = Date.now();
    await linkHealthMigration.up(db as Kysely<unknown>);
    const checks = await db.selectFrom('link_checks').select(['link_id', 'due_at', 'failures']).orderBy('link_id').execute();
    expect(checks.map((c) => c.link_id)).toEqual(withUrl.map((l) => l.id));
    for (const c of checks) {
      expect(Date.parse(c.due_at)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(c.due_at)).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS);
      expect(c.failures).toBe(0);
    }
  });

  it("one site's backlog does not hold up the others: its checks wait their turns at that site", async () => {
    const db = ctx.server.db.kysely;
    await db.updateTable('link_checks').set({ due_at: new Date(Date.now() + 1000 * DAY_MS).toISOString() }).execute();
    const owner = await signedInUser(ctx.server.url);
    const start = Date.now() + 200 * DAY_MS;
    const created = new Date().toISOString();
    const rows = [
      ...Array.from({ length: 3000 }, (_, i) => ({ id: `big${i}`, host: 'big.test', at: start })),
      // Due a moment after all of the big site's: behind them in the queue.
      ...Array.from({ length: 5 }, (_, i) => ({ id: `small${i}`, host: `small${i}.test`, at: start + 1 })),
    ];
    for (let i = 0; i < rows.length; i += 500) {
      const part = rows.slice(i, i + 500);
      await db
        .insertInto('links')
        .values(part.map((r) => ({ id: r.id, user_id: owner.me.id, url: `http://${r.host}:${port}/backlog/${r.id}`, title: 'T', description: 'D', link_text: 'Visit Link', created_at: created, updated_at: created })))
        .execute();
      await db.insertInto('link_checks').values(part.map((r) => ({ link_id: r.id, host: r.host, due_at: new Date(r.at).toISOString(), method: 'GET' }))).execute();
    }
    const before = requests.length;
    for (let ms = 10; ms < 3000; ms += 250) await runLinkCheckRound(deps(), new Date(start + ms));
    const hosts = requests.slice(before).map((r) => r.host);
    expect(new Set(hosts.filter((h) => h.startsWith('small')))).toEqual(new Set(['small0.test', 'small1.test', 'small2.test', 'small3.test', 'small4.test']));
    expect(hosts.filter((h) => h === 'big.test').length).toBeLessThanOrEqual(3);
  });

  it('over 100,000 links on 50 hosts, two processes claiming together: one request a second per host, LINK_CHECK_PER_MINUTE, each link once', async () => {
    const db = ctx.server.db.kysely;
    await db.updateTable('link_checks').set({ due_at: new Date(Date.now() + 1000 * DAY_MS).toISOString() }).execute();
    const owner = await signedInUser(ctx.server.url);
    // 20 s before a minute starts (the budget's minutes are the clock's): the rounds see two minutes.
    const start = Math.ceil((Date.now() + 100 * DAY_MS) / 60_000) * 60_000 - 20_000;
    const created = new Date().toISOString();
    // One statement each (a recursive count), as bulk as the bench's data.
    const numbers = sql`with recursive n(i) as (select 0 union all select i + 1 from n where i < 99999)`;
    await sql`insert into links (id, user_id, url, title, description, link_text, created_at, updated_at)
      ${numbers} select 'bulk' || i, ${owner.me.id}, 'http://h' || (i % 50) || '.test:' || ${String(port)} || '/bulk/' || i, 'Bulk', 'Bulk', 'Visit Link', ${created}, ${created} from n`.execute(db);
    // PostgreSQL keeps a connection's plan of a foreign key's check: planned while `links` held a
    // dozen rows, it can be a scan of the table, and 100,000 checks would each scan 100,000 rows
    // (one CI run hung here). New statistics make it plan again.
    if (ctx.server.db.dialect === 'postgres') await sql`analyze links`.execute(db);
    await sql`insert into link_checks (link_id, host, due_at, method)
      ${numbers} select 'bulk' || i, 'h' || (i % 50) || '.test', ${new Date(start).toISOString()}, 'GET' from n`.execute(db);
    const perMinute = 300;
    const before = requests.length;
    // 42 s of rounds, every 250 ms, by two processes at once; the site notes each request's ms.
    for (let ms = 0; ms < 42_000; ms += 250) {
      clock = ms;
      const now = new Date(start + ms);
      await Promise.all([runLinkCheckRound({ ...deps(perMinute), random: Math.random }, now), runLinkCheckRound({ ...deps(perMinute), random: Math.random }, now)]);
    }
    const bulk = requests.slice(before).filter((r) => r.path.startsWith('/bulk/'));
    const perHostSecond = new Map<string, number>();
    const perMinuteSeen = new Map<number, number>();
    for (const r of bulk) {
      const second = Math.floor(r.at / 1000);
      perHostSecond.set(`${r.host} ${second}`, (perHostSecond.get(`${r.host} ${second}`) ?? 0) + 1);
      const minute = Math.floor((second - 20) / 60);
      perMinuteSeen.set(minute, (perMinuteSeen.get(minute) ?? 0) + 1);
    }
    expect(Math.max(...perHostSecond.values())).toBe(1);
    // 50 hosts (each asked a second after its last answer ended) spend a minute's 300 within 20 s; the next minute, 300 more.
    expect([...perMinuteSeen.values()]).toEqual([perMinute, perMinute]);
    expect(new Set(bulk.map((r) => r.path)).size).toBe(bulk.length);
  }, 300_000);
});
