import { Accept, Announce, Delete, Follow, Note, Person, Reject, Undo } from '@fedify/fedify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { nameCurators } from '../../server/db/migrations/0025_fediverse_people';
import { MSG, SUPERCURATION_MESSAGES as M } from '../../shared/domain';
import { http, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { type RemoteFollower, startRemoteFollower } from '../support/fediverse-follower';
import { expectFailure, uniqueSlug } from '../support/supercurations';

/**
 * ActivityPub (issue 21): a curator with a public collection is a Person actor, @username@host,
 * that Bob (a fediverse server on loopback built with Fedify) follows to hear of every resource
 * added to that curator's public collections, as Announces of the collections' Notes.
 */

let bob: RemoteFollower;
beforeAll(async () => {
  bob = await startRemoteFollower();
});
afterAll(async () => {
  await bob.close();
});

const AS_JSON = { accept: 'application/activity+json' };

describeEachDatabase(
  'fediverse: curators as Person actors',
  (ctx) => {
    const host = () => new URL(ctx.server.url).host;
    const bobContext = () => bob.federation.createContext(new URL(bob.origin), undefined);
    /** The actor URI WebFinger gives for a handle, or the status it answers with. */
    async function webfinger(username: string): Promise<string | number> {
      const res = await http(`${ctx.server.url}/.well-known/webfinger?resource=acct:${username}@${host()}`);
      if (res.status !== 200) return res.status;
      const jrd = (await res.json()) as { links: { rel: string; href?: string }[] };
      return jrd.links.find((l) => l.rel === 'self')?.href ?? '';
    }
    const uniqueName = (first: string) => `${first} ${crypto.randomUUID().slice(0, 8)}`;

    it('a curator becomes a Person when a collection of theirs turns public, named from their name; found by WebFinger and on their profile', async () => {
      const name = uniqueName('Ada Lovelace');
      const curator = await signedInUser(ctx.server.url, name);
      const username = name.toLowerCase().replace(/[^a-z0-9]+/g, '_');
      const draft = await curator.api.createSupercuration({ title: 'Engines', isPublic: false });
      expect((await curator.api.me())?.fediverseUsername).toBeNull();
      await curator.api.updateProfile(curator.me.id, { name, bio: 'Notes on <engines> & looms' });

      await curator.api.updateSupercuration(draft.id, { isPublic: true, slug: uniqueSlug('engines') });
      expect((await curator.api.me())?.fediverseUsername).toBe(username);
      const actorUri = await webfinger(username);
      expect(actorUri).toBe(`${ctx.server.url}/ap/actors/u-${curator.me.id}`);

      const person = await bobContext().lookupObject(String(actorUri));
      expect(person).toBeInstanceOf(Person);
      const p = person as Person;
      expect(p.preferredUsername?.toString()).toBe(username);
      expect(p.name?.toString()).toBe(name);
      expect(p.summary?.toString()).toBe('<p>Notes on &lt;engines&gt; &amp; looms</p>');
      expect(p.url?.href).toBe(`${ctx.server.url}/profile/${curator.me.id}`);
      expect(p.endpoints?.sharedInbox?.href).toBe(`${ctx.server.url}/ap/inbox`);
      expect((await p.getPublicKey())?.ownerId?.href).toBe(actorUri);
      // Its profile page is the actor for ActivityPub clients, and shows the handle to everyone.
      const page = await http(`${ctx.server.url}/profile/${curator.me.id}`, { headers: AS_JSON });
      expect(((await page.json()) as { id: string }).id).toBe(actorUri);
      expect((await testClient(ctx.server.url).api.getUser(curator.me.id)).fediverseHandle).toBe(`@${username}@${host()}`);
      const browser = await http(String(actorUri), { headers: { accept: 'text/html' }, redirect: 'manual' });
      expect(browser.headers.get('location')).toBe(`${ctx.server.url}/profile/${curator.me.id}`);

      // No public collection left: no actor (the username stays theirs).
      await curator.api.updateSupercuration(draft.id, { isPublic: false });
      expect(await webfinger(username)).toBe(404);
      expect((await http(String(actorUri), { headers: AS_JSON })).status).toBe(404);
      expect((await testClient(ctx.server.url).api.getUser(curator.me.id)).fediverseHandle).toBeNull();
      expect((await curator.api.me())?.fediverseUsername).toBe(username);
    });

    it('usernames: lowercase letters, digits and underscores; never another user’s, nor a collection’s slug, and the other way round', async () => {
      const ada = await signedInUser(ctx.server.url, uniqueName('Ada'));
      const grace = await signedInUser(ctx.server.url, uniqueName('Grace'));
      const mine = `ada_${crypto.randomUUID().slice(0, 8)}`;
      const profile = { name: ada.input.name };

      await expectFailure(ada.api.updateProfile(ada.me.id, { ...profile, fediverseUsername: 'ada-l' }), 400, MSG.fediverseUsernameInvalid);
      await expectFailure(ada.api.updateProfile(ada.me.id, { ...profile, fediverseUsername: 'a'.repeat(31) }), 400, MSG.fediverseUsernameTooLong);
      // Typed in capitals, kept in lowercase.
      expect((await ada.api.updateProfile(ada.me.id, { ...profile, fediverseUsername: mine.toUpperCase() })).fediverseUsername).toBe(mine);

      await expectFailure(grace.api.updateProfile(grace.me.id, { name: grace.input.name, fediverseUsername: mine }), 409, MSG.fediverseUsernameTaken);
      const slug = `deepsea${crypto.randomUUID().slice(0, 8)}`;
      await grace.api.createSupercuration({ title: 'Deep sea', isPublic: true, slug });
      await expectFailure(ada.api.updateProfile(ada.me.id, { ...profile, fediverseUsername: slug }), 409, MSG.fediverseUsernameTaken);
      // The other way round: a username (here one a slug could be) is no collection's slug.
      const plain = `adaplain${crypto.randomUUID().slice(0, 6)}`;
      await ada.api.updateProfile(ada.me.id, { ...profile, fediverseUsername: plain });
      await expectFailure(grace.api.createSupercuration({ title: 'Plain', isPublic: true, slug: plain }), 409, M.slugTaken);
      const draft = await grace.api.createSupercuration({ title: 'Plain', isPublic: false });
      await expectFailure(grace.api.updateSupercuration(draft.id, { isPublic: true, slug: plain }), 409, M.slugTaken);
      // Nothing was half-written: the refused changes left both as they were.
      expect((await ada.api.me())?.fediverseUsername).toBe(plain);
      expect((await grace.api.me())?.fediverseUsername).not.toBe(mine);
    });

    it('the upgrade names the owners of public collections from their names, in sign-up order, around slugs and names taken', async () => {
      const tag = crypto.randomUUID().slice(0, 6);
      const first = await signedInUser(ctx.server.url, `Twin ${tag}`);
      const second = await signedInUser(ctx.server.url, `Twin ${tag}`);
      const privateOnly = await signedInUser(ctx.server.url, `Quiet ${tag}`);
      await first.api.createSupercuration({ title: 'One', isPublic: true, slug: uniqueSlug('one') });
      await second.api.createSupercuration({ title: 'Two', isPublic: true, slug: uniqueSlug('two') });
      await privateOnly.api.createSupercuration({ title: 'Mine', isPublic: false });
      const base = `twin_${tag}`;
      const kysely = ctx.server.db.kysely;
      await kysely.updateTable('profiles').set({ fediverse_username: null }).where('user_id', 'in', [first.me.id, second.me.id]).execute();
      // Someone already has the name both twins' would be.
      const other = await signedInUser(ctx.server.url, `Other ${tag}`);
      await kysely.updateTable('profiles').set({ fediverse_username: base }).where('user_id', '=', other.me.id).execute();

      await nameCurators(kysely as Kysely<unknown>);
      const names = await kysely.selectFrom('profiles').select(['user_id', 'fediverse_username']).where('user_id', 'in', [first.me.id, second.me.id, privateOnly.me.id]).execute();
      expect(Object.fromEntries(names.map((r) => [r.user_id, r.fediverse_username]))).toEqual({
        [first.me.id]: `${base}2`,
        [second.me.id]: `${base}3`,
        [privateOnly.me.id]: null,
      });
    });

    it('a Follow of the curator is accepted; new resources of their public collections reach the follower as Announces; removed, they are deleted; the curator removes the follower', async () => {
      const curator = await signedInUser(ctx.server.url, uniqueName('Rachel Carson'));
      const open = await curator.api.createSupercuration({ title: 'Sea Around Us', isPublic: true, slug: uniqueSlug('sea') });
      const closed = await curator.api.createSupercuration({ title: 'Drafts', isPublic: false });
      const username = (await curator.api.me())?.fediverseUsername ?? '';
      const b = bobContext();
      const person = (await b.lookupObject(String(await webfinger(username)))) as Person;
      const follow = new Follow({ id: new URL(`#follows/${crypto.randomUUID()}`, bob.actorUri), actor: bob.actorUri, object: person.id });
      await b.sendActivity({ identifier: 'bob' }, person, follow);
      const accept = await bob.next((a): a is Accept => a instanceof Accept && a.objectId?.href === follow.id?.href);
      expect(accept.actorId?.href).toBe(person.id?.href);
      const followers = (await (await http(`${person.id?.href}/followers`, { headers: AS_JSON })).json()) as { totalItems: number };
      expect(followers.totalItems).toBe(1);

      // A resource in a private collection is not heard of; one in the public collection is announced.
      const hidden = await curator.api.addResource(closed.id, { link: { title: 'Unpublished', description: 'A note', url: 'https://example.com/unpublished' } });
      const link = await curator.api.addResource(open.id, { link: { title: 'Silent Spring', description: 'DDT and birds', url: 'https://example.com/silent-spring' } });
      const noteId = `${ctx.server.url}/ap/notes/${open.id}/${link.id}`;
      const announce = await bob.next((a): a is Announce => a instanceof Announce && a.objectId?.href === noteId);
      expect(announce.actorId?.href).toBe(person.id?.href);
      const note = (await announce.getObject()) as Note;
      expect(note).toBeInstanceOf(Note);
      expect(note.attributionId?.href).toBe(`${ctx.server.url}/ap/actors/c-${open.id}`);
      expect(note.content?.toString()).toContain('<a href="https://example.com/silent-spring">Silent Spring</a>');
      expect(bob.received.some((a) => (a.objectId?.href ?? '').endsWith(`/${hidden.id}`))).toBe(false);
      // The Person's outbox lists its Announces, newest first.
      const outbox = (await (await http(`${person.id?.href}/outbox`, { headers: AS_JSON })).json()) as { totalItems: number; first: string };
      expect(outbox.totalItems).toBe(1);
      const page = (await (await http(outbox.first, { headers: AS_JSON })).json()) as { orderedItems: { type: string; object: { id: string } }[] };
      expect(page.orderedItems.map((i) => [i.type, i.object.id])).toEqual([['Announce', noteId]]);

      await curator.api.removeResource(open.id, link.id);
      const deleted = await bob.next((a): a is Delete => a instanceof Delete && a.objectId?.href === noteId);
      expect(deleted.actorId?.href).toBe(`${ctx.server.url}/ap/actors/c-${open.id}`);

      // The dashboard lists Bob as the curator's own follower; only the curator removes him.
      expect(await curator.api.myFediverseFollowers()).toEqual({
        profile: [{ actorUri: bob.actorUri.href, host: new URL(bob.origin).host, followedAt: expect.any(String) }],
        collections: [],
      });
      const stranger = await signedInUser(ctx.server.url, 'Stranger');
      await expectFailure(stranger.api.removeMyFediverseFollower(bob.actorUri.href), 404, M.fediverseFollowerNotFound);
      await curator.api.removeMyFediverseFollower(bob.actorUri.href);
      const reject = await bob.next((a): a is Reject => a instanceof Reject && a.objectId?.href === follow.id?.href);
      expect(reject.actorId?.href).toBe(person.id?.href);
      expect(await curator.api.myFediverseFollowers()).toEqual({ profile: [], collections: [] });
      const after = await curator.api.addResource(open.id, { link: { title: 'After removal', description: 'A note', url: 'https://example.com/after-removal' } });
      expect(await ctx.server.db.kysely.selectFrom('federation_deliveries').select('id').where('link_id', '=', after.id).execute()).toEqual([]);
    });

    it('Undo of a Follow of the curator stops the Announces', async () => {
      const curator = await signedInUser(ctx.server.url, uniqueName('Sylvia Earle'));
      const open = await curator.api.createSupercuration({ title: 'Deep Hope', isPublic: true, slug: uniqueSlug('hope') });
      const b = bobContext();
      const person = (await b.lookupObject(`${ctx.server.url}/ap/actors/u-${curator.me.id}`)) as Person;
      const follow = new Follow({ id: new URL(`#follows/${crypto.randomUUID()}`, bob.actorUri), actor: bob.actorUri, object: person.id });
      await b.sendActivity({ identifier: 'bob' }, person, follow);
      await bob.next((a): a is Accept => a instanceof Accept && a.objectId?.href === follow.id?.href);
      await b.sendActivity({ identifier: 'bob' }, person, new Undo({ id: new URL(`#undo/${crypto.randomUUID()}`, bob.actorUri), actor: bob.actorUri, object: follow }));
      expect(await ctx.server.db.kysely.selectFrom('federation_user_followers').select('actor_uri').where('user_id', '=', curator.me.id).execute()).toEqual([]);
      const link = await curator.api.addResource(open.id, { link: { title: 'Unheard', description: 'A note', url: 'https://example.com/unheard' } });
      expect(await ctx.server.db.kysely.selectFrom('federation_deliveries').select('id').where('link_id', '=', link.id).execute()).toEqual([]);
    });
  },
  { FEDERATION: 'true', PREVIEW_ALLOW_PRIVATE: 'true' },
);
