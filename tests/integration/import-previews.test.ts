import { afterAll, beforeAll, expect, it } from 'vitest';
import { IMPORTED_BOOKMARK_DESCRIPTION } from '../../shared/domain';
import { PREVIEW_HOST_SPACING_MS, PREVIEW_RETRY_MS, claimPreviewJobs } from '../../server/services/import-previews';
import { failure, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { type ImageSite, sitePage, startImageSite } from '../support/image-site';

/**
 * Imported links' previews, fetched afterwards by the background worker from pages on 127.0.0.1
 * (and `localhost`, a second host), with PREVIEW_ALLOW_PRIVATE.
 */

let site: ImageSite;

const page = (title: string, description: string, image: string) =>
  `<!doctype html><html><head><title>${title}</title><meta property="og:description" content="${description}"><meta property="og:image" content="${image}"></head><body></body></html>`;

beforeAll(async () => {
  const pages: Record<string, ReturnType<typeof sitePage>> = {};
  for (let i = 0; i < 3; i++) pages[`/page/${i}`] = sitePage('text/html; charset=utf-8', page(`Page ${i} from its site`, `What page ${i} is about.`, `/images/${i}.png`));
  site = await startImageSite(pages, (res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('gone'));
});

afterAll(() => site.close());

/** A Netscape file of these bookmarks (no TITLE text: the file gives none). */
const bookmarksFile = (marks: { url: string; title?: string; description?: string }[]) =>
  `<DL><p><DT><H3>Imported</H3><DL><p>\n${marks
    .map((m) => `<DT><A HREF="${m.url}" ADD_DATE="1700000000">${m.title ?? ''}</A>${m.description ? `\n<DD>${m.description}` : ''}`)
    .join('\n')}\n</DL><p></DL><p>`;

describeEachDatabase(
  'previews of imported links, fetched in the background',
  (ctx) => {
    const db = () => ctx.server.db.kysely;
    const linkOf = async (userId: string, url: string) =>
      db().selectFrom('links').select(['title', 'description', 'thumbnail_url']).where('user_id', '=', userId).where('url', '=', url).executeTakeFirstOrThrow();

    it('fills in what the file left empty, keeps what it gave, and keeps the title of a page that fails; the collection counts what is left', async () => {
      const user = await signedInUser(ctx.server.url);
      const host = `http://localhost:${site.port}`;
      const [untitled, titled, described, missing] = [`${site.origin}/page/0`, `${host}/page/1`, `${site.origin}/page/2`, `${host}/missing`];
      const summary = await user.api.importBookmarks(
        new Blob([bookmarksFile([{ url: untitled }, { url: titled, title: 'My own title' }, { url: described, title: 'Described', description: 'My note' }, { url: missing }])]),
      );
      const collection = summary.collections[0]?.id as string;
      // The worker takes the four (two hosts, two a second each); the missing page waits for its retry.
      await expect.poll(() => user.api.supercurationPreviewsLeft(collection), { timeout: 20_000, interval: 200 }).toEqual({ left: 1 });

      expect(await linkOf(user.me.id, untitled)).toEqual({ title: 'Page 0 from its site', description: 'What page 0 is about.', thumbnail_url: `${site.origin}/images/0.png` });
      expect(await linkOf(user.me.id, titled)).toEqual({ title: 'My own title', description: 'What page 1 is about.', thumbnail_url: `${host}/images/1.png` });
      expect(await linkOf(user.me.id, described)).toMatchObject({ title: 'Described', description: 'My note' });
      expect(await linkOf(user.me.id, missing)).toEqual({ title: 'localhost', description: IMPORTED_BOOKMARK_DESCRIPTION, thumbnail_url: null });
      // The missing page's job counts as left from before its claim (which counts the attempt) until
      // its retry is written, after its fetch fails: the count may read 1 while it is still claimed.
      const retryJob = () => db().selectFrom('link_preview_jobs').select(['due_at', 'attempts', 'claim_token']).executeTakeFirstOrThrow();
      await expect
        .poll(async () => {
          const { attempts, claim_token } = await retryJob();
          return { attempts, claim_token };
        }, { timeout: 20_000, interval: 100 })
        .toEqual({ attempts: 1, claim_token: null });
      const retry = await retryJob();
      expect(Date.parse(retry.due_at)).toBeGreaterThan(Date.now() + PREVIEW_RETRY_MS - 60_000);

      // Only the collection's editors learn the count.
      const stranger = await signedInUser(ctx.server.url);
      expect((await failure(stranger.api.supercurationPreviewsLeft(collection))).status).toBe(404);
      expect((await failure(testClient(ctx.server.url).api.supercurationPreviewsLeft(collection))).status).toBe(401);
    });
  },
  { PREVIEW_ALLOW_PRIVATE: 'true', IMPORT_PREVIEW_PER_MINUTE: '120' },
);

describeEachDatabase('claims of imported links’ previews (the worker off: claims made by the test, at set times)', (ctx) => {
  /** A user with `n` imported links on each of `hosts`, and their jobs due. */
  async function importOn(hosts: string[], n: number) {
    const user = await signedInUser(ctx.server.url);
    const marks = hosts.flatMap((h) => Array.from({ length: n }, (_, i) => ({ url: `http://${h}/item/${i}` })));
    await user.api.importBookmarks(new Blob([bookmarksFile(marks)]));
    return user;
  }
  const t0 = Date.parse('2030-01-01T10:00:10.000Z');
  const at = (ms: number) => new Date(t0 + ms);

  it('takes one job per host per half second, across concurrent claims, each job once', async () => {
    await importOn(['one.example', 'two.example', 'three.example'], 3);
    const seen = new Set<string>();
    const claimsOf = async (ms: number) => {
      // Two processes claiming at the same moment.
      const both = await Promise.all([claimPreviewJobs(ctx.server.db, 1000, at(ms)), claimPreviewJobs(ctx.server.db, 1000, at(ms))]);
      const jobs = both.flatMap((c) => c.jobs);
      for (const j of jobs) {
        expect(seen.has(j.link_id)).toBe(false);
        seen.add(j.link_id);
      }
      return jobs.map((j) => j.host).sort();
    };
    expect(await claimsOf(0)).toEqual(['one.example', 'three.example', 'two.example']);
    expect(await claimsOf(PREVIEW_HOST_SPACING_MS - 1)).toEqual([]);
    expect(await claimsOf(PREVIEW_HOST_SPACING_MS + 1)).toEqual(['one.example', 'three.example', 'two.example']);
    expect(await claimsOf(2 * PREVIEW_HOST_SPACING_MS + 2)).toEqual(['one.example', 'three.example', 'two.example']);
    expect(await claimsOf(3 * PREVIEW_HOST_SPACING_MS + 3)).toEqual([]);
    expect(seen.size).toBe(9);
  });

  it('fetches at most IMPORT_PREVIEW_PER_MINUTE a minute, all claims together', async () => {
    await ctx.server.db.kysely.deleteFrom('link_preview_jobs').execute();
    await importOn(Array.from({ length: 8 }, (_, i) => `host-${i}.example`), 1);
    const start = at(60_000);
    const first = await claimPreviewJobs(ctx.server.db, 5, start);
    const second = await claimPreviewJobs(ctx.server.db, 5, new Date(start.getTime() + 1000));
    const third = await claimPreviewJobs(ctx.server.db, 5, new Date(start.getTime() + 2000));
    expect([first.jobs.length, second.jobs.length, third.jobs.length]).toEqual([4, 1, 0]);
    const nextMinute = await claimPreviewJobs(ctx.server.db, 5, new Date(start.getTime() + 60_000));
    expect(nextMinute.jobs.length).toBe(3);
  });
});
