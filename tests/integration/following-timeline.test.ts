import { expect, it } from 'vitest';
import { followingFilters, sourceTimes, walkQuery } from '../../server/services/following-feed';
import { FEED_PAGE_SIZE, FOLLOWING_MESSAGES, type FollowingItem, type FollowingQuery, LINK_MESSAGES } from '../../shared/domain';
import { http, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { explain } from '../support/explain';
import { type User, createCollection, expectFailure, failure, uniqueSlug } from '../support/supercurations';

const DAY_MS = 86_400_000;

/** Every item of the viewer's Following feed, page after page. */
async function wholeFeed(user: User, query: FollowingQuery = {}): Promise<FollowingItem[]> {
  const items: FollowingItem[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const page = await user.api.following({ ...query, cursor });
    expect(page.items.length).toBeLessThanOrEqual(FEED_PAGE_SIZE);
    items.push(...page.items);
    if (!page.hasMore) return items;
    cursor = page.nextCursor ?? undefined;
  }
  throw new Error('the feed never ended');
}

/** "Ada shared Title" / "Ada added to Climate Tech Weekly: Title": who, what and where. */
const told = (i: FollowingItem) =>
  `${i.actor.name} ${i.kind}${i.supercuration ? ` to ${i.supercuration.title}` : ''}: ${i.link.title}`;

const link = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  description: `About ${title}`,
  url: `https://example.com/${encodeURIComponent(title)}`,
  ...extra,
});

