import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { LINK_MESSAGES, type Link } from '../../shared/domain';
import type { Db } from '../../server/db';
import { linkVisibleTo } from '../../server/policies/links';
import { http, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { parseRss2 } from '../support/feed';
import { type User, createCollection, expectFailure } from '../support/supercurations';

/** A stand-in for the built web app: the server only needs its index.html. */
const webDir = mkdtempSync(path.join(tmpdir(), 'supercurate-web-'));
writeFileSync(
  path.join(webDir, 'index.html'),
  '<!doctype html><html><head><title>Supercurate — Internet. Curated.</title></head><body><div id="root"></div></body></html>',
);

type Client = ReturnType<typeof testClient>;

/** Status and body of a raw request, as a client of the server at `base` sees them. */
async function request(base: string, client: Client, method: string, path: string): Promise<{ status: number; body: unknown }> {
  const res = await client.fetch(`${base}${path}`, {
    method,
    ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function rows(db: Db, table: 'likes' | 'links', column: 'link_id' | 'original_post_id', linkId: string) {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(column, '=', linkId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const notFoundBody = { error: LINK_MESSAGES.linkNotFound, code: 'NOT_FOUND' };

describeEachDatabase(
  'links: visibility of a link kept private',
  (ctx) => {
    const client = (user?: User): Client => user ?? testClient(ctx.server.url);
    const call = (c: Client, method: string, path: string) => request(ctx.server.url, c, method, path);

    /**
     * The owner's private collection, with the author and a second user as collaborators; the
     * author files a link only there, with "Don't add to main feed".
     */
    async function privateWorld() {
      const owner = await signedInUser(ctx.server.url, 'Owner');
      const author = await signedInUser(ctx.server.url, 'Author');
      const collaborator = await signedInUser(ctx.server.url, 'Collaborator');
      const stranger = await signedInUser(ctx.server.url, 'Stranger');
      const collection = await createCollection(owner, { isPublic: false });
      await owner.api.addCollaborator(collection.id, author.me.id);
      await owner.api.addCollaborator(collection.id, collaborator.me.id);
      const link = await author.api.createLink({
        title: 'Secret plans',
        description: 'Only for the team',
        url: `https://example.com/secret-${Math.random().toString(36).slice(2)}`,
        supercurationIds: [collection.id],
        inMainFeed: false,
      });
      const roles = { author, owner, collaborator, stranger, visitor: undefined };
      return { ...roles, collection, link, roles };
    }

    it('GET /api/links/:id: 200 for the author, the owner and collaborator of its collection; the 404 of a missing link for others', async () => {
      const w = await privateWorld();
      const missing = await call(client(w.stranger), 'GET', '/api/links/no-such-link');
      expect(missing).toEqual({ status: 404, body: notFoundBody });
      for (const user of [w.author, w.owner, w.collaborator]) {
        const res = await call(client(user), 'GET', `/api/links/${w.link.id}`);
        expect(res.status).toBe(200);
        expect((res.body as Link).title).toBe('Secret plans');
      }
      expect(await call(client(w.stranger), 'GET', `/api/links/${w.link.id}`)).toEqual(missing);
      expect(await call(client(), 'GET', `/api/links/${w.link.id}`)).toEqual(missing);
    });

    it('the page /links/:id is the page of a missing link for everyone: no title in <title> or og:title', async () => {
      const w = await privateWorld();
      const missing = await http(`${ctx.server.url}/links/no-such-link`);
      const missingHtml = await missing.text();
      for (const user of [w.stranger, w.author, undefined]) {
        const res = await client(user).fetch(`${ctx.server.url}/links/${w.link.id}`);
        expect(res.status).toBe(missing.status);
        const html = await res.text();
        expect(html).toBe(missingHtml);
        expect(html).not.toContain('Secret plans');
        expect(html).not.toContain('og:title');
      }
      // A link everyone may see still has its head.
      const open = await w.author.api.createLink({ title: 'Open plans', description: 'For all' });
      const page = await (await http(`${ctx.server.url}/links/${open.id}`)).text();
      expect(page).toContain('<title>Open plans · Supercurate</title>');
    });

    it('like: 404 for a stranger and nothing written; 401 for a visitor, as for a missing link; editors may like', async () => {
      const w = await privateWorld();
      expect(await call(client(w.stranger), 'POST', `/api/links/${w.link.id}/like`)).toEqual(
        await call(client(w.stranger), 'POST', '/api/links/no-such-link/like'),
      );
      expect(await call(client(w.stranger), 'POST', `/api/links/${w.link.id}/like`)).toEqual({ status: 404, body: notFoundBody });
      expect(await rows(ctx.server.db, 'likes', 'link_id', w.link.id)).toBe(0);
      const visitor = await call(client(), 'POST', `/api/links/${w.link.id}/like`);
      expect(visitor).toEqual(await call(client(), 'POST', '/api/links/no-such-link/like'));
      expect(visitor.status).toBe(401);

      expect(await w.collaborator.api.toggleLike(w.link.id)).toEqual({ liked: true, likes: 1 });
      expect(await w.owner.api.toggleLike(w.link.id)).toEqual({ liked: true, likes: 2 });
      expect(await w.author.api.toggleLike(w.link.id)).toEqual({ liked: true, likes: 3 });
      expect(await call(client(w.stranger), 'POST', `/api/links/${w.link.id}/like`)).toEqual({ status: 404, body: notFoundBody });
      expect((await w.author.api.getLink(w.link.id)).likes).toBe(3);
      expect(await rows(ctx.server.db, 'likes', 'link_id', w.link.id)).toBe(3);
    });

    it('a like given while the link was public can no longer be toggled once it is private', async () => {
      const w = await privateWorld();
      await w.author.api.updateLink(w.link.id, { inMainFeed: true });
      expect(await w.stranger.api.toggleLike(w.link.id)).toEqual({ liked: true, likes: 1 });
      await w.author.api.updateLink(w.link.id, { inMainFeed: false });
      expect(await call(client(w.stranger), 'POST', `/api/links/${w.link.id}/like`)).toEqual({ status: 404, body: notFoundBody });
      expect(await rows(ctx.server.db, 'likes', 'link_id', w.link.id)).toBe(1);
      expect((await w.author.api.getLink(w.link.id)).likes).toBe(1);
    });

    it('repost: 404 for a stranger and no copy written; 401 for a visitor; a collaborator’s repost is hidden from others', async () => {
      const w = await privateWorld();
      expect(await call(client(w.stranger), 'POST', `/api/links/${w.link.id}/repost`)).toEqual({ status: 404, body: notFoundBody });
      expect(await rows(ctx.server.db, 'links', 'original_post_id', w.link.id)).toBe(0);
      expect((await call(client(), 'POST', `/api/links/${w.link.id}/repost`)).status).toBe(401);

      const copy = await w.collaborator.api.repost(w.link.id);
      expect(copy.title).toBe('Secret plans');
      expect((await w.author.api.getLink(w.link.id)).repostsCount).toBe(1);
      // The copy shows the original's title and URL: only those who may see the original see it.
      expect((await w.collaborator.api.getLink(copy.id)).id).toBe(copy.id);
      expect((await w.owner.api.getLink(copy.id)).id).toBe(copy.id);
      expect(await call(client(w.stranger), 'GET', `/api/links/${copy.id}`)).toEqual({ status: 404, body: notFoundBody });
      expect(await call(client(), 'GET', `/api/links/${copy.id}`)).toEqual({ status: 404, body: notFoundBody });
      expect(await call(client(w.stranger), 'POST', `/api/links/${copy.id}/repost`)).toEqual({ status: 404, body: notFoundBody });
      expect(await call(client(w.stranger), 'POST', `/api/links/${copy.id}/like`)).toEqual({ status: 404, body: notFoundBody });
      const feed = await parseRss2(await (await http(`${ctx.server.url}/users/${w.collaborator.me.id}/feed.xml`)).text());
      expect(feed.items.map((i) => i.title)).not.toContain('Secret plans');
      // Once the original is public, so is the copy.
      await w.author.api.updateLink(w.link.id, { inMainFeed: true });
      expect((await call(client(), 'GET', `/api/links/${copy.id}`)).status).toBe(200);
    });

    it('edit and delete by a stranger: the 404 of a missing link, not 403', async () => {
      const w = await privateWorld();
      for (const method of ['PATCH', 'DELETE']) {
        expect(await call(client(w.stranger), method, `/api/links/${w.link.id}`)).toEqual({ status: 404, body: notFoundBody });
      }
      expect((await w.author.api.getLink(w.link.id)).title).toBe('Secret plans');
    });

    it("edits by its collection's editors leave where the link is shown to its author: no main feed, no other collection (403)", async () => {
      const w = await privateWorld();
      for (const editor of [w.owner, w.collaborator]) {
        const shelf = await createCollection(editor, { isPublic: true });
        for (const change of [{ inMainFeed: true }, { supercurationIds: [w.collection.id, shelf.id] }]) {
          await expectFailure(editor.api.updateLink(w.link.id, { title: 'Leaked', ...change }), 403, LINK_MESSAGES.onlyAuthorPlacesLink);
        }
      }
      expect(await call(client(), 'GET', `/api/links/${w.link.id}`)).toEqual({ status: 404, body: notFoundBody });
      const stored = await ctx.server.db.kysely.selectFrom('links').select(['title', 'in_main_feed']).where('id', '=', w.link.id).executeTakeFirstOrThrow();
      expect([stored.title, Number(stored.in_main_feed)]).toEqual(['Secret plans', 0]);
      expect((await w.author.api.getLink(w.link.id)).supercurationIds).toEqual([w.collection.id]);
      // The content is theirs to edit (the unchanged setting may come along), and the link theirs to take out of the collection.
      expect((await w.collaborator.api.updateLink(w.link.id, { title: 'Plans', inMainFeed: false })).title).toBe('Plans');
      // The author places it.
      const own = await createCollection(w.author, { isPublic: true });
      expect((await w.author.api.updateLink(w.link.id, { supercurationIds: [w.collection.id, own.id] })).supercurationIds).toHaveLength(2);
      expect((await call(client(), 'GET', `/api/links/${w.link.id}`)).status).toBe(200);
      expect((await w.owner.api.updateLink(w.link.id, { supercurationIds: [own.id] })).supercurationIds).toEqual([own.id]);
    });

    it("lookup answers only the viewer's own link: the author finds it, a stranger with its URL gets 404", async () => {
      const w = await privateWorld();
      expect((await w.author.api.lookupLink(w.link.url ?? ''))?.id).toBe(w.link.id);
      expect(await w.stranger.api.lookupLink(w.link.url ?? '')).toBeNull();
      expect(await w.collaborator.api.lookupLink(w.link.url ?? '')).toBeNull();
    });

    it("RSS: the author's feed leaves the private link out", async () => {
      const w = await privateWorld();
      await w.author.api.createLink({ title: 'Public note', description: 'For all', url: 'https://example.com/public-note' });
      const feed = await parseRss2(await (await http(`${ctx.server.url}/users/${w.author.me.id}/feed.xml`)).text());
      expect(feed.items.map((i) => i.title)).toEqual(['Public note']);
    });

    it("the collection's resources: its editors see the link; others get the collection's 404", async () => {
      const w = await privateWorld();
      for (const user of [w.author, w.owner, w.collaborator]) {
        expect((await user.api.listResources(w.collection.id)).items.map((l) => l.id)).toEqual([w.link.id]);
      }
      for (const user of [w.stranger, undefined]) {
        expect((await call(client(user), 'GET', `/api/supercurations/${w.collection.id}/resources`)).status).toBe(404);
      }
    });

    it("a public collection's resources, page and RSS leave out a repost of a private link", async () => {
      const w = await privateWorld();
      const copy = await w.collaborator.api.repost(w.link.id);
      const shelf = await createCollection(w.collaborator, { isPublic: true });
      await w.collaborator.api.addResource(shelf.id, { linkId: copy.id });
      const open = await w.collaborator.api.addResource(shelf.id, {
        link: { title: 'Open resource', description: 'x', url: 'https://example.com/open-resource' },
      });
      expect((await w.collaborator.api.listResources(shelf.id)).items.map((l) => l.id)).toEqual([open.id, copy.id]);
      expect((await w.author.api.listResources(shelf.id)).items.map((l) => l.id)).toEqual([open.id, copy.id]);
      for (const user of [w.stranger, undefined]) {
        expect((await client(user).api.listResources(shelf.id)).items.map((l) => l.id)).toEqual([open.id]);
      }
      const xml = await (await http(`${ctx.server.url}/supercurations/public/${shelf.slug}/feed.xml`)).text();
      expect((await parseRss2(xml)).items.map((i) => i.title)).toEqual(['Open resource']);
    });

    it('is re-evaluated on every read: a collection turning private, leaving the main feed, leaving the last public collection', async () => {
      const w = await privateWorld();
      const shelf = await createCollection(w.author, { isPublic: true });
      const link = await w.author.api.createLink({
        title: 'Shelved',
        description: 'x',
        supercurationIds: [shelf.id],
        inMainFeed: false,
      });
      const visitorStatus = async () => (await call(client(), 'GET', `/api/links/${link.id}`)).status;
      const strangerStatus = async () => (await call(client(w.stranger), 'GET', `/api/links/${link.id}`)).status;
      expect([await visitorStatus(), await strangerStatus()]).toEqual([200, 200]);

      await w.author.api.updateSupercuration(shelf.id, { isPublic: false });
      expect([await visitorStatus(), await strangerStatus()]).toEqual([404, 404]);
      expect(await call(client(w.stranger), 'POST', `/api/links/${link.id}/like`)).toEqual({ status: 404, body: notFoundBody });

      await w.author.api.updateSupercuration(shelf.id, { isPublic: true, slug: `shelf-${link.id}` });
      expect(await visitorStatus()).toBe(200);
      await w.author.api.removeResource(shelf.id, link.id);
      expect(await visitorStatus()).toBe(404);

      await w.author.api.updateLink(link.id, { inMainFeed: true });
      expect(await visitorStatus()).toBe(200);
      await w.author.api.updateLink(link.id, { inMainFeed: false });
      expect(await visitorStatus()).toBe(404);
      expect((await w.author.api.getLink(link.id)).id).toBe(link.id);
    });

    it('the SQL predicate and the policy agree, for every role and kind of link', async () => {
      const w = await privateWorld();
      const pub = await createCollection(w.author, { isPublic: true });
      const make = (title: string, inMainFeed: boolean, supercurationIds: string[]) =>
        w.author.api.createLink({ title, description: 'x', inMainFeed, supercurationIds });
      const links = {
        inMainFeed: await make('feed', true, []),
        inPublicCollection: await make('public', false, [pub.id, w.collection.id]),
        inPrivateCollection: w.link,
        inNoCollection: await make('none', false, []),
        repostOfPrivate: await w.collaborator.api.repost(w.link.id),
      };
      for (const [role, user] of Object.entries(w.roles)) {
        for (const [kind, link] of Object.entries(links)) {
          const byPolicy = (await call(client(user), 'GET', `/api/links/${link.id}`)).status === 200;
          const bySql = await ctx.server.db.kysely
            .selectFrom('links')
            .select('id')
            .where('id', '=', link.id)
            .where(linkVisibleTo(user?.me.id ?? null))
            .executeTakeFirst();
          expect([role, kind, bySql !== undefined]).toEqual([role, kind, byPolicy]);
        }
      }
    });
  },
  { WEB_DIR: webDir },
);
