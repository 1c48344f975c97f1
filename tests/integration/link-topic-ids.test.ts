import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import * as linkTopicIds from '../../server/db/migrations/0030_link_topic_ids';
import { signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import type { TestServer } from '../support/server';

/** Each link's stored topic ids beside what link_topics holds for it, both sorted. */
async function storedAndActual(server: TestServer, ids: string[]) {
  const db = server.db.kysely;
  const rows = await db.selectFrom('links').select(['id', 'topic_ids']).where('id', 'in', ids).execute();
  const topics = await db.selectFrom('link_topics').select(['link_id', 'topic_id']).where('link_id', 'in', ids).execute();
  return rows.map((r) => ({
    stored: r.topic_ids ? r.topic_ids.split(',').sort() : [],
    actual: topics.filter((t) => t.link_id === r.id).map((t) => t.topic_id).sort(),
  }));
}

describeEachDatabase("a link's topics, stored on its row for its card", (ctx) => {
  it('follow a share, an edit, a repost and a deleted topic, in the feed and on the link', async () => {
    const author = await signedInUser(ctx.server.url);
    const reposter = await signedInUser(ctx.server.url);
    const link = await author.api.createLink({ title: 'T', description: 'D', url: 'https://example.com/topics', topicIds: ['growth', 'ai'] });
    expect(link.topicIds).toEqual(['ai', 'growth']);
    expect((await author.api.listLinks()).items.find((l) => l.id === link.id)?.topicIds).toEqual(['ai', 'growth']);

    await author.api.updateLink(link.id, { topicIds: ['productivity'] });
    expect((await author.api.listLinks()).items.find((l) => l.id === link.id)?.topicIds).toEqual(['productivity']);

    await reposter.api.deleteTopic('growth');
    await author.api.updateLink(link.id, { topicIds: ['growth', 'productivity', 'ai'] });
    const copy = await reposter.api.repost(link.id);
    // The reposter has no 'growth' topic any more: the copy keeps the other two.
    expect(copy.topicIds).toEqual(['ai', 'productivity']);
    expect((await reposter.api.listLinks({ scope: 'reposts' })).items.map((l) => l.topicIds)).toEqual([['ai', 'productivity']]);

    await author.api.deleteTopic('productivity');
    expect((await author.api.getLink(link.id)).topicIds).toEqual(['ai', 'growth']);
    await author.api.updateLink(link.id, { topicIds: [] });
    expect((await author.api.getLink(link.id)).topicIds).toEqual([]);

    for (const { stored, actual } of await storedAndActual(ctx.server, [link.id, copy.id])) expect(stored).toEqual(actual);
  });

  it('are filled in, on upgrade, for the links written before they were stored', async () => {
    const user = await signedInUser(ctx.server.url);
    const tagged = await user.api.createLink({ title: 'Tagged', description: 'D', topicIds: ['ai', 'growth'] });
    const untagged = await user.api.createLink({ title: 'Untagged', description: 'D', topicIds: [] });
    // Migrations are typed for any schema.
    const db = ctx.server.db.kysely as unknown as Kysely<unknown>;
    await linkTopicIds.down(db);
    await linkTopicIds.up(db);
    const stored = await storedAndActual(ctx.server, [tagged.id, untagged.id]);
    expect(stored.map((s) => s.stored).sort((a, b) => a.length - b.length)).toEqual([[], ['ai', 'growth']]);
    for (const { stored: s, actual } of stored) expect(s).toEqual(actual);
    expect((await user.api.getLink(tagged.id)).topicIds).toEqual(['ai', 'growth']);
  });
});
