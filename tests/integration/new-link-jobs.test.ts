import { randomBytes } from 'node:crypto';
import { expect, it, vi } from 'vitest';
import { newId } from '../../server/db/ids';
import { makeNewLinkJobs } from '../../server/services/new-link-jobs';
import { signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { createCollection } from '../support/supercurations';

/**
 * server/services/new-link-jobs.ts: a link shared one at a time writes one row for its background
 * jobs, and the server's worker makes the jobs (first link check, readable copy, facts) of many
 * links at once. The server's own worker runs beside these tests: each test asserts what holds
 * whichever of it and the test's own call made the jobs.
 */
describeEachDatabase('the background jobs of new links', (ctx) => {
  const db = () => ctx.server.db.kysely;
  const page = () => `https://${randomBytes(4).toString('hex')}.example/page`;
  /** The jobs each link has: its check, its readable copy still to make, its facts-only preview. */
  const jobsOf = async (ids: string[]) => ({
    checks: (await db().selectFrom('link_checks').select('link_id').where('link_id', 'in', ids).execute()).map((r) => r.link_id).sort(),
    copies: (await db().selectFrom('link_copies').select('link_id').where('link_id', 'in', ids).where('due_at', 'is not', null).execute())
      .map((r) => r.link_id)
      .sort(),
    facts: (await db().selectFrom('link_preview_jobs').select('link_id').where('link_id', 'in', ids).where('facts_only', '=', 1).execute())
      .map((r) => r.link_id)
      .sort(),
    waiting: (await db().selectFrom('new_link_jobs').select('link_id').where('link_id', 'in', ids).execute()).length,
  });

  it('the server queues the check, the readable copy and the facts of each link shared, added or reposted, within a moment', async () => {
    const author = await signedInUser(ctx.server.url);
    const reposter = await signedInUser(ctx.server.url);
    const collection = await createCollection(author);
    const shared = await author.api.createLink({ url: page(), title: 'Shared', description: 'd' });
    const added = await author.api.addResource(collection.id, { link: { url: page(), title: 'Added', description: 'd', linkText: 'Visit Link', topicIds: [] } });
    const note = await author.api.createLink({ title: 'A note', description: 'No URL, no jobs' });
    const repost = await reposter.api.repost(shared.id);
    const ids = [shared.id, added.id, repost.id].sort();
    // No call of the test's own: the server's worker does it.
    await vi.waitFor(async () => expect((await jobsOf(ids)).waiting).toBe(0), { timeout: 10_000, interval: 50 });
    // The repost has the original's facts: only its check and copy.
    expect(await jobsOf(ids)).toEqual({ checks: ids, copies: ids, facts: [shared.id, added.id].sort(), waiting: 0 });
    expect(await jobsOf([note.id])).toEqual({ checks: [], copies: [], facts: [], waiting: 0 });
  });

  it('many links in one batch; two makers at once make each job once', async () => {
    const author = await signedInUser(ctx.server.url);
    const links = await Promise.all(Array.from({ length: 40 }, (_, i) => author.api.createLink({ url: page(), title: `Link ${i}`, description: 'd' })));
    const ids = links.map((l) => l.id).sort();
    await Promise.all([makeNewLinkJobs(ctx.server.db), makeNewLinkJobs(ctx.server.db)]);
    expect(await jobsOf(ids)).toEqual({ checks: ids, copies: ids, facts: ids, waiting: 0 });
  });

  it("an author who turned readable copies off gets no copy; a link deleted before its jobs gets none; a URL changed meanwhile is the one checked", async () => {
    const author = await signedInUser(ctx.server.url);
    const off = await author.fetch(`${ctx.server.url}/api/me/readable-copies`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ keep: false }),
    });
    expect(off.status).toBe(200);
    const link = await author.api.createLink({ url: page(), title: 'Mine', description: 'd' });
    // A row whose link is gone (deleted before the worker came): dropped, nothing queued for it.
    const gone = newId();
    await db().insertInto('new_link_jobs').values({ link_id: gone, needs_facts: 1 }).execute();
    // A link whose URL changed before its jobs were made (an edit queues the new URL's check itself).
    const moved = await author.api.createLink({ url: page(), title: 'Moved', description: 'd' });
    // The server's worker may make its first jobs (from the old URL) on its own: they are done before the URL changes.
    await expect
      .poll(async () => {
        const jobs = await jobsOf([moved.id]);
        return jobs.waiting === 0 && jobs.checks.length === 1;
      }, { timeout: 10_000 })
      .toBe(true);
    const newUrl = page();
    await db().updateTable('links').set({ url: newUrl }).where('id', '=', moved.id).execute();
    await db().deleteFrom('link_checks').where('link_id', '=', moved.id).execute();
    await db().insertInto('new_link_jobs').values({ link_id: moved.id, needs_facts: 0 }).onConflict((oc) => oc.column('link_id').doNothing()).execute();
    await makeNewLinkJobs(ctx.server.db);

    expect(await jobsOf([link.id])).toEqual({ checks: [link.id], copies: [], facts: [link.id], waiting: 0 });
    expect(await jobsOf([gone])).toEqual({ checks: [], copies: [], facts: [], waiting: 0 });
    const check = await db().selectFrom('link_checks').select('host').where('link_id', '=', moved.id).executeTakeFirstOrThrow();
    expect(check.host).toBe(new URL(newUrl).hostname);
  });
});
