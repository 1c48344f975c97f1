import { expect, it } from 'vitest';
import { FEED_PAGE_SIZE, LINK_MESSAGES, type Link, type LinkListQuery, MSG } from '../../shared/domain';
import type { Db } from '../../server/db';
import { encodeCursor, feedQuery } from '../../server/services/feed';
import { failure, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { explain, outerPlan } from '../support/explain';

type User = Awaited<ReturnType<typeof signedInUser>>;

/** Every page of a feed, following nextCursor; checks the hasMore / nextCursor contract on the way. */
async function allPages(user: User, query: LinkListQuery): Promise<Link[][]> {
  const pages: Link[][] = [];
  let cursor: string | undefined;
  do {
    const page = await user.api.listLinks({ ...query, cursor });
    expect(page.items.length).toBeLessThanOrEqual(FEED_PAGE_SIZE);
    expect(page.hasMore).toBe(page.nextCursor !== null);
    if (page.hasMore) expect(page.items).toHaveLength(FEED_PAGE_SIZE);
    pages.push(page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return pages;
}

const ids = (pages: Link[][]) => pages.flat().map((l) => l.id);

/** Sets a link's created_at (and likes_count) directly, to build feeds of any shape. */
async function backdate(db: Db, id: string, daysAgo: number, likes?: number) {
  await db.kysely
    .updateTable('links')
    .set({ created_at: new Date(Date.now() - daysAgo * 86_400_000).toISOString(), ...(likes !== undefined && { likes_count: likes }) })
    .where('id', '=', id)
    .execute();
}

describeEachDatabase('links: My Feed', (ctx) => {
  it("is for signed-in users only: 'Not authenticated'", async () => {
    const err = await failure(testClient(ctx.server.url).api.listLinks());
    expect([err.status, err.message]).toEqual([401, MSG.notAuthenticated]);
  });

  it('pages the own links 10 at a time, newest or oldest first, with no gaps or repeats', async () => {
    const user = await signedInUser(ctx.server.url);
    const other = await signedInUser(ctx.server.url);
    await other.api.createLink({ title: 'Not mine', description: 'x' });
    const created: string[] = [];
    for (let i = 0; i < 23; i++) created.push((await user.api.createLink({ title: `Link ${i}`, description: 'x' })).id);
    // Equal timestamps are ordered by id: make some ties on purpose.
    await ctx.server.db.kysely
      .updateTable('links')
      .set({ created_at: '2026-01-01T00:00:00.000Z' })
      .where('id', 'in', created.slice(5, 12))
      .execute();

    const newest = await allPages(user, {});
    expect(newest.map((p) => p.length)).toEqual([10, 10, 3]);
    expect(new Set(ids(newest))).toEqual(new Set(created));
    const keys = newest.flat().map((l) => [l.createdAt, l.id].join(' '));
    expect(keys).toEqual([...keys].sort().reverse());

    const oldest = await allPages(user, { sort: 'oldest' });
    expect(ids(oldest)).toEqual(ids(newest).reverse());
  });

  it('answers an exactly full last page with hasMore false', async () => {
    const user = await signedInUser(ctx.server.url);
    for (let i = 0; i < FEED_PAGE_SIZE; i++) await user.api.createLink({ title: `L${i}`, description: 'x' });
    const page = await user.api.listLinks();
    expect([page.items.length, page.hasMore, page.nextCursor]).toEqual([FEED_PAGE_SIZE, false, null]);
    const empty = await (await signedInUser(ctx.server.url)).api.listLinks();
    expect(empty).toEqual({ items: [], nextCursor: null, hasMore: false });
  });

  it('sorts by most liked, then newest, across pages', async () => {
    const user = await signedInUser(ctx.server.url);
    const links = [];
    for (let i = 0; i < 14; i++) links.push(await user.api.createLink({ title: `L${i}`, description: 'x' }));
    for (const [i, link] of links.entries()) await backdate(ctx.server.db, link.id, i, i % 3);
    const pages = await allPages(user, { sort: 'most_liked' });
    expect(pages.map((p) => p.length)).toEqual([10, 4]);
    const got = pages.flat().map((l) => [l.likes, l.createdAt, l.id] as const);
    const expected = [...got].sort((a, b) => b[0] - a[0] || b[1].localeCompare(a[1]) || b[2].localeCompare(a[2]));
    expect(got).toEqual(expected);
    expect(got[0]?.[0]).toBe(2);
  });

  it("filters by scope: 'Shared by me' leaves out links kept off the main feed; 'My Reposts' only reposts", async () => {
    const user = await signedInUser(ctx.server.url);
    const friend = await signedInUser(ctx.server.url);
    const shown = await user.api.createLink({ title: 'Shown', description: 'x' });
    await user.api.createLink({ title: 'Hidden', description: 'x', inMainFeed: false });
    const theirs = await friend.api.createLink({ title: 'Theirs', description: 'x' });
    const repost = await user.api.repost(theirs.id);
    expect(ids(await allPages(user, { scope: 'mine' }))).toEqual([repost.id, shown.id]);
    expect(ids(await allPages(user, { scope: 'reposts' }))).toEqual([repost.id]);
  });

  it('filters by time window (24 h, 7 days, 30 days), format and topic', async () => {
    const user = await signedInUser(ctx.server.url);
    const make = async (title: string, daysAgo: number, extra: object = {}) => {
      const link = await user.api.createLink({ title, description: 'x', ...extra });
      await backdate(ctx.server.db, link.id, daysAgo);
      return link.id;
    };
    const fresh = await make('fresh', 0.5, { format: 'video', topicIds: ['ai'] });
    const days3 = await make('3 days', 3, { format: 'article', topicIds: ['ai', 'growth'] });
    const days20 = await make('20 days', 20, { format: 'video' });
    const days90 = await make('90 days', 90, { topicIds: ['growth'] });

    const list = async (query: LinkListQuery) => ids(await allPages(user, query));
    expect(await list({ window: 'today' })).toEqual([fresh]);
    expect(await list({ window: 'week' })).toEqual([fresh, days3]);
    expect(await list({ window: 'month' })).toEqual([fresh, days3, days20]);
    expect(await list({ window: 'all' })).toEqual([fresh, days3, days20, days90]);
    expect(await list({ format: 'video' })).toEqual([fresh, days20]);
    expect(await list({ topic: 'growth' })).toEqual([days3, days90]);
    expect(await list({ topic: 'growth', format: 'article', window: 'week', sort: 'most_liked' })).toEqual([days3]);
    expect(await list({ topic: 'no-such-topic' })).toEqual([]);
  });

  it('returns topics, likes and collections of every link on a page', async () => {
    const user = await signedInUser(ctx.server.url);
    const a = await user.api.createLink({ title: 'A', description: 'x', topicIds: ['ai', 'growth'] });
    const b = await user.api.createLink({ title: 'B', description: 'x', topicIds: ['marketing'] });
    await user.api.toggleLike(a.id);
    const { items } = await user.api.listLinks();
    expect(items.map((l) => [l.id, l.topicIds, l.liked, l.likes, l.canEdit])).toEqual([
      [b.id, ['marketing'], false, 0, true],
      [a.id, ['ai', 'growth'], true, 1, true],
    ]);
  });

  it('refuses a malformed cursor, or one from another sort, with 400', async () => {
    const user = await signedInUser(ctx.server.url);
    for (const query of [
      { cursor: 'not-a-cursor' },
      { cursor: Buffer.from('["newest", 1, 2]').toString('base64url') },
      { cursor: encodeCursor('newest', { created_at: '2026-01-01', id: 'x' }), sort: 'most_liked' as const },
    ]) {
      const err = await failure(user.api.listLinks(query));
      expect([err.status, err.message]).toEqual([400, LINK_MESSAGES.invalidCursor]);
    }
    const badSort = await failure(user.api.listLinks({ sort: 'random' as 'newest' }));
    expect(badSort.status).toBe(400);
  });

  it('reads every scope × sort as a range scan of its index, in index order (EXPLAIN)', async () => {
    const db = ctx.server.db;
    const expected = {
      mine: { newest: 'links_feed_created', oldest: 'links_feed_created', most_liked: 'links_feed_liked' },
      reposts: { newest: 'links_reposts_created', oldest: 'links_reposts_created', most_liked: 'links_reposts_liked' },
    } as const;
    // A format filter on a time sort reads the index that has the format in it (migration 0007).
    const withFormat = {
      mine: { ...expected.mine, newest: 'links_feed_format', oldest: 'links_feed_format' },
      reposts: { ...expected.reposts, newest: 'links_reposts_format', oldest: 'links_reposts_format' },
    } as const;
    for (const scope of ['mine', 'reposts'] as const) {
      for (const sort of ['newest', 'oldest', 'most_liked'] as const) {
        const cursor = encodeCursor(sort, { created_at: '2026-01-01T00:00:00.000Z', id: 'abc', likes_count: 3 });
        for (const extra of [{}, { cursor }, { format: 'video' as const, topic: 'ai', cursor }]) {
          const query = feedQuery(db.kysely, 'some-user', { scope, sort, window: 'all', ...extra }).compile();
          const plan = await explain(db, query);
          const label = `${scope} ${sort} ${JSON.stringify(extra)}\n${plan}`;
          const index = ('format' in extra ? withFormat : expected)[scope][sort];
          if (db.dialect === 'sqlite') {
            expect(plan, label).toContain(index);
            expect(plan, label).toMatch(new RegExp(`SEARCH links USING INDEX ${index} \\(user_id=\\?`));
            expect(plan, label).not.toContain('TEMP B-TREE');
          } else {
            // On the tiny test tables PostgreSQL may pick any index that serves the order, among
            // them links_user_created (user_id, created_at, id) for Shared by me by time.
            const servesOrder = [index, expected[scope][sort], ...(scope === 'mine' && sort !== 'most_liked' ? ['links_user_created'] : [])];
            expect(servesOrder.some((name) => plan.includes(name)), label).toBe(true);
            expect(plan, label).toMatch(/Index Scan/);
            expect(outerPlan(plan), label).not.toMatch(/\bSort\b/);
          }
          if ('cursor' in extra) expect(plan, label).toMatch(/\(likes_count, ?created_at, ?id\)|\(created_at, ?id\)/i);
        }
      }
    }
  });
});
