import { Accept, Announce, Create, Follow, Group, Person, Reject } from '@fedify/fedify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { http, signedInUser } from '../support/client';
import { testDatabases } from '../support/databases';
import { type RemoteFollower, startRemoteFollower } from '../support/fediverse-follower';
import { uniqueSlug } from '../support/supercurations';
import { expectNoHorizontalScroll, signInInUi, userBlockButton, visible, waitForPath } from './support/flows';
import { useE2E } from './support/harness';

const databases = await testDatabases();

/**
 * Issue 21, from outside: our server runs as its own process with FEDERATION on; "Bob" is a
 * fediverse server on loopback built with the same library (Fedify), in the test's process. He
 * finds a public collection by the handle its page shows, follows it, and gets its new resources;
 * the curator sees him on the dashboard and removes him.
 */
for (const database of databases) {
  describe(`Fediverse [${database.name}]`, () => {
    const e2e = useE2E(database, { env: { FEDERATION: 'true', PREVIEW_ALLOW_PRIVATE: 'true' } });
    let bob: RemoteFollower;
    beforeAll(async () => {
      bob = await startRemoteFollower();
    });
    afterAll(async () => {
      await bob?.close();
    });

    test('a remote server follows a collection by the handle on its page, gets its new resource; the curator removes it from the dashboard', async () => {
      const curator = await signedInUser(e2e.server.url, 'Cora Curator');
      const slug = uniqueSlug('reef');
      const collection = await curator.api.createSupercuration({ title: 'Reef Reading', description: 'Coral science', isPublic: true, slug });
      const handle = `@${slug}@${new URL(e2e.server.url).host}`;

      // A visitor, on a phone, reads how to follow it from Mastodon.
      const visitor = await e2e.open({ viewport: { width: 375, height: 800 } });
      await visitor.goto(`/supercurations/public/${slug}`);
      await visible(visitor.getByText('Follow from Mastodon or the fediverse'));
      await visible(visitor.getByText(handle, { exact: true }));
      await visible(visitor.getByRole('button', { name: 'Copy fediverse handle' }));
      await expectNoHorizontalScroll(visitor, 375);

      // Bob's server resolves the handle (WebFinger) and follows the actor it names.
      const jrd = (await (await http(`${e2e.server.url}/.well-known/webfinger?resource=acct:${handle.slice(1)}`)).json()) as {
        links: { rel: string; href?: string }[];
      };
      const actorUri = jrd.links.find((l) => l.rel === 'self')?.href ?? '';
      const b = bob.federation.createContext(new URL(bob.origin), undefined);
      const group = await b.lookupObject(actorUri);
      expect(group).toBeInstanceOf(Group);
      const follow = new Follow({ id: new URL(`#follows/${crypto.randomUUID()}`, bob.actorUri), actor: bob.actorUri, object: (group as Group).id });
      await b.sendActivity({ identifier: 'bob' }, group as Group, follow);
      await bob.next((a): a is Accept => a instanceof Accept && a.objectId?.href === follow.id?.href);

      await visitor.reload();
      await visible(visitor.getByText('1 follower (1 on the fediverse)'));

      // A new resource reaches Bob's server.
      const link = await curator.api.addResource(collection.id, {
        link: { title: 'Corals glow under stress', description: 'Fluorescence as a signal', url: 'https://example.com/corals' },
      });
      const create = await bob.next((a): a is Create => a instanceof Create && (a.objectId?.href ?? '').endsWith(`/${link.id}`));
      expect(create.actorId?.href).toBe(actorUri);

      // The curator sees Bob on the dashboard and removes him: his server is sent a Reject.
      const page = await e2e.open();
      await signInInUi(page, curator.input);
      await waitForPath(page, '/home');
      await page.goto('/dashboard');
      await visible(page.getByRole('heading', { name: 'Fediverse followers' }));
      await visible(page.getByRole('link', { name: bob.actorUri.href }));
      await page.getByRole('button', { name: `Remove follower ${bob.actorUri.href}` }).click();
      await visible(page.getByText('Follower removed'));
      await bob.next((a): a is Reject => a instanceof Reject && a.objectId?.href === follow.id?.href);
      await expect.poll(() => page.getByRole('heading', { name: 'Fediverse followers' }).count()).toBe(0);

      await visitor.reload();
      await visible(visitor.getByText('0 followers'));
    });

    test('a curator names themself in Edit profile; visitors see the handle on the profile; a remote server follows them and hears of new resources; the curator removes it', async () => {
      const curator = await signedInUser(e2e.server.url, 'Rosalind Franklin');
      const collection = await curator.api.createSupercuration({ title: 'Helices', description: 'X-ray patterns', isPublic: true, slug: uniqueSlug('helix') });
      const username = `rosalind_${crypto.randomUUID().slice(0, 6)}`;
      const page = await e2e.open();
      await signInInUi(page, curator.input);
      await waitForPath(page, '/home');
      await userBlockButton(page, 'Rosalind Franklin').click();
      const dialog = await visible(page.getByRole('dialog', { name: 'Edit profile' }));
      const field = dialog.getByLabel('Fediverse username');
      // Made from the name when the first collection turned public; any other is the user's to choose.
      expect(await field.inputValue()).toMatch(/^rosalind_franklin\d*$/);
      await field.fill('rosalind-f');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await visible(dialog.getByText('Only lowercase letters, numbers, and underscores are allowed'));
      await field.fill(username.toUpperCase());
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'hidden' });

      // A visitor, on a phone, finds the handle on the curator's profile.
      const handle = `@${username}@${new URL(e2e.server.url).host}`;
      const visitor = await e2e.open({ viewport: { width: 375, height: 800 } });
      await visitor.goto(`/profile/${curator.me.id}`);
      await visible(visitor.getByText(handle, { exact: true }));
      await visible(visitor.getByRole('button', { name: 'Copy fediverse handle' }));
      await expectNoHorizontalScroll(visitor, 375);

      const jrd = (await (await http(`${e2e.server.url}/.well-known/webfinger?resource=acct:${handle.slice(1)}`)).json()) as { links: { rel: string; href?: string }[] };
      const b = bob.federation.createContext(new URL(bob.origin), undefined);
      const person = await b.lookupObject(jrd.links.find((l) => l.rel === 'self')?.href ?? '');
      expect(person).toBeInstanceOf(Person);
      const follow = new Follow({ id: new URL(`#follows/${crypto.randomUUID()}`, bob.actorUri), actor: bob.actorUri, object: (person as Person).id });
      await b.sendActivity({ identifier: 'bob' }, person as Person, follow);
      await bob.next((a): a is Accept => a instanceof Accept && a.objectId?.href === follow.id?.href);

      const link = await curator.api.addResource(collection.id, { link: { title: 'Photo 51', description: 'The B-form', url: 'https://example.com/photo-51' } });
      const announce = await bob.next((a): a is Announce => a instanceof Announce && (a.objectId?.href ?? '').endsWith(`/${link.id}`));
      expect(announce.actorId?.href).toBe((person as Person).id?.href);

      await page.goto('/dashboard');
      await visible(page.getByRole('heading', { name: 'Fediverse followers' }));
      await visible(page.getByText('You, as a curator'));
      await page.getByRole('button', { name: `Remove follower ${bob.actorUri.href}` }).click();
      await visible(page.getByText('Follower removed'));
      await bob.next((a): a is Reject => a instanceof Reject && a.objectId?.href === follow.id?.href);
      await expect.poll(() => page.getByRole('heading', { name: 'Fediverse followers' }).count()).toBe(0);
    });
  });
}
