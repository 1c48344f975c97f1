import { expect, it } from 'vitest';
import { DEFAULT_TOPIC_NAMES, LINK_MESSAGES, MSG, TOPIC_PALETTE } from '../../shared/domain';
import { failure, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

describeEachDatabase('topics', (ctx) => {
  it('gives a new account the 20 default topics, in order, colours cycling through the palette', async () => {
    const user = await signedInUser(ctx.server.url);
    const topics = await user.api.listTopics();
    expect(topics.map((t) => t.name)).toEqual([...DEFAULT_TOPIC_NAMES]);
    expect(topics.slice(0, 4).map((t) => t.id)).toEqual(['future-of-work', 'productivity', 'ai', 'tech-politique']);
    expect(topics.map((t) => t.id)).toContain('strategie-innovation');
    expect(topics.map((t) => t.id)).toContain('ia-audio-video');
    expect(topics.map((t) => t.color)).toEqual(DEFAULT_TOPIC_NAMES.map((_, i) => TOPIC_PALETTE[i % TOPIC_PALETTE.length]));
  });

  it("is for signed-in users only: 'Not authenticated'", async () => {
    const anon = testClient(ctx.server.url).api;
    for (const call of [
      () => anon.listTopics(),
      () => anon.createTopic({ name: 'X', color: '#2563eb' }),
      () => anon.updateTopic('ai', { name: 'Y' }),
      () => anon.deleteTopic('ai'),
    ]) {
      const err = await failure(call());
      expect([err.status, err.message]).toEqual([401, MSG.notAuthenticated]);
    }
  });

  it('adds a topic; the same name again (any case or accents) is refused; names are trimmed and required', async () => {
    const user = await signedInUser(ctx.server.url);
    const topic = await user.api.createTopic({ name: '  Deep Learning ', color: '#DC2626' });
    expect(topic).toMatchObject({ id: 'deep-learning', name: 'Deep Learning', color: '#dc2626' });
    for (const name of ['deep learning', 'DEEP-LEARNING', 'Future of work', 'medias']) {
      const err = await failure(user.api.createTopic({ name, color: '#2563eb' }));
      expect([err.status, err.message]).toEqual([409, LINK_MESSAGES.topicExists]);
    }
    const blank = await failure(user.api.createTopic({ name: '   ', color: '#2563eb' }));
    expect([blank.status, blank.message]).toEqual([400, LINK_MESSAGES.topicNameRequired]);
    const badColor = await failure(user.api.createTopic({ name: 'Ok', color: 'red' }));
    expect([badColor.status, badColor.message]).toEqual([400, LINK_MESSAGES.invalidColor]);
    const cjk = await user.api.createTopic({ name: '日本', color: '#2563eb' });
    expect(cjk.id).toMatch(/^topic-[0-9a-f]{16}$/);
    expect((await failure(user.api.createTopic({ name: '日本', color: '#2563eb' }))).status).toBe(409);
    // Another user's topics are their own.
    expect((await (await signedInUser(ctx.server.url)).api.createTopic({ name: 'Deep Learning', color: '#2563eb' })).id).toBe(
      'deep-learning',
    );
  });

  it('renames (keeping the id, so links keep it) and recolours; a taken name is refused', async () => {
    const user = await signedInUser(ctx.server.url);
    const link = await user.api.createLink({ title: 'T', description: 'D', topicIds: ['ai'] });
    const renamed = await user.api.updateTopic('ai', { name: 'Artificial Intelligence', color: '#16a34a' });
    expect(renamed).toMatchObject({ id: 'ai', name: 'Artificial Intelligence', color: '#16a34a' });
    expect((await user.api.getLink(link.id)).topicIds).toEqual(['ai']);
    const clash = await failure(user.api.updateTopic('ai', { name: 'Growth' }));
    expect([clash.status, clash.message]).toEqual([409, LINK_MESSAGES.topicExists]);
    expect((await user.api.updateTopic('ai', { name: 'AI' })).name).toBe('AI');
    const blank = await failure(user.api.updateTopic('ai', { name: ' ' }));
    expect([blank.status, blank.message]).toEqual([400, LINK_MESSAGES.topicNameRequired]);
    const missing = await failure(user.api.updateTopic('no-such-topic', { color: '#16a34a' }));
    expect([missing.status, missing.message]).toEqual([404, LINK_MESSAGES.topicNotFound]);
  });

  it("touches only the viewer's own topics", async () => {
    const owner = await signedInUser(ctx.server.url);
    const other = await signedInUser(ctx.server.url);
    await owner.api.createTopic({ name: 'Private Thing', color: '#2563eb' });
    expect((await failure(other.api.updateTopic('private-thing', { name: 'Mine' }))).status).toBe(404);
    expect((await failure(other.api.deleteTopic('private-thing'))).status).toBe(404);
    await other.api.deleteTopic('ai');
    expect((await owner.api.listTopics()).map((t) => t.id)).toEqual(expect.arrayContaining(['ai', 'private-thing']));
  });

  it('deletes a topic and takes it off the links', async () => {
    const user = await signedInUser(ctx.server.url);
    const link = await user.api.createLink({ title: 'T', description: 'D', topicIds: ['ai', 'growth'] });
    await user.api.deleteTopic('growth');
    expect((await user.api.listTopics()).map((t) => t.id)).not.toContain('growth');
    expect((await user.api.getLink(link.id)).topicIds).toEqual(['ai']);
    const again = await failure(user.api.deleteTopic('growth'));
    expect([again.status, again.message]).toEqual([404, LINK_MESSAGES.topicNotFound]);
    // Re-adding the name gives the same id back, not on the link any more.
    expect((await user.api.createTopic({ name: 'Growth', color: '#2563eb' })).id).toBe('growth');
    expect((await user.api.getLink(link.id)).topicIds).toEqual(['ai']);
  });
});
