import { expect, it } from 'vitest';
import { type AccountExport, SUPERCURATION_MESSAGES } from '../../shared/domain';
import type { Db } from '../../server/db';
import { failure, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

/** Each collection's followers_count beside its follower rows. */
async function countersAndRows(db: Db, ids: string[]) {
  const counts = await db.kysely.selectFrom('supercurations').select(['id', 'followers_count']).where('id', 'in', ids).execute();
  const rows = await db.kysely.selectFrom('supercuration_followers').select('supercuration_id').where('supercuration_id', 'in', ids).execute();
  return ids.map((id) => [Number(counts.find((c) => c.id === id)?.followers_count), rows.filter((r) => r.supercuration_id === id).length]);
}

describeEachDatabase('supercurations: signed-in followers', (ctx) => {
  it('follows and unfollows a public collection: the row and the count together, shown on the collection for the viewer', async () => {
    const curator = await signedInUser(ctx.server.url, 'Curator');
    const reader = await signedInUser(ctx.server.url, 'Reader');
    const c = await curator.api.createSupercuration({ title: 'Climate Tech Weekly', isPublic: true, slug: 'climate-tech-weekly' });
    expect(await reader.api.getSupercuration(c.id)).toMatchObject({ followersCount: 0, isFollowing: false });

    expect(await reader.api.followSupercuration(c.id)).toEqual({ isFollowing: true, followersCount: 1 });
    expect(await reader.api.getSupercuration(c.id)).toMatchObject({ followersCount: 1, isFollowing: true });
    // The owner sees the count, and isn't following.
    expect(await curator.api.getSupercuration(c.id)).toMatchObject({ followersCount: 1, isFollowing: false });
    // The public page and the directory carry the same facts.
    expect(await testClient(ctx.server.url).api.getPublicSupercuration('climate-tech-weekly')).toMatchObject({ followersCount: 1, isFollowing: false });
    const listed = (await reader.api.directory({ q: 'Climate Tech' })).items.find((s) => s.id === c.id);
    expect(listed).toMatchObject({ followersCount: 1, isFollowing: true });

    expect(await reader.api.unfollowSupercuration(c.id)).toEqual({ isFollowing: false, followersCount: 0 });
    expect(await reader.api.getSupercuration(c.id)).toMatchObject({ followersCount: 0, isFollowing: false });
  });

  it('is idempotent: double clicks and replays count once, and unfollowing never goes below 0', async () => {
    const curator = await signedInUser(ctx.server.url, 'Curator');
    const reader = await signedInUser(ctx.server.url, 'Eager Reader');
    const c = await curator.api.createSupercuration({ title: 'Reads', isPublic: true, slug: 'reads-idempotent' });
    await Promise.all(Array.from({ length: 6 }, () => reader.api.followSupercuration(c.id)));
    expect(await reader.api.followSupercuration(c.id)).toEqual({ isFollowing: true, followersCount: 1 });
    await Promise.all(Array.from({ length: 6 }, () => reader.api.unfollowSupercuration(c.id)));
    expect(await reader.api.unfollowSupercuration(c.id)).toEqual({ isFollowing: false, followersCount: 0 });
    expect(await countersAndRows(ctx.server.db, [c.id])).toEqual([[0, 0]]);
  });

  it('refuses visitors (401), editors (400), and strangers to a private collection (404), changing nothing', async () => {
    const curator = await signedInUser(ctx.server.url, 'Curator');
    const helper = await signedInUser(ctx.server.url, 'Collaborator');
    const stranger = await signedInUser(ctx.server.url, 'Stranger');
    const open = await curator.api.createSupercuration({ title: 'Open', isPublic: true, slug: 'open-follow-rules' });
    const closed = await curator.api.createSupercuration({ title: 'Closed' });
    await curator.api.addCollaborator(open.id, helper.me.id);

    const visitor = await failure(testClient(ctx.server.url).api.followSupercuration(open.id));
    expect([visitor.status, visitor.message]).toEqual([401, SUPERCURATION_MESSAGES.mustLogInToFollow]);
    const unfollowVisitor = await failure(testClient(ctx.server.url).api.unfollowSupercuration(open.id));
    expect(unfollowVisitor.status).toBe(401);
    for (const editor of [curator, helper]) {
      const own = await failure(editor.api.followSupercuration(open.id));
      expect([own.status, own.message]).toEqual([400, SUPERCURATION_MESSAGES.editorsCannotFollow]);
    }
    for (const attempt of [stranger.api.followSupercuration, stranger.api.unfollowSupercuration]) {
      const hidden = await failure(attempt(closed.id));
      expect([hidden.status, hidden.message]).toEqual([404, SUPERCURATION_MESSAGES.notFound]);
    }
    const missing = await failure(stranger.api.followSupercuration('no-such-collection'));
    expect(missing.status).toBe(404);
    expect(await countersAndRows(ctx.server.db, [open.id, closed.id])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it('a follower of a collection turned private may still leave it, and the collection no longer shows to them', async () => {
    const curator = await signedInUser(ctx.server.url, 'Curator');
    const reader = await signedInUser(ctx.server.url, 'Reader');
    const c = await curator.api.createSupercuration({ title: 'Soon private', isPublic: true, slug: 'soon-private' });
    await reader.api.followSupercuration(c.id);
    await curator.api.updateSupercuration(c.id, { isPublic: false });
    expect((await failure(reader.api.getSupercuration(c.id))).status).toBe(404);
    expect((await failure(reader.api.followSupercuration(c.id))).status).toBe(404);
    expect(await reader.api.unfollowSupercuration(c.id)).toEqual({ isFollowing: false, followersCount: 0 });
  });

  it('keeps every count equal to its rows under a storm of follows and unfollows from many users', async () => {
    const curators = await Promise.all(['A', 'B'].map((n) => signedInUser(ctx.server.url, `Curator ${n}`)));
    const collections = await Promise.all(
      curators.flatMap((u, i) => [0, 1].map((j) => u.api.createSupercuration({ title: `C${i}${j}`, isPublic: true, slug: `storm-${i}-${j}` }))),
    );
    const readers = await Promise.all(Array.from({ length: 6 }, (_, i) => signedInUser(ctx.server.url, `Reader ${i}`)));
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const operations = readers.flatMap((r) =>
      Array.from({ length: 25 }, () => {
        const target = collections[Math.floor(random() * collections.length)]!.id;
        return random() < 0.6 ? r.api.followSupercuration(target) : r.api.unfollowSupercuration(target);
      }),
    );
    const results = await Promise.allSettled(operations);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const ids = collections.map((c) => c.id);
    for (const [count, rows] of await countersAndRows(ctx.server.db, ids)) expect(count).toBe(rows);
  });

  it("deleting a follower's account takes its follows off the counts", async () => {
    const curator = await signedInUser(ctx.server.url, 'Curator');
    const leaving = await signedInUser(ctx.server.url, 'Leaving Reader');
    const staying = await signedInUser(ctx.server.url, 'Staying Reader');
    const c = await curator.api.createSupercuration({ title: 'Kept', isPublic: true, slug: 'kept-after-deletion' });
    await leaving.api.followSupercuration(c.id);
    await staying.api.followSupercuration(c.id);
    const exported = (await (await leaving.fetch(leaving.api.accountExportUrl())).json()) as AccountExport;
    expect(exported.followedCollections).toEqual([{ id: c.id, title: 'Kept', since: expect.any(String) }]);
    await leaving.api.deleteAccount(leaving.input.password, leaving.input.email);
    expect(await countersAndRows(ctx.server.db, [c.id])).toEqual([[1, 1]]);
  });
});
