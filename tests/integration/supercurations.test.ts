import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { DIRECTORY_PAGE_SIZE, LINK_MESSAGES, SUPERCURATION_MESSAGES as M, SUPERCURATION_PAGE_SIZE } from '../../shared/domain';
import { http, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { createCollection, expectFailure, failure, newestFirst, rowCount, uniqueSlug } from '../support/supercurations';

const webDir = mkdtempSync(path.join(tmpdir(), 'supercurate-web-'));
writeFileSync(
  path.join(webDir, 'index.html'),
  '<!doctype html><html><head><title>Supercurate — Internet. Curated.</title></head><body><div id="root"></div></body></html>',
);
const metaContent = (html: string, attr: string, key: string) =>
  html.match(new RegExp(`<meta ${attr}="${key}" content="([^"]*)" />`))?.[1];

describeEachDatabase(
  'supercurations: create, update, delete, list, public page',
  (ctx) => {
    it('creates a collection: trimmed title, private by default, no slug stored for private ones, owner topics', async () => {
      const owner = await signedInUser(ctx.server.url, 'Olive Owner');
      const created = await owner.api.createSupercuration({
        title: '  Weekly reads ',
        description: ' Things worth reading ',
        slug: 'ignored-for-private',
        topics: ['ai', 'growth', 'ai'],
      });
      expect(created).toMatchObject({
        title: 'Weekly reads',
        description: 'Things worth reading',
        isPublic: false,
        slug: null,
        topics: ['ai', 'growth'],
        linksCount: 0,
        canEdit: true,
        isOwner: true,
        tagCategories: [],
        collaborators: [],
        user: { id: owner.me.id, name: 'Olive Owner' },
      });
      expect(created.topicDetails.map((t) => t.name)).toEqual(['AI', 'Growth']);
      expect(created.focus).toEqual(['ia', 'growth']);
      const row = await ctx.server.db.kysely.selectFrom('supercurations').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(row.slug).toBeNull();

      const pub = await owner.api.createSupercuration({ title: 'Open', isPublic: true, slug: ' open-list-1 ' });
      expect([pub.isPublic, pub.slug, pub.focus]).toEqual([true, 'open-list-1', ['generaliste']]);
    });

    it("shows a topic renamed, recoloured or deleted, and a collection's topics replaced, on its cards everywhere", async () => {
      const owner = await signedInUser(ctx.server.url);
      const slug = uniqueSlug();
      // Letters only: PostgreSQL's parser reads a hyphen then digits ("c-1234") as a signed number, which no prefix query finds.
      const word = `topical${slug.slice(2).replace(/\d/g, (d) => 'qrstuvwxyz'.charAt(Number(d)))}`;
      const created = await owner.api.createSupercuration({ title: `Topical ${word}`, isPublic: true, slug, topics: ['ai', 'growth'] });
      /** The collection's topic names and colours on its page, in its owner's list and in a directory search, which must agree. */
      const everywhere = async () => {
        const page = await owner.api.getSupercuration(created.id);
        const listed = (await owner.api.listSupercurations()).items.find((c) => c.id === created.id);
        const found = (await testClient(ctx.server.url).api.directory({ q: word })).items.find((c) => c.id === created.id);
        const shown = [page, listed, found].map((c) => c?.topicDetails.map((t) => `${t.name} ${t.color}`));
        expect(shown[1]).toEqual(shown[0]);
        expect(shown[2]).toEqual(shown[0]);
        return shown[0];
      };
      const colorOf = (id: string) => created.topicDetails.find((t) => t.id === id)?.color;
      expect(await everywhere()).toEqual([`AI ${colorOf('ai')}`, `Growth ${colorOf('growth')}`]);

      await owner.api.updateTopic('ai', { name: 'Machine minds', color: '#0f766e' });
      expect(await everywhere()).toEqual(['Machine minds #0f766e', `Growth ${colorOf('growth')}`]);
      await owner.api.deleteTopic('growth');
      expect(await everywhere()).toEqual(['Machine minds #0f766e']);
      await owner.api.updateSupercuration(created.id, { topics: [] });
      expect(await everywhere()).toEqual([]);
    });

    it('refuses bad input with the spec texts and writes nothing', async () => {
      const owner = await signedInUser(ctx.server.url);
      const before = await rowCount(ctx.server.db, 'supercurations');
      const topicsBefore = await rowCount(ctx.server.db, 'supercuration_topics');
      await expectFailure(owner.api.createSupercuration({ title: '   ' }), 400, M.titleRequired);
      await expectFailure(owner.api.createSupercuration({} as { title: string }), 400, M.titleRequired);
      await expectFailure(owner.api.createSupercuration({ title: 'x', isPublic: true }), 400, M.slugRequired);
      await expectFailure(owner.api.createSupercuration({ title: 'x', isPublic: true, slug: '  ' }), 400, M.slugRequired);
      for (const slug of ['Upper', 'two  words', 'trailing-', '-leading', 'double--hyphen', 'accént', 'a_b']) {
        await expectFailure(owner.api.createSupercuration({ title: 'x', isPublic: true, slug }), 400, M.slugInvalid);
      }
      await expectFailure(
        owner.api.createSupercuration({ title: 'x', topics: ['ai', 'not-my-topic'] }),
        400,
        LINK_MESSAGES.topicNotFound,
      );
      await expectFailure(owner.api.createSupercuration({ title: 'x', isPublic: 'yes' as unknown as boolean }), 400, M.invalidInput);
      await expectFailure(owner.api.createSupercuration({ title: 'x', thumbnailUrl: 'javascript:alert(1)' }), 400, LINK_MESSAGES.onlyHttpUrls);
      const raw = await owner.fetch(`${ctx.server.url}/api/supercurations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"title": ',
      });
      expect(raw.status).toBe(400);
      expect(await rowCount(ctx.server.db, 'supercurations')).toBe(before);
      expect(await rowCount(ctx.server.db, 'supercuration_topics')).toBe(topicsBefore);

      const visitor = testClient(ctx.server.url);
      await expectFailure(visitor.api.createSupercuration({ title: 'x' }), 401, M.mustLogInToCreate);
    });

    it('keeps slugs unique, also under concurrent creates, and frees a slug when its collection turns private', async () => {
      const a = await signedInUser(ctx.server.url);
      const b = await signedInUser(ctx.server.url);
      const slug = uniqueSlug('taken');
      const first = await a.api.createSupercuration({ title: 'First', isPublic: true, slug });
      await expectFailure(b.api.createSupercuration({ title: 'Second', isPublic: true, slug }), 409, M.slugTaken);
      // A private collection doesn't store the slug it was sent, so it never clashes.
      await b.api.createSupercuration({ title: 'Private', slug });

      const race = uniqueSlug('race');
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).api.createSupercuration({ title: `R${i}`, isPublic: true, slug: race })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected') expect([r.reason.status, r.reason.message]).toEqual([409, M.slugTaken]);
      }

      // Turning private drops the slug; b may then take it; a can't take it back.
      const privateNow = await a.api.updateSupercuration(first.id, { isPublic: false });
      expect([privateNow.isPublic, privateNow.slug]).toEqual([false, null]);
      await expectFailure(a.api.updateSupercuration(first.id, { isPublic: true }), 400, M.slugRequired);
      const other = await b.api.createSupercuration({ title: 'Mine now', isPublic: true, slug });
      expect(other.slug).toBe(slug);
      await expectFailure(a.api.updateSupercuration(first.id, { isPublic: true, slug }), 409, M.slugTaken);
      const back = await a.api.updateSupercuration(first.id, { isPublic: true, slug: `${slug}-2` });
      expect([back.isPublic, back.slug]).toEqual([true, `${slug}-2`]);
    });

    it('updates title, description, topics and thumbnail; bad input changes nothing', async () => {
      const owner = await signedInUser(ctx.server.url);
      const c = await createCollection(owner, { topics: ['ai'] });
      const updated = await owner.api.updateSupercuration(c.id, {
        title: ' Renamed ',
        description: 'New words',
        topics: ['marketing'],
        thumbnailUrl: 'https://img.example.com/c.png',
      });
      expect(updated).toMatchObject({
        title: 'Renamed',
        description: 'New words',
        topics: ['marketing'],
        focus: ['marketing'],
        thumbnailUrl: 'https://img.example.com/c.png',
      });
      expect(updated.updatedAt >= c.updatedAt).toBe(true);
      await expectFailure(owner.api.updateSupercuration(c.id, { title: ' ' }), 400, M.titleRequired);
      await expectFailure(owner.api.updateSupercuration(c.id, { slug: 'Not OK' }), 400, M.slugInvalid);
      await expectFailure(owner.api.updateSupercuration(c.id, { title: 'Z', topics: ['nope'] }), 400, LINK_MESSAGES.topicNotFound);
      const after = await owner.api.getSupercuration(c.id);
      expect([after.title, after.topics]).toEqual(['Renamed', ['marketing']]);
      await expectFailure(owner.api.updateSupercuration('missing', { title: 'x' }), 404, M.notFound);
    });

    it('deletes a collection with its memberships, tags, collaborators and subscribers; links stay', async () => {
      const owner = await signedInUser(ctx.server.url);
      const helper = await signedInUser(ctx.server.url);
      const c = await createCollection(owner, { isPublic: true });
      const link = await owner.api.addResource(c.id, { link: { title: 'Kept', description: 'd', url: 'https://example.com/kept' } });
      const category = await owner.api.createTagCategory(c.id);
      await owner.api.addTag(c.id, category.id, 'keep');
      await owner.api.setResourceTags(c.id, link.id, ['keep']);
      await owner.api.addCollaborator(c.id, helper.me.id);
      await testClient(ctx.server.url).api.subscribeByEmail(c.id, 'reader@example.com');
      await owner.api.deleteSupercuration(c.id);
      await expectFailure(owner.api.getSupercuration(c.id), 404, M.notFound);
      const kysely = ctx.server.db.kysely;
      for (const table of ['supercuration_links', 'tag_categories', 'collaborators', 'email_subscribers'] as const) {
        const rows = await kysely.selectFrom(table).select('supercuration_id').where('supercuration_id', '=', c.id).execute();
        expect(rows, table).toEqual([]);
      }
      const tagged = await kysely.selectFrom('supercuration_link_tags').select('link_id').where('supercuration_id', '=', c.id).execute();
      expect(tagged).toEqual([]);
      const kept = await owner.api.getLink(link.id);
      expect(kept.supercurationIds).toEqual([]);
      await expectFailure(owner.api.deleteSupercuration(c.id), 404, M.notFound);
    });

    it("My Supercurations: own, collaborating and others' public ones, never others' private ones; topic filter; pages", async () => {
      const me = await signedInUser(ctx.server.url);
      const other = await signedInUser(ctx.server.url);
      const own = await createCollection(me, { title: 'Own private', topics: ['ai'] });
      const othersPublic = await createCollection(other, { title: 'Theirs public', isPublic: true, topics: ['ai'] });
      const othersPrivate = await createCollection(other, { title: 'Theirs private' });
      const shared = await createCollection(other, { title: 'Shared with me' });
      await other.api.addCollaborator(shared.id, me.me.id);

      const all = await me.api.listSupercurations();
      const ids = all.items.map((s) => s.id);
      expect(ids).toEqual(expect.arrayContaining([own.id, othersPublic.id, shared.id]));
      expect(ids).not.toContain(othersPrivate.id);
      // Newest first.
      expect(ids.indexOf(shared.id)).toBeLessThan(ids.indexOf(own.id));
      const sharedCard = all.items.find((s) => s.id === shared.id);
      expect([sharedCard?.canEdit, sharedCard?.isOwner]).toEqual([true, false]);
      const publicCard = all.items.find((s) => s.id === othersPublic.id);
      expect([publicCard?.canEdit, publicCard?.isOwner, publicCard?.slug]).toEqual([false, false, othersPublic.slug]);

      const mine = await me.api.listSupercurations({ scope: 'mine' });
      expect(mine.items.map((s) => s.id).sort()).toEqual([own.id, shared.id].sort());

      const ai = await me.api.listSupercurations({ topic: 'ai' });
      const aiIds = ai.items.map((s) => s.id);
      expect(aiIds).toEqual(expect.arrayContaining([own.id, othersPublic.id]));
      expect(aiIds).not.toContain(shared.id);

      const choices = await me.api.mySupercurationChoices();
      expect(choices.map((c) => c.id).sort()).toEqual([own.id, shared.id].sort());
      expect(choices.find((c) => c.id === shared.id)).toMatchObject({ title: 'Shared with me', isOwner: false });

      await expectFailure(testClient(ctx.server.url).api.listSupercurations(), 401, 'Not authenticated');
    });

    it('pages My Supercurations by keyset cursor without gaps or repeats', async () => {
      const me = await signedInUser(ctx.server.url);
      const created: { id: string; createdAt: string }[] = [];
      for (let i = 0; i < SUPERCURATION_PAGE_SIZE + 3; i += 1) created.push(await createCollection(me, { title: `P${i}` }));
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await me.api.listSupercurations({ scope: 'mine', cursor });
        seen.push(...page.items.map((s) => s.id));
        cursor = page.nextCursor ?? undefined;
        pages += 1;
      } while (cursor);
      expect(pages).toBe(2);
      expect(seen).toEqual(newestFirst(created));
      await expectFailure(me.api.listSupercurations({ cursor: 'garbage' }), 400, LINK_MESSAGES.invalidCursor);
    });

    it('detail: public ones for everyone, private ones only for editors (404 otherwise)', async () => {
      const owner = await signedInUser(ctx.server.url);
      const stranger = await signedInUser(ctx.server.url);
      const pub = await createCollection(owner, { isPublic: true });
      const priv = await createCollection(owner);
      const visitor = testClient(ctx.server.url);
      expect((await visitor.api.getSupercuration(pub.id)).canEdit).toBe(false);
      expect((await stranger.api.getSupercuration(pub.id)).title).toBe(pub.title);
      await expectFailure(visitor.api.getSupercuration(priv.id), 404, M.notFound);
      await expectFailure(stranger.api.getSupercuration(priv.id), 404, M.notFound);
      expect((await owner.api.getSupercuration(priv.id)).isOwner).toBe(true);
    });

    it("public page API: by slug for public collections; missing or private answer 404 with the public page's text", async () => {
      const owner = await signedInUser(ctx.server.url, 'Cora Curator');
      const pub = await createCollection(owner, { isPublic: true, title: 'Open shelf' });
      const visitor = testClient(ctx.server.url);
      const page = await visitor.api.getPublicSupercuration(pub.slug as string);
      expect(page).toMatchObject({ id: pub.id, title: 'Open shelf', user: { name: 'Cora Curator' }, canEdit: false });
      await expectFailure(visitor.api.getPublicSupercuration('no-such-slug'), 404, M.publicNotFound);
      // Made private: gone from the public page, even for its owner.
      await owner.api.updateSupercuration(pub.id, { isPublic: false });
      await expectFailure(visitor.api.getPublicSupercuration(pub.slug as string), 404, M.publicNotFound);
      await expectFailure(owner.api.getPublicSupercuration(pub.slug as string), 404, M.publicNotFound);
    });

    it('serves /supercurations/public/{slug} with its title, description, canonical, og:* and twitter:* in the HTML', async () => {
      const owner = await signedInUser(ctx.server.url, 'Hana <Host>');
      const pub = await createCollection(owner, {
        isPublic: true,
        title: 'Tools & "tricks"',
        description: 'The <best> tools',
        thumbnailUrl: 'https://img.example.com/t.png',
      });
      const res = await http(`${ctx.server.url}/supercurations/public/${pub.slug}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<title>Tools &amp; &quot;tricks&quot; · Supercurate</title>');
      expect(metaContent(html, 'name', 'description')).toBe('The &lt;best&gt; tools');
      expect(html).toContain(`<link rel="canonical" href="${ctx.server.url}/supercurations/public/${pub.slug}" />`);
      expect(metaContent(html, 'property', 'og:title')).toBe('Tools &amp; &quot;tricks&quot;');
      expect(metaContent(html, 'property', 'og:url')).toBe(`${ctx.server.url}/supercurations/public/${pub.slug}`);
      expect(metaContent(html, 'property', 'og:image')).toBe('https://img.example.com/t.png');
      expect(metaContent(html, 'name', 'twitter:card')).toBe('summary_large_image');
      expect(metaContent(html, 'name', 'twitter:title')).toBe('Tools &amp; &quot;tricks&quot;');

      const bare = await createCollection(owner, { isPublic: true, title: 'Bare', description: '' });
      const bareHtml = await (await http(`${ctx.server.url}/supercurations/public/${bare.slug}`)).text();
      expect(metaContent(bareHtml, 'name', 'description')).toBe('A supercuration by Hana &lt;Host&gt; on Supercurate');
      // A curator without a name is not called 'Unknown User' in the description.
      await ctx.server.db.kysely.updateTable('user').set({ name: '' }).where('id', '=', owner.me.id).execute();
      const namelessHtml = await (await http(`${ctx.server.url}/supercurations/public/${bare.slug}`)).text();
      expect(metaContent(namelessHtml, 'name', 'description')).toBe('A supercuration on Supercurate');

      const priv = await createCollection(owner, { title: 'Secret title' });
      await owner.api.updateSupercuration(priv.id, { isPublic: true, slug: uniqueSlug('was-public') });
      const privSlug = (await owner.api.getSupercuration(priv.id)).slug as string;
      await owner.api.updateSupercuration(priv.id, { isPublic: false });
      const hidden = await http(`${ctx.server.url}/supercurations/public/${privSlug}`);
      expect(hidden.status).toBe(404);
      expect(await hidden.text()).not.toContain('Secret title');
      expect((await http(`${ctx.server.url}/supercurations/public/nothing-here`)).status).toBe(404);
    });

    it('redirects /s/{slug} to the public page', async () => {
      const res = await http(`${ctx.server.url}/s/my-list`, { redirect: 'manual' });
      expect(res.status).toBe(301);
      expect(res.headers.get('location')).toBe('/supercurations/public/my-list');
    });
  },
  { WEB_DIR: webDir },
);

describeEachDatabase('supercurations: directory', (ctx) => {
  it('lists public collections only, newest first, 24 a page, with focus categories', async () => {
    const owner = await signedInUser(ctx.server.url, 'Dora Directory');
    const priv = await createCollection(owner, { title: 'Hidden from the directory' });
    const made: { id: string; createdAt: string }[] = [];
    for (let i = 0; i < DIRECTORY_PAGE_SIZE + 2; i += 1) {
      made.push(await createCollection(owner, { isPublic: true, title: `Dir ${i}` }));
    }
    const first = await testClient(ctx.server.url).api.directory();
    expect(first.items).toHaveLength(DIRECTORY_PAGE_SIZE);
    expect(first.hasMore).toBe(true);
    const second = await testClient(ctx.server.url).api.directory({ cursor: first.nextCursor as string });
    const ids = [...first.items, ...second.items].map((s) => s.id);
    expect(ids).toEqual(newestFirst(made));
    expect(ids).not.toContain(priv.id);
    expect(second.hasMore).toBe(false);
    expect(first.items.every((s) => s.isPublic && s.slug)).toBe(true);
  });

  it('searches title and description by word beginnings, case- and accent-insensitively; private ones never match', async () => {
    const owner = await signedInUser(ctx.server.url);
    const word = `zq${Date.now().toString(36)}`;
    const a = await createCollection(owner, { isPublic: true, title: `Stratégie ${word} produit` });
    const b = await createCollection(owner, { isPublic: true, title: 'Other', description: `All about ${word.toUpperCase()}-growth, really` });
    const priv = await createCollection(owner, { title: `Private ${word}` });
    const api = testClient(ctx.server.url).api;
    const search = async (q: string) => (await api.directory({ q })).items.map((s) => s.id);
    expect((await search(word)).sort()).toEqual([a.id, b.id].sort());
    expect(await search(word.slice(0, 5))).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(await search(`strategie ${word}`)).toEqual([a.id]);
    expect(await search(`STRATÉGIE ${word}`)).toEqual([a.id]);
    expect(await search(`${word} growth`)).toEqual([b.id]);
    expect(await search(`${word} nomatchword`)).toEqual([]);
    expect(await search('%_"\'*')).toEqual([]);
    expect(await search(`"${word}" OR NEAR(`)).toEqual([]);
    expect(await search(`Private ${word}`)).not.toContain(priv.id);

    // The index follows edits: renamed, made private, made public, deleted.
    await owner.api.updateSupercuration(a.id, { title: 'Renamed entirely' });
    expect(await search(`strategie ${word}`)).toEqual([]);
    expect(await search('renamed entirely')).toContain(a.id);
    await owner.api.updateSupercuration(b.id, { isPublic: false });
    expect(await search(word)).toEqual([]);
    await owner.api.updateSupercuration(priv.id, { isPublic: true, slug: uniqueSlug() });
    expect(await search(word)).toEqual([priv.id]);
    await owner.api.deleteSupercuration(priv.id);
    expect(await search(word)).toEqual([]);
  });

  it('matches word beginnings of any length: one letter, the prefix-indexed lengths and beyond them', async () => {
    const owner = await signedInUser(ctx.server.url);
    const long = `lx${Date.now().toString(36)}abcdefghijkl`;
    const c = await createCollection(owner, { isPublic: true, title: 'Quiet one', description: `See ${long} here` });
    const search = async (q: string) => (await testClient(ctx.server.url).api.directory({ q })).items.map((s) => s.id);
    for (const n of [3, 12, 13, long.length]) expect(await search(long.slice(0, n))).toContain(c.id);
    expect(await search(`q ${long.slice(0, 12)}`)).toEqual([c.id]);
    expect(await search(`${long.slice(0, 13)}x`)).toEqual([]);
  });

  it('pages search results: a common word over several pages, newest first, without repeats', async () => {
    const owner = await signedInUser(ctx.server.url);
    const word = `pg${Date.now().toString(36)}`;
    const made: { id: string; createdAt: string }[] = [];
    for (let i = 0; i < DIRECTORY_PAGE_SIZE + 6; i += 1) {
      made.push(await createCollection(owner, { isPublic: true, title: `${word} number ${i}` }));
      if (i % 3 === 0) await createCollection(owner, { isPublic: true, title: 'Unrelated' });
    }
    const api = testClient(ctx.server.url).api;
    const first = await api.directory({ q: word });
    expect(first.items).toHaveLength(DIRECTORY_PAGE_SIZE);
    const second = await api.directory({ q: word, cursor: first.nextCursor as string });
    expect(second.hasMore).toBe(false);
    expect([...first.items, ...second.items].map((s) => s.id)).toEqual(newestFirst(made));
    await expectFailure(api.directory({ q: word, cursor: 'bad' }), 400, LINK_MESSAGES.invalidCursor);
  });

  it('filters by focus category: mapped topics, and generaliste for collections without one', async () => {
    const owner = await signedInUser(ctx.server.url);
    const ia = await createCollection(owner, { isPublic: true, topics: ['ai'] });
    const work = await createCollection(owner, { isPublic: true, topics: ['productivity', 'marketing'] });
    const general = await createCollection(owner, { isPublic: true, topics: [] });
    const api = testClient(ctx.server.url).api;
    const focus = async (f: string) => (await api.directory({ focus: f as 'ia' })).items.map((s) => s.id);
    expect(await focus('ia')).toContain(ia.id);
    expect(await focus('ia')).not.toContain(work.id);
    expect(await focus('futur-of-work')).toContain(work.id);
    expect(await focus('marketing')).toContain(work.id);
    expect(await focus('generaliste')).toContain(general.id);
    expect(await focus('generaliste')).not.toContain(ia.id);
    await expectFailure(api.directory({ focus: 'nope' as 'ia' }), 400, M.invalidFocus);
    const err = await failure(api.directory({ q: 'x'.repeat(500) }));
    expect(err.status).toBe(400);
  });
});
