import { Accept, Create, Delete, Document, Follow, Group, Hashtag, Note, Reject, Undo, Update, lookupWebFinger, signRequest } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../server/db';
import { sqlKvStore } from '../../server/federation/kv-store';
import { addRemoteFollower } from '../../server/services/fediverse';
import { INBOX_BODY_LIMIT, INBOX_RATE_LIMIT } from '../../server/http/federation-routes';
import { http, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { type RemoteFollower, startRemoteFollower } from '../support/fediverse-follower';
import { expectFailure, uniqueSlug } from '../support/supercurations';
import { MSG, SUPERCURATION_MESSAGES as M } from '../../shared/domain';

/**
 * ActivityPub (issue 21): a public collection is a Group actor that a remote server finds by
 * WebFinger and follows through its inbox. "Bob" lives on a second server on loopback, built with
 * Fedify like ours; everything between them is real HTTP with real signatures.
 */

let bob: RemoteFollower;
beforeAll(async () => {
  bob = await startRemoteFollower();
});
afterAll(async () => {
  await bob.close();
});

const AS_JSON = { accept: 'application/activity+json' };

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

async function remoteFollowers(db: Db, supercurationId: string) {
  return db.kysely.selectFrom('federation_followers').select(['actor_uri', 'inbox_uri', 'shared_inbox_uri', 'host']).where('supercuration_id', '=', supercurationId).execute();
}

describeEachDatabase(
  'fediverse: collections as ActivityPub actors',
  (ctx) => {
    async function publicCollection(title = 'Deep Sea Reading') {
      const curator = await signedInUser(ctx.server.url, 'Curator');
      const slug = uniqueSlug('sea');
      const collection = await curator.api.createSupercuration({ title, description: 'Vents & <smokers>', isPublic: true, slug });
      return { curator, collection, slug };
    }
    const host = () => new URL(ctx.server.url).host;
    const bobContext = () => bob.federation.createContext(new URL(bob.origin), undefined);

    it('is found by WebFinger as @slug@host, and its actor document is a valid Group with a key', async () => {
      const { collection, slug } = await publicCollection();
      const res = await http(`${ctx.server.url}/.well-known/webfinger?resource=acct:${slug}@${host()}`);
      expect(res.status).toBe(200);
      const jrd = (await res.json()) as { subject: string; links: { rel: string; type?: string; href?: string }[] };
      expect(jrd.subject).toBe(`acct:${slug}@${host()}`);
      const self = jrd.links.find((l) => l.rel === 'self');
      expect(self).toMatchObject({ type: 'application/activity+json', href: `${ctx.server.url}/ap/actors/c-${collection.id}` });

      // Looked up by the remote server, through its own WebFinger client and document loader.
      const byUrl = await lookupWebFinger(self?.href ?? '', { allowPrivateAddress: true });
      expect(byUrl?.subject).toBe(self?.href);
      const actor = await bobContext().lookupObject(self?.href ?? '');
      expect(actor).toBeInstanceOf(Group);
      const group = actor as Group;
      expect(group.preferredUsername?.toString()).toBe(slug);
      expect(group.name?.toString()).toBe('Deep Sea Reading');
      expect(group.summary?.toString()).toBe('<p>Vents &amp; &lt;smokers&gt;</p>');
      expect(group.url?.href).toBe(`${ctx.server.url}/supercurations/public/${slug}`);
      expect(group.inboxId?.href).toBe(`${self?.href}/inbox`);
      expect(group.endpoints?.sharedInbox?.href).toBe(`${ctx.server.url}/ap/inbox`);
      const key = await group.getPublicKey();
      expect(key?.id?.href).toBe(`${self?.href}#main-key`);
      expect(key?.ownerId?.href).toBe(self?.href);

      // Content negotiation: the public page is the actor for ActivityPub clients.
      const page = await http(`${ctx.server.url}/supercurations/public/${slug}`, { headers: AS_JSON });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('application/activity+json');
      expect(((await page.json()) as { id: string }).id).toBe(self?.href);
      // A browser opening the actor's URI is sent to the page.
      const browser = await http(self?.href ?? '', { headers: { accept: 'text/html' }, redirect: 'manual' });
      expect([browser.status, browser.headers.get('location')]).toEqual([302, `${ctx.server.url}/supercurations/public/${slug}`]);
    });

    it('a private collection is no actor: WebFinger, the actor and its page as JSON answer 404', async () => {
      const { curator, collection, slug } = await publicCollection();
      await curator.api.updateSupercuration(collection.id, { isPublic: false });
      expect((await http(`${ctx.server.url}/.well-known/webfinger?resource=acct:${slug}@${host()}`)).status).toBe(404);
      expect((await http(`${ctx.server.url}/ap/actors/c-${collection.id}`, { headers: AS_JSON })).status).toBe(404);
      expect((await http(`${ctx.server.url}/ap/actors/c-nothing`, { headers: AS_JSON })).status).toBe(404);
    });

    it('NodeInfo names the software and the protocol', async () => {
      const links = (await (await http(`${ctx.server.url}/.well-known/nodeinfo`)).json()) as { links: { href: string }[] };
      const info = (await (await http(links.links[0]?.href ?? '')).json()) as { software: { name: string }; protocols: string[] };
      expect(info.software.name).toBe('supercurate');
      expect(info.protocols).toEqual(['activitypub']);
    });

    it('a signed Follow is stored with its inboxes and answered with an Accept; Undo removes it', async () => {
      const { collection } = await publicCollection();
      const b = bobContext();
      const group = (await b.lookupObject(`${ctx.server.url}/ap/actors/c-${collection.id}`)) as Group;
      const follow = new Follow({ id: new URL(`#follows/${crypto.randomUUID()}`, bob.actorUri), actor: bob.actorUri, object: group.id });
      await b.sendActivity({ identifier: 'bob' }, group, follow);

      const accept = await bob.next((a): a is Accept => a instanceof Accept && a.objectId?.href === follow.id?.href);
      expect(accept.actorId?.href).toBe(group.id?.href);
      expect(await remoteFollowers(ctx.server.db, collection.id)).toEqual([
        { actor_uri: bob.actorUri.href, inbox_uri: `${bob.origin}/users/bob/inbox`, shared_inbox_uri: `${bob.origin}/inbox`, host: new URL(bob.origin).host },
      ]);
      const followers = (await (await http(`${group.id?.href}/followers`, { headers: AS_JSON })).json()) as { totalItems: number };
      expect(followers.totalItems).toBe(1);

      await b.sendActivity({ identifier: 'bob' }, group, new Undo({ id: new URL(`#undo/${crypto.randomUUID()}`, bob.actorUri), actor: bob.actorUri, object: follow }));
      expect(await remoteFollowers(ctx.server.db, collection.id)).toEqual([]);
    });

    /** Bob follows the collection, and has its Accept. */
    async function bobFollows(collectionId: string) {
      const b = bobContext();
      const group = (await b.lookupObject(`${ctx.server.url}/ap/actors/c-${collectionId}`)) as Group;
      const follow = new Follow({ id: new URL(`#follows/${crypto.randomUUID()}`, bob.actorUri), actor: bob.actorUri, object: group.id });
      await b.sendActivity({ identifier: 'bob' }, group, follow);
      await bob.next((a): a is Accept => a instanceof Accept && a.objectId?.href === follow.id?.href);
      return { group, follow };
    }
    const deliveries = (db: Db, linkId: string) =>
      db.kysely.selectFrom('federation_deliveries').select(['activity', 'inbox_uri']).where('link_id', '=', linkId).execute();

    it('publishes to followers: a resource added is a signed Create of a Note, removed a Delete; Undo stops it', async () => {
      const curator = await signedInUser(ctx.server.url, 'Curator');
      const topic = await curator.api.createTopic({ name: 'Deep sea', color: '#336699' });
      const collection = await curator.api.createSupercuration({ title: 'Vents', isPublic: true, slug: uniqueSlug('vents'), topics: [topic.id] });
      const { group, follow } = await bobFollows(collection.id);

      const link = await curator.api.addResource(collection.id, {
        link: { title: 'Life at black smokers', description: 'Bacteria & <light>', url: 'https://example.com/smokers', thumbnailUrl: 'https://example.com/smokers.jpg' },
      });
      const create = await bob.next((a): a is Create => a instanceof Create && a.objectId?.href === `${ctx.server.url}/ap/notes/${collection.id}/${link.id}`);
      expect(create.actorId?.href).toBe(group.id?.href);
      const note = (await create.getObject()) as Note;
      expect(note).toBeInstanceOf(Note);
      const content = note.content?.toString() ?? '';
      expect(content).toContain('<a href="https://example.com/smokers">Life at black smokers</a>');
      expect(content).toContain('Bacteria &amp; &lt;light&gt;');
      expect(content).toContain('#<span>DeepSea</span>');
      expect(note.url?.href).toBe(`${ctx.server.url}/links/${link.id}`);
      const [attachment] = await collect(note.getAttachments());
      expect(attachment).toBeInstanceOf(Document);
      expect([(attachment as Document).url?.href, (attachment as Document).name?.toString()]).toEqual(['https://example.com/smokers.jpg', 'Life at black smokers']);
      const [tag] = await collect(note.getTags());
      expect((tag as Hashtag).name?.toString()).toBe('#DeepSea');
      // One delivery per inbox: Bob's server's shared inbox.
      expect(await deliveries(ctx.server.db, link.id)).toEqual([{ activity: 'create', inbox_uri: `${bob.origin}/inbox` }]);
      // The outbox lists it, newest first; the Note dereferences.
      const outbox = (await (await http(`${group.id?.href}/outbox`, { headers: AS_JSON })).json()) as { totalItems: number; first: string };
      expect(outbox.totalItems).toBe(1);
      const page = (await (await http(outbox.first, { headers: AS_JSON })).json()) as { orderedItems: { object: { id: string } }[] };
      expect(page.orderedItems.map((i) => i.object.id)).toEqual([note.id?.href]);
      expect((await http(note.id?.href ?? '', { headers: AS_JSON })).status).toBe(200);

      // An edit of the link reaches them as an Update of the Note.
      await curator.api.updateLink(link.id, { title: 'Life at black smokers, revised' });
      const update = await bob.next((a): a is Update => a instanceof Update && a.objectId?.href === note.id?.href);
      expect(((await update.getObject()) as Note).content?.toString()).toContain('>Life at black smokers, revised</a>');

      await curator.api.removeResource(collection.id, link.id);
      const deleted = await bob.next((a): a is Delete => a instanceof Delete && a.objectId?.href === note.id?.href);
      expect(deleted.actorId?.href).toBe(group.id?.href);
      expect((await http(note.id?.href ?? '', { headers: AS_JSON })).status).toBe(404);

      await bobContext().sendActivity(
        { identifier: 'bob' },
        group,
        new Undo({ id: new URL(`#undo/${crypto.randomUUID()}`, bob.actorUri), actor: bob.actorUri, object: follow }),
      );
      const after = await curator.api.addResource(collection.id, { link: { title: 'After Undo', description: 'Unheard', url: 'https://example.com/after-undo' } });
      expect(await deliveries(ctx.server.db, after.id)).toEqual([]);
    });

    it('a collection made private sends its followers a Delete of the actor, and forgets them', async () => {
      const { curator, collection } = await publicCollection();
      const { group } = await bobFollows(collection.id);
      await curator.api.updateSupercuration(collection.id, { isPublic: false });
      const gone = await bob.next((a): a is Delete => a instanceof Delete && a.objectId?.href === group.id?.href);
      expect(gone.actorId?.href).toBe(group.id?.href);
      expect(await remoteFollowers(ctx.server.db, collection.id)).toEqual([]);
      // Nothing more goes out from it.
      const later = await curator.api.addResource(collection.id, { link: { title: 'Private now', description: 'Unheard', url: 'https://example.com/private-now' } });
      expect(await deliveries(ctx.server.db, later.id)).toEqual([]);
    });

    it('shows the handle and the count on the public page; the owner lists and removes a follower, which is sent a Reject', async () => {
      const { curator, collection, slug } = await publicCollection();
      const collaborator = await signedInUser(ctx.server.url, 'Collaborator');
      await curator.api.addCollaborator(collection.id, collaborator.me.id);
      const stranger = await signedInUser(ctx.server.url, 'Stranger');
      const { follow } = await bobFollows(collection.id);

      const page = await testClient(ctx.server.url).api.getPublicSupercuration(slug);
      expect([page.fediverseHandle, page.fediverseFollowersCount, page.followersCount]).toEqual([`@${slug}@${host()}`, 1, 0]);
      expect(await curator.api.myFediverseFollowers()).toEqual({
        profile: [],
        collections: [
          { supercurationId: collection.id, title: 'Deep Sea Reading', followers: [{ actorUri: bob.actorUri.href, host: new URL(bob.origin).host, followedAt: expect.any(String) }] },
        ],
      });
      expect(await stranger.api.myFediverseFollowers()).toEqual({ profile: [], collections: [] });

      // Only the owner removes one: a collaborator and a stranger are refused, and nothing changes.
      await expectFailure(collaborator.api.removeFediverseFollower(collection.id, bob.actorUri.href), 403, M.ownerOnlyFediverseFollowers);
      await expectFailure(stranger.api.removeFediverseFollower(collection.id, bob.actorUri.href), 403, M.ownerOnlyFediverseFollowers);
      await expectFailure(curator.api.removeFediverseFollower(collection.id, `${bob.origin}/users/nobody`), 404, M.fediverseFollowerNotFound);
      expect(await remoteFollowers(ctx.server.db, collection.id)).toHaveLength(1);

      await curator.api.removeFediverseFollower(collection.id, bob.actorUri.href);
      const reject = await bob.next((a): a is Reject => a instanceof Reject && a.objectId?.href === follow.id?.href);
      expect(reject.actorId?.href).toBe(`${ctx.server.url}/ap/actors/c-${collection.id}`);
      expect(await remoteFollowers(ctx.server.db, collection.id)).toEqual([]);
      expect((await testClient(ctx.server.url).api.getPublicSupercuration(slug)).fediverseFollowersCount).toBe(0);
    });

    it('refuses a forged Follow, unsigned or signed with a key that is not the actor’s, and stores nothing', async () => {
      const { collection } = await publicCollection();
      const actor = `${ctx.server.url}/ap/actors/c-${collection.id}`;
      const body = JSON.stringify({
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${bob.actorUri.href}#forged-${crypto.randomUUID()}`,
        type: 'Follow',
        actor: bob.actorUri.href,
        object: actor,
      });
      const post = (headers: Record<string, string> = {}) =>
        new Request(`${actor}/inbox`, { method: 'POST', headers: { 'content-type': 'application/activity+json', ...headers }, body });

      expect((await http(post())).status).toBe(401);
      // Bob's key id, but signed with another key.
      const other = await crypto.subtle.generateKey(
        { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
        true,
        ['sign', 'verify'],
      );
      const forged = await signRequest(post(), other.privateKey, new URL('#main-key', bob.actorUri));
      expect((await http(forged)).status).toBe(401);
      // Signed by Bob, but the body changed after signing.
      const signed = await signRequest(post(), bob.keys.privateKey, new URL('#main-key', bob.actorUri));
      const tampered = new Request(signed.url, { method: 'POST', headers: signed.headers, body: body.replace('Follow', 'Like') });
      expect((await http(tampered)).status).toBe(401);
      expect(await remoteFollowers(ctx.server.db, collection.id)).toEqual([]);
    });

    it('inboxes refuse bodies over 256 kB, and more than 300 activities a minute from one remote host', async () => {
      const { collection } = await publicCollection();
      const inbox = `${ctx.server.url}/ap/actors/c-${collection.id}/inbox`;
      const follow = JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Follow', actor: bob.actorUri.href, object: inbox.slice(0, -6) });
      const post = (host: string, body = follow) =>
        http(inbox, {
          method: 'POST',
          headers: { 'content-type': 'application/activity+json', signature: `keyId="https://${host}/users/x#main-key",signature="AAAA"` },
          body,
        });
      expect((await post('big.example', JSON.stringify({ padding: 'x'.repeat(INBOX_BODY_LIMIT) }))).status).toBe(413);
      // Nested deep enough to exhaust JSON-LD expansion's stack: refused before it, like any JSON body.
      const deep = await post('deep.example', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`);
      expect([deep.status, ((await deep.json()) as { error: string }).error]).toEqual([400, MSG.jsonTooDeep]);
      // Wrongly signed, so each is refused (401) until the host's minute is used up.
      const statuses = [];
      for (let i = 0; i < INBOX_RATE_LIMIT; i++) statuses.push((await post('flood.example')).status);
      expect(new Set(statuses)).toEqual(new Set([401]));
      expect((await post('flood.example')).status).toBe(429);
      expect((await post('calm.example')).status).toBe(401);
      expect(await remoteFollowers(ctx.server.db, collection.id)).toEqual([]);
    });

    it("keeps Fedify's cache in the database: entries expire, and the purge deletes them", async () => {
      const kv = sqlKvStore(ctx.server.db.kysely);
      await kv.set(['_test', 'kept'], { a: 1 });
      await kv.set(['_test', 'brief'], 'x', { ttl: Temporal.Duration.from({ seconds: 60 }) });
      expect([await kv.get(['_test', 'kept']), await kv.get(['_test', 'brief'])]).toEqual([{ a: 1 }, 'x']);
      await kv.set(['_test', 'kept'], { a: 2 });
      expect(await kv.get(['_test', 'kept'])).toEqual({ a: 2 });
      await kv.purgeExpired(new Date(Date.now() + 61_000));
      const left = await ctx.server.db.kysely.selectFrom('federation_kv').select('key').where('key', 'like', '["_test"%').execute();
      expect(left.map((r) => r.key)).toEqual(['["_test","kept"]']);
      await kv.delete(['_test', 'kept']);
      expect(await kv.get(['_test', 'kept'])).toBeUndefined();
    });
  },
  { FEDERATION: 'true', PREVIEW_ALLOW_PRIVATE: 'true' },
);

describeEachDatabase(
  'fediverse: remote fetches through the SSRF guard',
  (ctx) => {
    it('a Follow from a server at a private address is refused: its key may not be fetched, and nothing is stored', async () => {
      const curator = await signedInUser(ctx.server.url, 'Curator');
      const collection = await curator.api.createSupercuration({ title: 'Guarded', isPublic: true, slug: uniqueSlug('guarded') });
      const actor = `${ctx.server.url}/ap/actors/c-${collection.id}`;
      const body = JSON.stringify({
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${bob.actorUri.href}#follows/${crypto.randomUUID()}`,
        type: 'Follow',
        actor: bob.actorUri.href,
        object: actor,
      });
      const signed = await signRequest(
        new Request(`${actor}/inbox`, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body }),
        bob.keys.privateKey,
        new URL('#main-key', bob.actorUri),
      );
      expect((await http(signed)).status).toBe(401);
      expect(await remoteFollowers(ctx.server.db, collection.id)).toEqual([]);
    });
  },
  { FEDERATION: 'true' },
);

