import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { FEED_PAGE_SIZE, LINK_MESSAGES, type Link, SUPERCURATION_MESSAGES as M } from '../../shared/domain';
import type { Db } from '../../server/db';
import { insertMembersQuery } from '../../server/services/memberships';
import { resourceQuery } from '../../server/services/resources';
import { pgSearchCondition, pgSearchText } from '../../server/db/search';
import { directoryQuery, sqliteSearchQuery } from '../../server/services/directory';
import { signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { createCollection, expectFailure, linksCount, memberCount, rowCount } from '../support/supercurations';
import { explain, outerPlan } from '../support/explain';

/**
 * A collection's resources in the order the API lists them: newest added first, and by link id
 * among those added in the same millisecond (the keyset's tie-break), read from the table.
 */
async function addedNewestFirst(db: Db, collectionId: string): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom('supercuration_links')
    .select(['link_id', 'created_at'])
    .where('supercuration_id', '=', collectionId)
    .orderBy('created_at', 'desc')
    .orderBy('link_id', 'desc')
    .execute();
  return rows.map((r) => r.link_id);
}

const newLink = (n: string | number, extra: Record<string, unknown> = {}) => ({
  title: `Link ${n}`,
  description: 'Worth it',
  url: `https://example.com/${n}`,
  ...extra,
});

