import { expect, it } from 'vitest';
import { ApiError } from '../../shared/api/client';
import { LINK_MESSAGES } from '../../shared/domain';
import type { Db } from '../../server/db';
import { failure, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

const sample = { title: 'Shared thing', description: 'Description', url: 'https://example.com/thing' };

/** The stored counter and the rows it counts. */
async function likeCounts(db: Db, linkId: string) {
  const link = await db.kysely.selectFrom('links').select('likes_count').where('id', '=', linkId).executeTakeFirstOrThrow();
  const rows = await db.kysely
    .selectFrom('likes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('link_id', '=', linkId)
    .executeTakeFirstOrThrow();
  return { counter: link.likes_count, rows: Number(rows.n) };
}

describeEachDatabase('links: likes and reposts', (ctx) => {
  it("toggles a like per viewer; a visitor gets 'Must be logged in to like links'", async () => {
    const author = await signedInUser(ctx.server.url);
    const fan = await signedInUser(ctx.server.url);
    const link = await author.api.createLink(sample);

    const anon = await failure(testClient(ctx.server.url).api.toggleLike(link.id));
    expect([anon.status, anon.message]).toEqual([401, LINK_MESSAGES.mustLogInToLike]);

    expect(await fan.api.toggleLike(link.id)).toEqual({ liked: true, likes: 1 });
    expect(await fan.api.getLink(link.id)).toMatchObject({ liked: true, likes: 1 });
    expect(await author.api.getLink(link.id)).toMatchObject({ liked: false, likes: 1 });
    expect(await testClient(ctx.server.url).api.getLink(link.id)).toMatchObject({ liked: false, likes: 1 });
    expect(await author.api.toggleLike(link.id)).toEqual({ liked: true, likes: 2 });
    expect(await fan.api.toggleLike(link.id)).toEqual({ liked: false, likes: 1 });
    expect(await likeCounts(ctx.server.db, link.id)).toEqual({ counter: 1, rows: 1 });

    const missing = await failure(fan.api.toggleLike('no-such-link'));
    expect([missing.status, missing.message]).toEqual([404, LINK_MESSAGES.linkNotFound]);
  });

  it('keeps likes_count equal to the like rows under concurrent double clicks from 20 users', async () => {
    const author = await signedInUser(ctx.server.url);
    const link = await author.api.createLink(sample);
    const users = await Promise.all(Array.from({ length: 20 }, () => signedInUser(ctx.server.url)));
    const clicks = users.flatMap((user, i) => Array.from({ length: 2 + (i % 4) }, () => user.api.toggleLike(link.id)));
    const results = await Promise.all(clicks);
    expect(results).toHaveLength(users.reduce((n, _, i) => n + 2 + (i % 4), 0));

    const counts = await likeCounts(ctx.server.db, link.id);
    expect(counts.counter).toBe(counts.rows);
    expect((await author.api.getLink(link.id)).likes).toBe(counts.rows);
    // Each user's own view agrees with the rows.
    for (const user of users) {
      const row = await ctx.server.db.kysely
        .selectFrom('likes')
        .select('user_id')
        .where('link_id', '=', link.id)
        .where('user_id', '=', user.me.id)
        .executeTakeFirst();
      expect((await user.api.getLink(link.id)).liked).toBe(row !== undefined);
    }
  });

  it('reposts: a copy owned by the reposter pointing at the original, counted on the original', async () => {
    const author = await signedInUser(ctx.server.url, 'Original Author');
    const reposter = await signedInUser(ctx.server.url, 'Reposter');
    const third = await signedInUser(ctx.server.url, 'Third');
    const original = await author.api.createLink({ ...sample, topicIds: ['ai', 'growth'], format: 'podcast' });
    await author.api.createTopic({ name: 'Only Mine', color: '#123456' });
    await author.api.updateLink(original.id, { topicIds: ['ai', 'only-mine'] });

    const anon = await failure(testClient(ctx.server.url).api.repost(original.id));
    expect([anon.status, anon.message]).toEqual([401, LINK_MESSAGES.mustLogInToRepost]);
    const own = await failure(author.api.repost(original.id));
    expect([own.status, own.message]).toEqual([403, LINK_MESSAGES.cannotRepostOwn]);

    const copy = await reposter.api.repost(original.id);
    expect(copy).toMatchObject({
      title: original.title,
      url: original.url,
      format: 'podcast',
      originalPostId: original.id,
      // Only the topics the reposter has as well.
      topicIds: ['ai'],
      user: { id: reposter.me.id, name: 'Reposter' },
      likes: 0,
      repostsCount: 0,
      canDelete: true,
    });
    expect(copy.id).not.toBe(original.id);
    expect((await author.api.getLink(original.id)).repostsCount).toBe(1);

    const twice = await failure(reposter.api.repost(original.id));
    expect([twice.status, twice.message]).toEqual([409, LINK_MESSAGES.alreadyReposted]);
    const viaCopy = await failure(reposter.api.repost(copy.id));
    expect(viaCopy.status).toBe(409);
    // Reposting the copy reposts the original; the author can't repost it back.
    const second = await third.api.repost(copy.id);
    expect(second.originalPostId).toBe(original.id);
    expect((await author.api.repost(copy.id).catch((e: ApiError) => e)) as ApiError).toMatchObject({ status: 403 });
    expect((await author.api.getLink(original.id)).repostsCount).toBe(2);

    expect((await reposter.api.listLinks({ scope: 'reposts' })).items.map((l) => l.id)).toEqual([copy.id]);
    expect((await reposter.api.listLinks({ scope: 'mine' })).items.map((l) => l.id)).toEqual([copy.id]);
    expect((await author.api.listLinks({ scope: 'reposts' })).items).toEqual([]);

    await reposter.api.deleteLink(copy.id);
    expect((await author.api.getLink(original.id)).repostsCount).toBe(1);
    // Deleting the original leaves the copies, no longer pointing at it.
    await author.api.deleteLink(original.id);
    expect((await third.api.getLink(second.id)).originalPostId).toBeNull();
  });

  it('counts one repost when the same user reposts twice at once', async () => {
    const author = await signedInUser(ctx.server.url);
    const reposter = await signedInUser(ctx.server.url);
    const original = await author.api.createLink(sample);
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => reposter.api.repost(original.id)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as ApiError).status).toBe(409);
    expect((await author.api.getLink(original.id)).repostsCount).toBe(1);
  });
});