describeEachDatabase(
  'fediverse: a blocked server',
  (ctx) => {
    it('is refused at the inbox (403), and its followers are sent nothing', async () => {
      const curator = await signedInUser(ctx.server.url, 'Curator');
      const collection = await curator.api.createSupercuration({ title: 'Blocking', isPublic: true, slug: uniqueSlug('blocking') });
      const group = (await bob.federation.createContext(new URL(bob.origin), undefined).lookupObject(`${ctx.server.url}/ap/actors/c-${collection.id}`)) as Group;
      const follow = new Follow({ id: new URL(`#follows/${crypto.randomUUID()}`, bob.actorUri), actor: bob.actorUri, object: group.id });
      await expect(bob.federation.createContext(new URL(bob.origin), undefined).sendActivity({ identifier: 'bob' }, group, follow)).rejects.toThrow(/403/);
      expect(await remoteFollowers(ctx.server.db, collection.id)).toEqual([]);

      // A follower from before the block: what was queued for it is cancelled, not sent.
      await addRemoteFollower(ctx.server.db.kysely, { collection: collection.id }, {
        actorUri: bob.actorUri.href,
        inboxUri: `${bob.origin}/users/bob/inbox`,
        sharedInboxUri: `${bob.origin}/inbox`,
        followUri: follow.id?.href ?? '',
      });
      const link = await curator.api.addResource(collection.id, { link: { title: 'Not for them', description: 'Blocked', url: 'https://example.com/blocked' } });
      await expect
        .poll(async () => (await ctx.server.db.kysely.selectFrom('federation_deliveries').select(['status', 'last_error']).where('link_id', '=', link.id).execute()))
        .toEqual([{ status: 'cancelled', last_error: 'Blocked host' }]);
    });
  },
  { FEDERATION: 'true', PREVIEW_ALLOW_PRIVATE: 'true', FEDERATION_BLOCKED_HOSTS: '127.0.0.1' },
);