describeEachDatabase('supercurations: resources and membership', (ctx) => {
  it('adds a saved link or a new link; links_count follows; a duplicate URL is refused with nothing written', async () => {
    const owner = await signedInUser(ctx.server.url);
    const c = await createCollection(owner);
    const saved = await owner.api.createLink(newLink('saved'));
    const added = await owner.api.addResource(c.id, { linkId: saved.id });
    expect(added.id).toBe(saved.id);
    expect(added.supercurationIds).toEqual([c.id]);
    expect(added.supercurationTags).toEqual({ [c.id]: [] });
    expect(await linksCount(ctx.server.db, c.id)).toBe(1);

    const fresh = await owner.api.addResource(c.id, { link: newLink('fresh', { inMainFeed: false, format: 'video' }) });
    expect([fresh.inMainFeed, fresh.format, fresh.supercurationIds]).toEqual([false, 'video', [c.id]]);
    expect(await linksCount(ctx.server.db, c.id)).toBe(2);

    const links = await rowCount(ctx.server.db, 'links');
    // The same link again, a new link with a URL already in it (also written differently), another user's copy.
    await expectFailure(owner.api.addResource(c.id, { linkId: saved.id }), 409, M.duplicateLink);
    await expectFailure(owner.api.addResource(c.id, { link: newLink('fresh') }), 409, M.duplicateLink);
    await expectFailure(owner.api.addResource(c.id, { link: newLink('x', { url: ' @example.com/fresh' }) }), 409, M.duplicateLink);
    const collaborator = await signedInUser(ctx.server.url);
    await owner.api.addCollaborator(c.id, collaborator.me.id);
    await expectFailure(collaborator.api.addResource(c.id, { link: newLink('saved') }), 409, M.duplicateLink);
    expect(await rowCount(ctx.server.db, 'links')).toBe(links);
    expect(await linksCount(ctx.server.db, c.id)).toBe(2);
    expect(await memberCount(ctx.server.db, c.id)).toBe(2);
  });

  it('reuses the link the user already shared with that URL instead of creating another', async () => {
    const owner = await signedInUser(ctx.server.url);
    const c1 = await createCollection(owner);
    const c2 = await createCollection(owner);
    const shared = await owner.api.createLink(newLink('reuse-me'));
    const links = await rowCount(ctx.server.db, 'links');
    const reused = await owner.api.addResource(c1.id, { link: newLink('other title', { url: 'example.com/reuse-me' }) });
    expect(reused.id).toBe(shared.id);
    expect(reused.title).toBe('Link reuse-me');
    expect(await rowCount(ctx.server.db, 'links')).toBe(links);
    // A new link may also go to further collections, in the same transaction.
    const both = await owner.api.addResource(c1.id, { link: newLink('both', { supercurationIds: [c2.id] }) });
    expect(both.supercurationIds.sort()).toEqual([c1.id, c2.id].sort());
    expect([await linksCount(ctx.server.db, c1.id), await linksCount(ctx.server.db, c2.id)]).toEqual([2, 1]);
  });

  it('answers a new resource exactly as the link reads back (author, avatar, topics, collections, rights)', async () => {
    const owner = await signedInUser(ctx.server.url, 'Owner Name');
    const collaborator = await signedInUser(ctx.server.url, 'Collaborator Name');
    const [c1, c2, c3] = [await createCollection(owner), await createCollection(owner), await createCollection(owner)];
    for (const c of [c1, c2, c3]) await owner.api.addCollaborator(c.id, collaborator.me.id);
    // An uploaded avatar is a key in the profile row; the answer's avatar URL must carry it.
    const k = ctx.server.db.kysely;
    await k.updateTable('profiles').set({ avatar_key: 'avatar-key-1' }).where('user_id', '=', collaborator.me.id).execute();
    const cases = [
      await collaborator.api.addResource(c2.id, {
        link: newLink('answered', { topicIds: ['growth', 'ai'], format: 'video', thumbnailUrl: 'https://img.example/a.png' }),
      }),
      await collaborator.api.addResource(c3.id, { link: newLink('answered-2', { supercurationIds: [c1.id, c2.id], inMainFeed: false, isOriginalContent: true }) }),
      await owner.api.addResource(c1.id, { link: { title: 'No URL', description: 'An original note' } }),
    ];
    for (const [added, reader] of [
      [cases[0], collaborator],
      [cases[1], collaborator],
      [cases[2], owner],
    ] as const) {
      expect(added).toEqual(await reader.api.getLink(added!.id));
    }
    expect(cases[0]!.user.avatarUrl).toContain('?v=avatar-key');
    expect(cases[1]!.supercurationIds).toHaveLength(3);
  });

  it("refuses other users' links, unknown links and collections, and bad input", async () => {
    const owner = await signedInUser(ctx.server.url);
    const other = await signedInUser(ctx.server.url);
    const c = await createCollection(owner);
    const theirs = await other.api.createLink(newLink('theirs'));
    await expectFailure(owner.api.addResource(c.id, { linkId: theirs.id }), 404, M.linkNotFound);
    await expectFailure(owner.api.addResource(c.id, { linkId: 'nope' }), 404, M.linkNotFound);
    await expectFailure(owner.api.addResource('missing', { link: newLink('m') }), 404, M.notFound);
    const links = await rowCount(ctx.server.db, 'links');
    await expectFailure(owner.api.addResource(c.id, {} as { linkId: string }), 400, LINK_MESSAGES.invalidLinkData);
    await expectFailure(owner.api.addResource(c.id, { link: { title: ' ', description: 'x' } }), 400, LINK_MESSAGES.invalidLinkData);
    await expectFailure(
      owner.api.addResource(c.id, { link: newLink('two', { supercurationIds: ['missing'] }) }),
      404,
      M.notFound,
    );
    expect(await rowCount(ctx.server.db, 'links')).toBe(links);
    expect(await linksCount(ctx.server.db, c.id)).toBe(0);
  });

  it('removes a resource with its tags in that collection only; links_count never goes below 0', async () => {
    const owner = await signedInUser(ctx.server.url);
    const c1 = await createCollection(owner);
    const c2 = await createCollection(owner);
    const link = await owner.api.createLink(newLink('tagged', { supercurationIds: [c1.id, c2.id] }));
    for (const c of [c1, c2]) {
      const category = await owner.api.createTagCategory(c.id);
      await owner.api.addTag(c.id, category.id, 'hot');
      await owner.api.setResourceTags(c.id, link.id, ['hot']);
    }
    expect((await owner.api.getLink(link.id)).supercurationTags).toEqual({ [c1.id]: ['hot'], [c2.id]: ['hot'] });
    await owner.api.removeResource(c1.id, link.id);
    const after = await owner.api.getLink(link.id);
    expect(after.supercurationIds).toEqual([c2.id]);
    expect(after.supercurationTags).toEqual({ [c2.id]: ['hot'] });
    const leftover = await ctx.server.db.kysely
      .selectFrom('supercuration_link_tags')
      .select('tag_id')
      .where('supercuration_id', '=', c1.id)
      .execute();
    expect(leftover).toEqual([]);
    expect(await linksCount(ctx.server.db, c1.id)).toBe(0);
    await expectFailure(owner.api.removeResource(c1.id, link.id), 404, M.linkNotFound);
    await expectFailure(owner.api.removeResource(c1.id, 'never-there'), 404, M.linkNotFound);
    await expectFailure(owner.api.removeResource('missing', link.id), 404, M.notFound);
    // Even a counter that drifted to 0 stays at 0.
    await ctx.server.db.kysely.updateTable('supercurations').set({ links_count: 0 }).where('id', '=', c2.id).execute();
    await owner.api.removeResource(c2.id, link.id);
    expect(await linksCount(ctx.server.db, c2.id)).toBe(0);
  });

  it('sharing a link into several collections at once is one transaction, and the duplicate-URL rule holds there', async () => {
    const owner = await signedInUser(ctx.server.url);
    const c1 = await createCollection(owner);
    const c2 = await createCollection(owner);
    await owner.api.createLink(newLink('once', { supercurationIds: [c1.id] }));
    const links = await rowCount(ctx.server.db, 'links');
    await expectFailure(owner.api.createLink(newLink('once', { supercurationIds: [c2.id, c1.id] })), 409, M.duplicateLink);
    expect(await rowCount(ctx.server.db, 'links')).toBe(links);
    expect([await linksCount(ctx.server.db, c1.id), await linksCount(ctx.server.db, c2.id)]).toEqual([1, 0]);
    // Editing a link into a collection that has its URL, or giving it a URL one of its collections has, is refused too.
    const other = await owner.api.createLink(newLink('once-copy', { url: 'https://example.com/once' }));
    await expectFailure(owner.api.updateLink(other.id, { supercurationIds: [c1.id] }), 409, M.duplicateLink);
    const inC2 = await owner.api.createLink(newLink('in-c2', { supercurationIds: [c2.id, c1.id] }));
    expect(inC2.supercurationIds.length).toBe(2);
    await expectFailure(owner.api.updateLink(inC2.id, { url: 'https://example.com/once' }), 409, M.duplicateLink);
    expect((await owner.api.getLink(inC2.id)).url).toBe('https://example.com/in-c2');
  });

  it('keeps links_count equal to the member rows under many concurrent adds and removes', async () => {
    const owner = await signedInUser(ctx.server.url);
    const helper = await signedInUser(ctx.server.url);
    const c = await createCollection(owner);
    await owner.api.addCollaborator(c.id, helper.me.id);
    const mine = await Promise.all(Array.from({ length: 12 }, (_, i) => owner.api.createLink(newLink(`race-${i}`))));
    const ops: Promise<unknown>[] = [];
    for (let round = 0; round < 3; round += 1) {
      for (const [i, link] of mine.entries()) {
        ops.push(owner.api.addResource(c.id, { linkId: link.id }));
        if ((i + round) % 2 === 0) ops.push(owner.api.removeResource(c.id, link.id));
        // The helper races to add new links with the same URLs.
        if (i % 3 === round) ops.push(helper.api.addResource(c.id, { link: newLink(`race-${i}`) }));
      }
    }
    const results = await Promise.allSettled(ops);
    for (const r of results) {
      if (r.status === 'rejected') expect([409, 404]).toContain(r.reason.status);
    }
    const members = await memberCount(ctx.server.db, c.id);
    expect(await linksCount(ctx.server.db, c.id)).toBe(members);
    // No URL twice in the collection.
    const urls = await ctx.server.db.kysely
      .selectFrom('supercuration_links as sl')
      .innerJoin('links as l', 'l.id', 'sl.link_id')
      .select('l.url')
      .where('sl.supercuration_id', '=', c.id)
      .execute();
    expect(new Set(urls.map((u) => u.url)).size).toBe(urls.length);
  });

  it('lets one of several editors adding one new URL at once have it, and refuses the others', async () => {
    const owner = await signedInUser(ctx.server.url);
    const editors = [owner, ...(await Promise.all(Array.from({ length: 3 }, () => signedInUser(ctx.server.url))))];
    const c = await createCollection(owner);
    for (const editor of editors.slice(1)) await owner.api.addCollaborator(c.id, editor.me.id);
    const links = await rowCount(ctx.server.db, 'links');
    for (const round of [0, 1, 2]) {
      const results = await Promise.allSettled(
        editors.flatMap((editor) => [0, 1].map(() => editor.api.addResource(c.id, { link: newLink(`same-url-${round}`) }))),
      );
      const added = results.filter((r) => r.status === 'fulfilled');
      expect(added).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected') expect([r.reason.status, r.reason.message]).toEqual([409, M.duplicateLink]);
      }
    }
    expect(await memberCount(ctx.server.db, c.id)).toBe(3);
    expect(await linksCount(ctx.server.db, c.id)).toBe(3);
    // A refused add writes no link.
    expect(await rowCount(ctx.server.db, 'links')).toBe(links + 3);
  });

  it('tags resources with the tags of the collection only', async () => {
    const owner = await signedInUser(ctx.server.url);
    const c = await createCollection(owner);
    const other = await createCollection(owner);
    const link = await owner.api.addResource(c.id, { link: newLink('to-tag') });
    const category = await owner.api.createTagCategory(c.id);
    await owner.api.addTag(c.id, category.id, 'alpha');
    await owner.api.addTag(c.id, category.id, 'beta');
    const elsewhere = await owner.api.createTagCategory(other.id);
    await owner.api.addTag(other.id, elsewhere.id, 'gamma');

    const tagged = await owner.api.setResourceTags(c.id, link.id, ['beta', 'alpha', 'beta']);
    expect(tagged.supercurationTags[c.id]).toEqual(['alpha', 'beta']);
    await expectFailure(owner.api.setResourceTags(c.id, link.id, ['alpha', 'gamma']), 400, M.unknownTags);
    await expectFailure(owner.api.setResourceTags(c.id, link.id, [' ']), 400, M.tagNameRequired);
    expect((await owner.api.getLink(link.id)).supercurationTags[c.id]).toEqual(['alpha', 'beta']);
    await expectFailure(owner.api.setResourceTags(other.id, link.id, ['gamma']), 404, M.linkNotFound);
    const cleared = await owner.api.setResourceTags(c.id, link.id, []);
    expect(cleared.supercurationTags[c.id]).toEqual([]);
  });

  it('lists resources with tag, time, format and sort filters in keyset pages, hidden-from-feed links included', async () => {
    const owner = await signedInUser(ctx.server.url);
    const fan = await signedInUser(ctx.server.url);
    const c = await createCollection(owner, { isPublic: true });
    const category = await owner.api.createTagCategory(c.id);
    await owner.api.addTag(c.id, category.id, 'pick');
    const added: Link[] = [];
    for (let i = 0; i < FEED_PAGE_SIZE + 3; i += 1) {
      added.push(
        await owner.api.addResource(c.id, {
          link: newLink(`res-${i}`, { format: i % 2 ? 'video' : 'article', inMainFeed: i !== 0 }),
        }),
      );
    }
    for (const i of [1, 2, 3]) await owner.api.setResourceTags(c.id, added[i]!.id, ['pick']);
    for (const i of [5, 7]) await fan.api.toggleLike(added[i]!.id);
    await (await signedInUser(ctx.server.url)).api.toggleLike(added[5]!.id);
    const visitor = testClient(ctx.server.url).api;

    const all: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await visitor.listResources(c.id, { cursor });
      all.push(...page.items.map((l) => l.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const newest = await addedNewestFirst(ctx.server.db, c.id);
    expect(newest).toHaveLength(added.length);
    expect(all).toEqual(newest);

    const oldest = await visitor.listResources(c.id, { sort: 'oldest' });
    expect(oldest.items.map((l) => l.id)).toEqual([...newest].reverse().slice(0, FEED_PAGE_SIZE));
    expect(oldest.items.find((l) => l.id === added[0]?.id)?.inMainFeed).toBe(false);
    const liked = await visitor.listResources(c.id, { sort: 'most_liked' });
    expect(liked.items.slice(0, 2).map((l) => l.id)).toEqual([added[5]?.id, added[7]?.id]);
    const likedNext = await visitor.listResources(c.id, { sort: 'most_liked', cursor: liked.nextCursor as string });
    expect(new Set([...liked.items, ...likedNext.items].map((l) => l.id)).size).toBe(added.length);

    const picked = await visitor.listResources(c.id, { tag: 'pick' });
    const pickedIds = [1, 2, 3].map((i) => added[i]?.id);
    expect(picked.items.map((l) => l.id)).toEqual(newest.filter((id) => pickedIds.includes(id)));
    expect((await visitor.listResources(c.id, { tag: 'none' })).items).toEqual([]);
    const videos = await visitor.listResources(c.id, { format: 'video' });
    expect(videos.items.every((l) => l.format === 'video')).toBe(true);
    expect(videos.items).toHaveLength(6);
    expect((await visitor.listResources(c.id, { window: 'today' })).items).toHaveLength(FEED_PAGE_SIZE);
    // Added long ago: outside today's window.
    await ctx.server.db.kysely
      .updateTable('supercuration_links')
      .set({ created_at: '2020-01-01T00:00:00.000Z' })
      .where('supercuration_id', '=', c.id)
      .execute();
    expect((await visitor.listResources(c.id, { window: 'month' })).items).toEqual([]);

    await expectFailure(visitor.listResources(c.id, { cursor: 'bad' }), 400, LINK_MESSAGES.invalidCursor);
    await expectFailure(
      visitor.listResources(c.id, { sort: 'oldest', cursor: liked.nextCursor as string }),
      400,
      LINK_MESSAGES.invalidCursor,
    );
    const priv = await createCollection(owner);
    await expectFailure(visitor.listResources(priv.id), 404, M.notFound);
    await expectFailure(fan.api.listResources(priv.id), 404, M.notFound);
    expect((await owner.api.listResources(priv.id)).items).toEqual([]);
  });

  it("a link's supercurationIds and tags show only the collections the viewer may see", async () => {
    const owner = await signedInUser(ctx.server.url);
    const pub = await createCollection(owner, { isPublic: true });
    const priv = await createCollection(owner);
    const link = await owner.api.createLink(newLink('visible', { supercurationIds: [pub.id, priv.id] }));
    expect(link.supercurationIds.sort()).toEqual([pub.id, priv.id].sort());
    const seenByVisitor = await testClient(ctx.server.url).api.getLink(link.id);
    expect(seenByVisitor.supercurationIds).toEqual([pub.id]);
    expect(Object.keys(seenByVisitor.supercurationTags)).toEqual([pub.id]);
    const collaborator = await signedInUser(ctx.server.url);
    await owner.api.addCollaborator(priv.id, collaborator.me.id);
    expect((await collaborator.api.getLink(link.id)).supercurationIds.sort()).toEqual([pub.id, priv.id].sort());
  });

  it('the Add New Resource search finds saved links by words of title or description', async () => {
    const owner = await signedInUser(ctx.server.url);
    await owner.api.createLink(newLink('a', { title: 'Deep Learning notes', description: 'x' }));
    await owner.api.createLink(newLink('b', { title: 'Cooking', description: 'Learning to bake 100% bread' }));
    await owner.api.createLink(newLink('c', { title: 'Gardening', description: 'x' }));
    const titles = async (q: string) => (await owner.api.listLinks({ q })).items.map((l) => l.title).sort();
    expect(await titles('learning')).toEqual(['Cooking', 'Deep Learning notes']);
    expect(await titles('LEARN deep')).toEqual(['Deep Learning notes']);
    expect(await titles('100%')).toEqual(['Cooking']);
    expect(await titles('_')).toEqual([]);
  });

  it('reads resources and directory pages from indexes (EXPLAIN)', async () => {
    const db = ctx.server.db;
    for (const sort of ['newest', 'oldest'] as const) {
      const plan = await explain(db, resourceQuery(db.kysely, null, 'c', { sort, window: 'all' }).compile());
      if (db.dialect === 'sqlite') {
        expect(plan, plan).toContain('supercuration_links_collection_created');
        expect(plan, plan).not.toContain('TEMP B-TREE');
      } else {
        expect(plan, plan).toContain('supercuration_links_collection_created');
        expect(outerPlan(plan), plan).not.toMatch(/\bSort\b/);
      }
    }
    if (db.dialect === 'sqlite') {
      // The FTS5 table drives in rowid order (no sort of the hits), then each hit's collection by rowid.
      const compiled = sqliteSearchQuery(['growth', 'ideas'], 'ia', undefined, 24).compile(db.kysely);
      const plan = await explain(db, compiled);
      expect(plan, plan).toMatch(/SCAN supercurations_search VIRTUAL TABLE INDEX \d+:M/);
      expect(plan, plan).toMatch(/SEARCH s USING INTEGER PRIMARY KEY \(rowid=\?\)/);
      expect(plan, plan).not.toContain('TEMP B-TREE');
    } else {
      // A rare word's hits come from directory_hits, whose query runs with sequential scans off;
      // then only an index can find the words: it is the GIN index on search_doc.
      const { rows } = await sql<{ proconfig: string[] }>`select proconfig from pg_proc where proname = 'directory_hits'`.execute(db.kysely);
      expect(rows).toEqual([{ proconfig: ['enable_seqscan=off'] }]);
      const match = pgSearchCondition(pgSearchText(['growth', 'ideas']));
      const compiled = sql`select s.id from supercurations s where ${match}`.compile(db.kysely);
      const plan = await explain(db, compiled, true);
      expect(plan, plan).toMatch(/Bitmap Index Scan on supercurations_search/);
    }
    const plain = await explain(db, (directoryQuery(db.kysely, {}) as NonNullable<ReturnType<typeof directoryQuery>>).compile());
    expect(plain, plain).toContain('supercurations_public_created');
  });

  it("checks an added link's URL against the collection from the URL's few links, not through every resource (EXPLAIN)", async () => {
    const db = ctx.server.db;
    const insert = insertMembersQuery(db.kysely, { link: 'l', user: 'u', at: 't', id0: 'c', url: 'https://example.com/a' }, '1 url').compile();
    const plan = await explain(db, insert);
    if (db.dialect === 'sqlite') {
      expect(plan, plan).toMatch(/SEARCH l USING (COVERING )?INDEX links_url_user \(url=\?\)/);
      expect(plan, plan).toMatch(/SEARCH sl USING COVERING INDEX \w+ \(supercuration_id=\? AND link_id=\?\)/);
    } else {
      expect(plan, plan).toContain('links_url_user');
      expect(plan, plan).not.toContain('supercuration_links_collection_created');
    }
  });
});
