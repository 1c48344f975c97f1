import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { type BatchItemInput, IMPORT_MESSAGES, LINK_MESSAGES } from '../../shared/domain';
import type { Db } from '../../server/db';
import { failure, http, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

const items = (n: number, prefix = 'p'): BatchItemInput[] =>
  Array.from({ length: n }, (_, i) => ({
    url: `example.com/${prefix}/${i}`,
    title: `Found ${i}`,
    description: `Preview of item ${i}`,
    thumbnailUrl: i % 2 === 0 ? `https://images.example.com/${i}.png` : null,
  }));

/** A collection made straight in the database, so this suite depends only on the links API. */
async function collection(db: Db, ownerId: string, isPublic = false): Promise<string> {
  const id = randomBytes(8).toString('hex');
  const at = new Date().toISOString();
  await db.kysely
    .insertInto('supercurations')
    .values({
      id,
      user_id: ownerId,
      title: `Collection ${id}`,
      description: '',
      is_public: isPublic ? 1 : 0,
      slug: isPublic ? `c-${id}` : null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

async function linksCount(db: Db, id: string): Promise<number> {
  const row = await db.kysely.selectFrom('supercurations').select('links_count').where('id', '=', id).executeTakeFirstOrThrow();
  return Number(row.links_count);
}

async function members(db: Db, id: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('supercuration_links')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('supercuration_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function linksOf(db: Db, userId: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('links')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDatabase('links: batch share (POST /api/links/batch)', (ctx) => {
  it('shares every item with the format and collections, in order, with memberships and links_count', async () => {
    const db = ctx.server.db;
    const me = await signedInUser(ctx.server.url);
    const shelf = await collection(db, me.me.id);
    const other = await collection(db, me.me.id, true);

    const { links } = await me.api.shareLinks({ items: items(3), supercurationIds: [shelf, other, shelf], format: 'article' });
    expect(links.map((l) => [l.url, l.title, l.description, l.thumbnailUrl])).toEqual([
      ['https://example.com/p/0', 'Found 0', 'Preview of item 0', 'https://images.example.com/0.png'],
      ['https://example.com/p/1', 'Found 1', 'Preview of item 1', null],
      ['https://example.com/p/2', 'Found 2', 'Preview of item 2', 'https://images.example.com/2.png'],
    ]);
    for (const link of links) {
      expect(link).toMatchObject({ format: 'article', inMainFeed: true, linkText: 'Visit Link', user: { id: me.me.id } });
      expect([...link.supercurationIds].sort()).toEqual([shelf, other].sort());
    }
    expect([await linksCount(db, shelf), await members(db, shelf), await linksCount(db, other), await members(db, other)]).toEqual([
      3, 3, 3, 3,
    ]);
    const feed = await me.api.listLinks();
    expect(feed.items.map((l) => l.url).sort()).toEqual(links.map((l) => l.url).sort());
  });

  it("'Don't add to main feed' keeps the links out of My Feed but in their collection", async () => {
    const db = ctx.server.db;
    const me = await signedInUser(ctx.server.url);
    const shelf = await collection(db, me.me.id);
    const { links } = await me.api.shareLinks({ items: items(2, 'hidden'), supercurationIds: [shelf], inMainFeed: false });
    expect(links.map((l) => [l.inMainFeed, l.supercurationIds])).toEqual([
      [false, [shelf]],
      [false, [shelf]],
    ]);
    expect((await me.api.listLinks()).items).toEqual([]);
    expect(await members(db, shelf)).toBe(2);
    expect(await linksCount(db, shelf)).toBe(2);
    const inShelf = await db.kysely
      .selectFrom('supercuration_links')
      .select('link_id')
      .where('supercuration_id', '=', shelf)
      .execute();
    expect(inShelf.map((r) => r.link_id).sort()).toEqual(links.map((l) => l.id).sort());
  });

  it('keeps links shared only into private collections out of the main feed unless the batch says otherwise', async () => {
    const db = ctx.server.db;
    const me = await signedInUser(ctx.server.url);
    const secret = await collection(db, me.me.id);
    const alsoSecret = await collection(db, me.me.id);
    const open = await collection(db, me.me.id, true);
    const inMainFeed = async (body: Omit<Parameters<typeof me.api.shareLinks>[0], 'items'>, prefix: string) => {
      const { links } = await me.api.shareLinks({ items: items(2, prefix), ...body });
      return links.map((l) => l.inMainFeed);
    };
    expect(await inMainFeed({ supercurationIds: [secret, alsoSecret] }, 'private')).toEqual([false, false]);
    expect(await inMainFeed({ supercurationIds: [secret, open] }, 'mixed')).toEqual([true, true]);
    expect(await inMainFeed({}, 'none')).toEqual([true, true]);
    expect(await inMainFeed({ supercurationIds: [], format: 'article' }, 'empty')).toEqual([true, true]);
    expect(await inMainFeed({ supercurationIds: [secret], inMainFeed: true }, 'asked')).toEqual([true, true]);
    expect(await inMainFeed({ supercurationIds: [open], inMainFeed: false }, 'hidden')).toEqual([false, false]);
    // What a visitor can read follows: only the links in the main feed or a public collection.
    const visitor = testClient(ctx.server.url);
    const { items: mine } = await me.api.listLinks();
    expect(mine).toHaveLength(8);
    const privateLinks = await db.kysely.selectFrom('links').select('id').where('user_id', '=', me.me.id).where('in_main_feed', '=', 0).execute();
    for (const { id } of privateLinks) {
      const link = await me.api.getLink(id);
      const seen = await visitor.api.getLink(id).then(
        () => true,
        () => false,
      );
      expect(seen).toBe(link.supercurationIds.includes(open));
    }
  });

  it('enforces the batch rule of SPEC §5 on the server', async () => {
    const me = await signedInUser(ctx.server.url);
    const refused = await failure(me.api.shareLinks({ items: items(2), inMainFeed: false }));
    expect([refused.status, refused.message, refused.code]).toEqual([400, IMPORT_MESSAGES.batchRule, 'BATCH_RULE']);
    const noneEither = await failure(me.api.shareLinks({ items: items(1), inMainFeed: false, supercurationIds: [], format: null }));
    expect(noneEither.message).toBe(IMPORT_MESSAGES.batchRule);
    expect(await linksOf(ctx.server.db, me.me.id)).toBe(0);

    // A format is enough, and so is the main feed (the default).
    const withFormat = await me.api.shareLinks({ items: items(1, 'f'), inMainFeed: false, format: 'video' });
    expect(withFormat.links[0]).toMatchObject({ format: 'video', inMainFeed: false });
    const toFeed = await me.api.shareLinks({ items: items(1, 'm') });
    expect(toFeed.links[0]).toMatchObject({ format: null, inMainFeed: true, supercurationIds: [] });
  });

  it('reports a bad item by its index and writes nothing', async () => {
    const db = ctx.server.db;
    const me = await signedInUser(ctx.server.url);
    const shelf = await collection(db, me.me.id);
    const cases: [BatchItemInput | Record<string, unknown>, string][] = [
      [{ url: 'javascript:alert(1)', title: 'x', description: 'y' }, LINK_MESSAGES.onlyHttpUrls],
      [{ url: 'https://example.com/ok', title: '   ', description: 'y' }, LINK_MESSAGES.invalidLinkData],
      [{ url: 'https://example.com/ok', title: 'x', description: 42 }, LINK_MESSAGES.invalidLinkData],
      [{ url: 'https://example.com/ok', title: 'x', description: 'y', thumbnailUrl: 'data:image/png;base64,AAAA' }, LINK_MESSAGES.onlyHttpUrls],
      [{ title: 'x', description: 'y' }, LINK_MESSAGES.onlyHttpUrls],
    ];
    for (const [bad, message] of cases) {
      const batch = items(6) as unknown[];
      batch[3] = bad;
      const err = await failure(me.api.shareLinks({ items: batch as BatchItemInput[], supercurationIds: [shelf] }));
      expect([err.status, err.code, err.details.index, err.message]).toEqual([400, 'INVALID_ITEM', 3, message]);
    }
    expect([await linksOf(db, me.me.id), await members(db, shelf), await linksCount(db, shelf)]).toEqual([0, 0, 0]);
  });

  it('refuses an item whose URL is already in the collection, by index, and writes nothing', async () => {
    const db = ctx.server.db;
    const me = await signedInUser(ctx.server.url);
    const shelf = await collection(db, me.me.id);
    await me.api.createLink({ url: 'https://example.com/dup/2', title: 'Already', description: 'there', supercurationIds: [shelf] });
    const err = await failure(me.api.shareLinks({ items: items(4, 'dup'), supercurationIds: [shelf] }));
    expect([err.status, err.code, err.details.index]).toEqual([409, 'DUPLICATE_LINK', 2]);
    expect(err.message).toBe('This link has already been added to this supercuration');
    expect([await linksOf(db, me.me.id), await members(db, shelf), await linksCount(db, shelf)]).toEqual([1, 1, 1]);
  });

  it('takes 1 to 100 items', async () => {
    const db = ctx.server.db;
    const me = await signedInUser(ctx.server.url);
    const shelf = await collection(db, me.me.id);
    const tooMany = await failure(me.api.shareLinks({ items: items(101), supercurationIds: [shelf] }));
    expect([tooMany.status, tooMany.message]).toEqual([400, IMPORT_MESSAGES.tooMany]);
    const none = await failure(me.api.shareLinks({ items: [] }));
    expect([none.status, none.message]).toEqual([400, IMPORT_MESSAGES.noneSelected]);
    expect(await linksOf(db, me.me.id)).toBe(0);

    const { links } = await me.api.shareLinks({ items: items(100), supercurationIds: [shelf] });
    expect(links).toHaveLength(100);
    expect(new Set(links.map((l) => l.id)).size).toBe(100);
    expect([await linksOf(db, me.me.id), await members(db, shelf), await linksCount(db, shelf)]).toEqual([100, 100, 100]);
  });

  it('shares into a collection the user collaborates on, not into anyone else’s', async () => {
    const db = ctx.server.db;
    const me = await signedInUser(ctx.server.url);
    const owner = await signedInUser(ctx.server.url);
    const theirs = await collection(db, owner.me.id);
    const refused = await failure(me.api.shareLinks({ items: items(2), supercurationIds: [theirs] }));
    expect([refused.status, refused.message]).toEqual([404, 'Supercuration not found']);
    const missing = await failure(me.api.shareLinks({ items: items(2), supercurationIds: ['no-such-collection'] }));
    expect([missing.status, missing.message]).toEqual([404, 'Supercuration not found']);
    expect([await linksOf(db, me.me.id), await members(db, theirs)]).toEqual([0, 0]);

    await db.kysely
      .insertInto('collaborators')
      .values({ supercuration_id: theirs, user_id: me.me.id, created_at: new Date().toISOString() })
      .execute();
    const { links } = await me.api.shareLinks({ items: items(2), supercurationIds: [theirs] });
    expect(links.map((l) => l.supercurationIds)).toEqual([[theirs], [theirs]]);
    expect(await linksCount(db, theirs)).toBe(2);
  });

  it('needs a signed-in user and a same-origin page', async () => {
    const visitor = await failure(testClient(ctx.server.url).api.shareLinks({ items: items(1) }));
    expect([visitor.status, visitor.message]).toEqual([401, LINK_MESSAGES.mustLogInToShare]);

    const me = await signedInUser(ctx.server.url);
    const res = await http(`${ctx.server.url}/api/links/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: me.cookieHeader(), origin: 'https://evil.example' },
      body: JSON.stringify({ items: items(1) }),
    });
    expect(res.status).toBe(403);
    expect(await linksOf(ctx.server.db, me.me.id)).toBe(0);
  });

  it('answers malformed bodies with 400', async () => {
    const me = await signedInUser(ctx.server.url);
    for (const body of [null, 'text', { items: 'nope' }, { items: [{}], format: 'poem' }, { items: [{}], inMainFeed: 'no' }]) {
      const res = await me.fetch(`${ctx.server.url}/api/links/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: expect.any(String) });
    }
    expect(await linksOf(ctx.server.db, me.me.id)).toBe(0);
  });
});
