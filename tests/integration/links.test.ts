import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { type CreateLinkInput, LINK_MESSAGES } from '../../shared/domain';
import type { Db } from '../../server/db';
import { failure, http, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

const sample = (extra: Partial<CreateLinkInput> = {}): CreateLinkInput => ({
  title: 'A good read',
  description: 'Worth your time',
  url: 'https://example.com/read',
  ...extra,
});

/** A collection made straight in the database (its own API comes with the supercurations issue). */
async function collection(db: Db, ownerId: string, isPublic = false): Promise<string> {
  const id = randomBytes(8).toString('hex');
  const at = new Date().toISOString();
  await db.kysely
    .insertInto('supercurations')
    .values({ id, user_id: ownerId, title: `Collection ${id}`, description: '', is_public: isPublic ? 1 : 0, slug: isPublic ? `s-${id}` : null, created_at: at, updated_at: at })
    .execute();
  return id;
}

async function linksCount(db: Db, id: string): Promise<number> {
  const row = await db.kysely.selectFrom('supercurations').select('links_count').where('id', '=', id).executeTakeFirstOrThrow();
  return row.links_count;
}

async function count(db: Db, table: 'links' | 'link_topics' | 'supercuration_links'): Promise<number> {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDatabase('links: sharing, editing, deleting', (ctx) => {
  it('shares a link: normalised URL, defaults, author, and what the viewer may do', async () => {
    const author = await signedInUser(ctx.server.url, 'Ada Author');
    const link = await author.api.createLink({
      title: '  Spaced title ',
      description: 'Some text',
      url: '  @example.com/article ',
      thumbnailUrl: '',
      format: 'article',
      topicIds: ['ai', 'growth', 'ai'],
      isOriginalContent: true,
    });
    expect(link).toMatchObject({
      title: 'Spaced title',
      url: 'https://example.com/article',
      thumbnailUrl: null,
      linkText: 'Visit Link',
      format: 'article',
      topicIds: ['ai', 'growth'],
      isOriginalContent: true,
      originalPostId: null,
      inMainFeed: true,
      likes: 0,
      repostsCount: 0,
      liked: false,
      user: { id: author.me.id, name: 'Ada Author', avatarUrl: author.me.avatarUrl },
      supercurationIds: [],
      supercurationTags: {},
      canEdit: true,
      canDelete: true,
    });
    expect(link.createdAt).toBe(link.updatedAt);

    const seenByVisitor = await testClient(ctx.server.url).api.getLink(link.id);
    expect(seenByVisitor).toMatchObject({ id: link.id, title: 'Spaced title', canEdit: false, canDelete: false, liked: false });
    const seenByOther = await (await signedInUser(ctx.server.url)).api.getLink(link.id);
    expect(seenByOther).toMatchObject({ canEdit: false, canDelete: false });
  });

  it("answers 'Link not found' for an unknown id", async () => {
    const err = await failure(testClient(ctx.server.url).api.getLink('no-such-link'));
    expect([err.status, err.message]).toEqual([404, LINK_MESSAGES.linkNotFound]);
  });

  it("refuses a visitor: 'Must be logged in to share links', nothing written", async () => {
    const before = await count(ctx.server.db, 'links');
    const err = await failure(testClient(ctx.server.url).api.createLink(sample()));
    expect([err.status, err.message]).toEqual([401, LINK_MESSAGES.mustLogInToShare]);
    expect(await count(ctx.server.db, 'links')).toBe(before);
  });

  it('refuses bad input with 4xx and writes nothing', async () => {
    const user = await signedInUser(ctx.server.url);
    const before = await count(ctx.server.db, 'links');
    const cases: [unknown, number, string][] = [
      [{ title: 42, description: 'x' }, 400, LINK_MESSAGES.invalidLinkData],
      [{ title: 'x', description: ['not', 'a', 'string'] }, 400, LINK_MESSAGES.invalidLinkData],
      [{ title: '   ', description: 'x' }, 400, LINK_MESSAGES.invalidLinkData],
      [{ description: 'x' }, 400, LINK_MESSAGES.invalidLinkData],
      [{ title: 'x', description: 'x', url: 'javascript:alert(1)' }, 400, LINK_MESSAGES.onlyHttpUrls],
      [{ title: 'x', description: 'x', thumbnailUrl: 'data:image/png;base64,AAAA' }, 400, LINK_MESSAGES.onlyHttpUrls],
      [{ title: 'x', description: 'x', format: 'poem' }, 400, ''],
      [{ title: 'x', description: 'x', topicIds: ['no-such-topic'] }, 400, LINK_MESSAGES.topicNotFound],
      [{ title: 'x', description: 'x', supercurationIds: ['no-such-collection'] }, 404, LINK_MESSAGES.supercurationNotFound],
      [[], 400, LINK_MESSAGES.invalidLinkData],
    ];
    for (const [body, status, message] of cases) {
      const err = await failure(user.api.createLink(body as CreateLinkInput));
      expect(err.status, JSON.stringify(body)).toBe(status);
      if (message) expect(err.message, JSON.stringify(body)).toBe(message);
    }
    const huge = await user.fetch(`${ctx.server.url}/api/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x', description: 'y'.repeat(10 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(await count(ctx.server.db, 'links')).toBe(before);
  });

  it('lets the author edit: fields, topics replaced, updated_at stamped; empty optional fields cleared', async () => {
    const author = await signedInUser(ctx.server.url);
    const link = await author.api.createLink(sample({ topicIds: ['ai', 'growth'], thumbnailUrl: 'https://img.example/a.png' }));
    await new Promise((r) => setTimeout(r, 5));
    const edited = await author.api.updateLink(link.id, {
      title: 'New title',
      topicIds: ['marketing'],
      format: 'video',
      thumbnailUrl: '',
      linkText: 'Watch',
    });
    expect(edited).toMatchObject({
      title: 'New title',
      description: sample().description,
      topicIds: ['marketing'],
      format: 'video',
      thumbnailUrl: null,
      linkText: 'Watch',
      createdAt: link.createdAt,
    });
    expect(edited.updatedAt > link.updatedAt).toBe(true);
    const badTopic = await failure(author.api.updateLink(link.id, { topicIds: ['nope'] }));
    expect([badTopic.status, badTopic.message]).toEqual([400, LINK_MESSAGES.topicNotFound]);
    const badUrl = await failure(author.api.updateLink(link.id, { url: 'javascript:alert(1)' }));
    expect(badUrl.status).toBe(400);
    const badTitle = await failure(author.api.updateLink(link.id, { title: 7 as unknown as string }));
    expect([badTitle.status, badTitle.message]).toEqual([400, LINK_MESSAGES.invalidLinkData]);
    expect(await author.api.getLink(link.id)).toMatchObject({ title: 'New title', topicIds: ['marketing'], url: sample().url });
  });

  it('refuses edits by a visitor (401) and by another user (403), changing nothing', async () => {
    const author = await signedInUser(ctx.server.url);
    const other = await signedInUser(ctx.server.url);
    const link = await author.api.createLink(sample());
    const anon = await failure(testClient(ctx.server.url).api.updateLink(link.id, { title: 'Hacked' }));
    expect([anon.status, anon.message]).toEqual([401, LINK_MESSAGES.mustLogInToUpdate]);
    const stranger = await failure(other.api.updateLink(link.id, { title: 'Hacked' }));
    expect([stranger.status, stranger.message]).toEqual([403, LINK_MESSAGES.cannotEditLink]);
    const missing = await failure(other.api.updateLink('no-such-link', { title: 'x' }));
    expect(missing.status).toBe(404);
    expect(await author.api.getLink(link.id)).toEqual({ ...link });
  });

  it('lets the owner and the collaborators of a collection containing the link edit it, not delete it', async () => {
    const author = await signedInUser(ctx.server.url);
    const owner = await signedInUser(ctx.server.url);
    const helper = await signedInUser(ctx.server.url);
    const db = ctx.server.db;
    const shelf = await collection(db, owner.me.id);
    await db.kysely
      .insertInto('collaborators')
      .values({ supercuration_id: shelf, user_id: helper.me.id, created_at: new Date().toISOString() })
      .execute();
    const link = await author.api.createLink(sample());
    await db.kysely
      .insertInto('supercuration_links')
      .values({ supercuration_id: shelf, link_id: link.id, added_by: owner.me.id, created_at: new Date().toISOString() })
      .execute();

    expect(await owner.api.getLink(link.id)).toMatchObject({ canEdit: true, canDelete: false, supercurationIds: [shelf] });
    expect(await helper.api.getLink(link.id)).toMatchObject({ canEdit: true, canDelete: false });
    // A private collection is not shown to others, and gives them no rights.
    expect(await testClient(ctx.server.url).api.getLink(link.id)).toMatchObject({ canEdit: false, supercurationIds: [] });
    expect((await author.api.getLink(link.id)).supercurationIds).toEqual([]);

    expect((await owner.api.updateLink(link.id, { title: 'By owner' })).title).toBe('By owner');
    expect((await helper.api.updateLink(link.id, { format: 'tool' })).format).toBe('tool');
    const del = await failure(owner.api.deleteLink(link.id));
    expect([del.status, del.message]).toEqual([403, LINK_MESSAGES.onlyOwnLinksDeleted]);
  });

  it("deletes only the creator's own links", async () => {
    const author = await signedInUser(ctx.server.url);
    const other = await signedInUser(ctx.server.url);
    const link = await author.api.createLink(sample({ topicIds: ['ai'] }));
    await other.api.toggleLike(link.id);
    const anon = await failure(testClient(ctx.server.url).api.deleteLink(link.id));
    expect([anon.status, anon.message]).toEqual([401, LINK_MESSAGES.mustLogInToDelete]);
    const stranger = await failure(other.api.deleteLink(link.id));
    expect([stranger.status, stranger.message]).toEqual([403, LINK_MESSAGES.onlyOwnLinksDeleted]);
    expect((await author.api.getLink(link.id)).likes).toBe(1);

    await author.api.deleteLink(link.id);
    const gone = await failure(author.api.getLink(link.id));
    expect([gone.status, gone.message]).toEqual([404, LINK_MESSAGES.linkNotFound]);
    const again = await failure(author.api.deleteLink(link.id));
    expect([again.status, again.message]).toEqual([404, LINK_MESSAGES.linkNotFound]);
    const leftovers = await ctx.server.db.kysely.selectFrom('likes').select('user_id').where('link_id', '=', link.id).execute();
    expect(leftovers).toEqual([]);
  });

  it('shares into collections in one transaction: links_count +1 each, -1 on delete, never below 0', async () => {
    const db = ctx.server.db;
    const me = await signedInUser(ctx.server.url);
    const friend = await signedInUser(ctx.server.url);
    const mine = await collection(db, me.me.id, true);
    const shared = await collection(db, friend.me.id);
    await db.kysely
      .insertInto('collaborators')
      .values({ supercuration_id: shared, user_id: me.me.id, created_at: new Date().toISOString() })
      .execute();
    const foreign = await collection(db, friend.me.id, true);

    const link = await me.api.createLink(sample({ supercurationIds: [mine, shared], inMainFeed: false }));
    expect(link.supercurationIds.sort()).toEqual([mine, shared].sort());
    expect(link.supercurationTags).toEqual({ [mine]: [], [shared]: [] });
    expect(link.inMainFeed).toBe(false);
    expect([await linksCount(db, mine), await linksCount(db, shared)]).toEqual([1, 1]);
    // The visitor sees only the public one.
    expect((await testClient(ctx.server.url).api.getLink(link.id)).supercurationIds).toEqual([mine]);

    const links = await count(db, 'links');
    const memberships = await count(db, 'supercuration_links');
    const refused = await failure(me.api.createLink(sample({ supercurationIds: [mine, foreign] })));
    expect([refused.status, refused.message]).toEqual([404, LINK_MESSAGES.supercurationNotFound]);
    expect([await count(db, 'links'), await count(db, 'supercuration_links'), await linksCount(db, mine)]).toEqual([
      links,
      memberships,
      1,
    ]);

    // Editing the set: leave `shared`, join nothing foreign.
    const moved = await me.api.updateLink(link.id, { supercurationIds: [mine] });
    expect(moved.supercurationIds).toEqual([mine]);
    expect([await linksCount(db, mine), await linksCount(db, shared)]).toEqual([1, 0]);
    const sneaky = await failure(me.api.updateLink(link.id, { supercurationIds: [mine, foreign] }));
    expect(sneaky.status).toBe(404);

    await db.kysely.updateTable('supercurations').set({ links_count: 0 }).where('id', '=', mine).execute();
    await me.api.deleteLink(link.id);
    expect(await linksCount(db, mine)).toBe(0);
  });

  it('shows collection tags for the collections the viewer may see', async () => {
    const db = ctx.server.db;
    const me = await signedInUser(ctx.server.url);
    const shelf = await collection(db, me.me.id, true);
    const link = await me.api.createLink(sample({ supercurationIds: [shelf] }));
    const category = randomBytes(6).toString('hex');
    await db.kysely.insertInto('tag_categories').values({ id: category, supercuration_id: shelf, name: 'Level', color: '#2563eb', position: 0 }).execute();
    for (const name of ['beginner', 'advanced']) {
      const tag = randomBytes(6).toString('hex');
      await db.kysely.insertInto('tags').values({ id: tag, category_id: category, name }).execute();
      await db.kysely.insertInto('supercuration_link_tags').values({ supercuration_id: shelf, link_id: link.id, tag_id: tag }).execute();
    }
    expect((await testClient(ctx.server.url).api.getLink(link.id)).supercurationTags).toEqual({
      [shelf]: ['advanced', 'beginner'],
    });
  });

  it("names a missing author 'Unknown User'", async () => {
    const author = await signedInUser(ctx.server.url);
    const link = await author.api.createLink(sample());
    await ctx.server.db.kysely.updateTable('user').set({ name: '' }).where('id', '=', author.me.id).execute();
    expect((await author.api.getLink(link.id)).user.name).toBe('Unknown User');
  });

  it('refuses a cookie-authenticated write from another origin', async () => {
    const user = await signedInUser(ctx.server.url);
    const before = await count(ctx.server.db, 'links');
    const res = await http(`${ctx.server.url}/api/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie: user.cookieHeader() },
      body: JSON.stringify(sample()),
    });
    expect(res.status).toBe(403);
    expect(await count(ctx.server.db, 'links')).toBe(before);
  });
});