describeEachDatabase('following: the Following feed', (ctx) => {
  it('shows what followed users shared and reposted and what was added to followed collections, newest first, saying who and where', async () => {
    const reader = await signedInUser(ctx.server.url, 'Reader');
    const ada = await signedInUser(ctx.server.url, 'Ada');
    const owner = await signedInUser(ctx.server.url, 'Owner');
    const helper = await signedInUser(ctx.server.url, 'Helper');
    const stranger = await signedInUser(ctx.server.url, 'Stranger');
    const weekly = await createCollection(owner, { isPublic: true, title: 'Climate Tech Weekly' });
    await owner.api.addCollaborator(weekly.id, helper.me.id);
    await reader.api.subscribe(ada.me.id);
    await reader.api.followSupercuration(weekly.id);

    await ada.api.createLink(link('Ada one'));
    const owners = await owner.api.createLink(link('Owner original'));
    await ada.api.repost(owners.id);
    await owner.api.addResource(weekly.id, { link: link('Owner added') });
    await helper.api.addResource(weekly.id, { link: link('Helper added', { inMainFeed: false }) });
    // Not followed, or not published: never shown.
    await stranger.api.createLink(link('Stranger'));
    await ada.api.createLink(link('Ada kept out of the feed', { inMainFeed: false }));
    await owner.api.createLink(link('Owner not in the collection'));

    const items = await wholeFeed(reader);
    expect(items.map(told)).toEqual([
      'Helper added to Climate Tech Weekly: Helper added',
      'Owner added to Climate Tech Weekly: Owner added',
      'Ada reposted: Owner original',
      'Ada shared: Ada one',
    ]);
    expect(items[0]?.supercuration).toEqual({ id: weekly.id, title: 'Climate Tech Weekly', slug: weekly.slug });
    expect(items[0]?.actor).toMatchObject({ id: helper.me.id, name: 'Helper' });
    expect(items[2]?.supercuration).toBeNull();
    const times = items.map((i) => i.at);
    expect(times).toEqual([...times].sort().reverse());
    // The link itself is the card's, as My Feed answers it.
    expect(items[3]?.link).toMatchObject({ title: 'Ada one', user: { id: ada.me.id }, liked: false });
  });

  it('pages by cursor without gaps or repeats, across users and collections, and refuses bad input with a 400', async () => {
    const reader = await signedInUser(ctx.server.url, 'Pager');
    const a = await signedInUser(ctx.server.url, 'Prolific');
    const owner = await signedInUser(ctx.server.url, 'Collector');
    const c = await createCollection(owner, { isPublic: true, title: 'Busy' });
    await reader.api.subscribe(a.me.id);
    await reader.api.followSupercuration(c.id);
    const made: string[] = [];
    for (let i = 0; i < 14; i++) {
      made.push((await a.api.createLink(link(`A ${i}`))).title);
      if (i % 2 === 0) made.push((await owner.api.addResource(c.id, { link: link(`C ${i}`, { inMainFeed: false }) })).title);
    }
    const first = await reader.api.following();
    expect(first.items).toHaveLength(FEED_PAGE_SIZE);
    expect(first.hasMore).toBe(true);
    const items = await wholeFeed(reader);
    expect(items.map((i) => i.link.title)).toEqual([...made].reverse());

    await expectFailure(reader.api.following({ cursor: 'not-a-cursor' }), 400, LINK_MESSAGES.invalidCursor);
    // A My Feed cursor is not a Following one.
    const feedCursor = (await a.api.listLinks()).nextCursor;
    expect(feedCursor).toBeTruthy();
    await expectFailure(reader.api.following({ cursor: feedCursor ?? '' }), 400, LINK_MESSAGES.invalidCursor);
    const bad = await http(`${ctx.server.url}/api/following?format=nonsense&window=forever`, { headers: { cookie: reader.cookieHeader() } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    // Odd but well-formed cursors and repeated parameters: a clear 4xx or a page, never a 500.
    const odd = (values: unknown[]) => Buffer.from(JSON.stringify(['following', ...values])).toString('base64url');
    for (const query of [
      `cursor=${odd(['2026-01-01T00:00:00.000Z\u0000', 'x'])}`,
      `cursor=${odd(['', ''])}`,
      `cursor=${odd([1, 2])}`,
      `cursor=${'A'.repeat(501)}`,
      'window=week&window=all',
      'format=video&format=tool',
    ]) {
      const res = await http(`${ctx.server.url}/api/following?${query}`, { headers: { cookie: reader.cookieHeader() } });
      expect(res.status, query).toBeLessThan(500);
      await res.body?.cancel();
    }
    const visitor = await failure(testClient(ctx.server.url).api.following());
    expect([visitor.status, visitor.message]).toEqual([401, FOLLOWING_MESSAGES.mustLogIn]);
  });

  it('pages right with more sources than a page, some quiet, and reposts hidden from the reader among them', async () => {
    const reader = await signedInUser(ctx.server.url, 'Wide Reader');
    const curators = await Promise.all(Array.from({ length: 13 }, (_, i) => signedInUser(ctx.server.url, `Curator ${i}`)));
    const author = await signedInUser(ctx.server.url, 'Hidden Author');
    for (const c of curators) await reader.api.subscribe(c.me.id);
    const hidden = await author.api.createLink(link('Soon hidden'));
    const made: string[] = [];
    // Round after round, every other curator shares; a few repost the link that will turn private.
    for (let round = 0; round < 3; round++) {
      for (const [i, c] of curators.entries()) {
        if (i % 2 === round % 2) made.push((await c.api.createLink(link(`${c.me.name} ${round}`))).title);
        else if (round === 1 && i < 6) await c.api.repost(hidden.id);
      }
    }
    await author.api.updateLink(hidden.id, { inMainFeed: false });
    const items = await wholeFeed(reader);
    expect(items.map((i) => i.link.title)).toEqual([...made].reverse());
  });

  it('filters by format and by time window, as My Feed does', async () => {
    const reader = await signedInUser(ctx.server.url, 'Filterer');
    const a = await signedInUser(ctx.server.url, 'Mixed');
    const owner = await signedInUser(ctx.server.url, 'Keeper');
    const c = await createCollection(owner, { isPublic: true, title: 'Mixed bag' });
    await reader.api.subscribe(a.me.id);
    await reader.api.followSupercuration(c.id);
    const video = await a.api.createLink(link('A video', { format: 'video' }));
    await a.api.createLink(link('An article', { format: 'article' }));
    const old = await a.api.createLink(link('An old video', { format: 'video' }));
    await owner.api.addResource(c.id, { link: link('A collected video', { format: 'video', inMainFeed: false }) });
    const oldAdded = await owner.api.addResource(c.id, { link: link('An old addition', { inMainFeed: false }) });
    const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
    await ctx.server.db.kysely.updateTable('links').set({ created_at: daysAgo(40) }).where('id', '=', old.id).execute();
    await ctx.server.db.kysely
      .updateTable('supercuration_links')
      .set({ created_at: daysAgo(41) })
      .where('link_id', '=', oldAdded.id)
      .execute();

    const titles = async (q: FollowingQuery) => (await wholeFeed(reader, q)).map((i) => i.link.title);
    expect(await titles({ format: 'video' })).toEqual(['A collected video', 'A video', 'An old video']);
    expect(await titles({ window: 'month' })).toEqual(['A collected video', 'An article', 'A video']);
    expect(await titles({ window: 'week', format: 'video' })).toEqual(['A collected video', video.title]);
    expect(await titles({})).toEqual(['A collected video', 'An article', 'A video', 'An old video', 'An old addition']);
  });

  it('never shows a private collection, a private link, or a repost of a link turned private; unfollowing empties it', async () => {
    const reader = await signedInUser(ctx.server.url, 'Watcher');
    const a = await signedInUser(ctx.server.url, 'Sharer');
    const owner = await signedInUser(ctx.server.url, 'Turncoat');
    const c = await createCollection(owner, { isPublic: true, title: 'Soon private' });
    const secret = await createCollection(a, { title: 'Secret' });
    await reader.api.subscribe(a.me.id);
    await reader.api.followSupercuration(c.id);

    await owner.api.addResource(c.id, { link: link('In the collection', { inMainFeed: false }) });
    const original = await owner.api.createLink(link('Original'));
    await a.api.repost(original.id);
    // A private link of a followed user: only in a private collection.
    await a.api.createLink(link('Private', { inMainFeed: false, supercurationIds: [secret.id] }));
    const titles = async () => (await wholeFeed(reader)).map((i) => `${i.kind} ${i.link.title}`);
    expect(await titles()).toEqual(['reposted Original', 'added In the collection']);

    await owner.api.updateSupercuration(c.id, { isPublic: false });
    await owner.api.updateLink(original.id, { inMainFeed: false });
    expect(await titles()).toEqual([]);

    // Both come back when public again; unfollowing and unsubscribing empty the feed.
    await owner.api.updateSupercuration(c.id, { isPublic: true, slug: uniqueSlug() });
    await owner.api.updateLink(original.id, { inMainFeed: true });
    expect(await titles()).toEqual(['reposted Original', 'added In the collection']);
    await reader.api.unfollowSupercuration(c.id);
    expect(await titles()).toEqual(['reposted Original']);
    await reader.api.unsubscribe(a.me.id);
    expect(await titles()).toEqual([]);
  });

  it('reads indexes, never sorting a source: the walk in time order, a seek per followed user and collection (EXPLAIN)', async () => {
    const db = ctx.server.db;
    const cursor = Buffer.from(JSON.stringify(['following', '2026-01-01T00:00:00.000Z', 'abc'])).toString('base64url');
    for (const q of [{ window: 'all' as const }, { window: 'week' as const, format: 'video' as const, cursor }]) {
      const f = followingFilters('some-user', q);
      const walk = await explain(db, walkQuery(f).compile(db.kysely));
      const seeks = await explain(db, sourceTimes(f, 0).compile(db.kysely));
      const label = `${JSON.stringify(q)}\n${walk}\n${seeks}`;
      expect(seeks, label).toContain('supercuration_links_collection_created');
      // With a format, the index that has the format in it (migration 0007); PostgreSQL may pick either on tiny tables.
      const userIndexes = 'format' in q ? ['links_feed_format', 'links_feed_created'] : ['links_feed_created'];
      expect(userIndexes.some((index) => seeks.includes(index)), label).toBe(true);
      if (db.dialect === 'sqlite') {
        expect(seeks, label).toContain(userIndexes[0]);
        expect(walk, label).toMatch(/SEARCH w USING (COVERING )?INDEX links_created|SCAN w USING (COVERING )?INDEX links_created/);
        expect(`${walk}\n${seeks}`, label).not.toContain('TEMP B-TREE');
      } else {
        expect(walk, label).toMatch(/Index Scan Backward using links_created on links w/);
      }
    }
  });
});
