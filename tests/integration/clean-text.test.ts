import { expect, it } from 'vitest';
import { TEXT_MESSAGES } from '../../shared/domain';
import { failure, newUser, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { createCollection } from '../support/supercurations';

const refused = (err: { status: number; message: string }) => [err.status, err.message];
const REFUSED = [400, TEXT_MESSAGES.controlCharacters];

describeEachDatabase('clean text', (ctx) => {
  it('refuses a collection titled with NUL characters and stores nothing', async () => {
    const user = await signedInUser(ctx.server.url);
    expect(refused(await failure(user.api.createSupercuration({ title: '\u0000\u0000' })))).toEqual(REFUSED);
    expect(refused(await failure(user.api.createSupercuration({ title: 'Fine', description: 'Bad \u202e' })))).toEqual(REFUSED);
    const rows = await ctx.server.db.kysely.selectFrom('supercurations').select('id').where('user_id', '=', user.me.id).execute();
    expect(rows).toEqual([]);
  });

  it('refuses a name with NUL or a right-to-left override on PATCH /api/users/:id, changing nothing', async () => {
    const user = await signedInUser(ctx.server.url, 'Plain Name');
    for (const name of ['Evil\u0000Name', 'Evil\u202eemaN', 'Iso\u2066late']) {
      const err = await failure(user.api.updateProfile(user.me.id, { name, bio: 'changed' }));
      expect(refused(err), JSON.stringify(name)).toEqual(REFUSED);
    }
    expect(await user.api.me()).toEqual(user.me);
  });

  it('refuses such a name at sign-up, creating no account', async () => {
    const input = newUser('Evil\u202eemaN');
    const err = await failure(testClient(ctx.server.url).api.signUp(input));
    expect(refused(err)).toEqual(REFUSED);
    const rows = await ctx.server.db.kysely.selectFrom('user').select('id').where('email', '=', input.email).execute();
    expect(rows).toEqual([]);
  });

  it('stores titles, names and tags in NFC', async () => {
    const user = await signedInUser(ctx.server.url);
    const link = await user.api.createLink({ title: 'Cafe\u0301 notes', description: 'Line one\nline\ttwo', url: 'https://example.com/cafe' });
    expect([link.title, link.description]).toEqual(['Café notes', 'Line one\nline\ttwo']);
    const row = await ctx.server.db.kysely.selectFrom('links').select(['title', 'description']).where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ title: 'Café notes', description: 'Line one\nline\ttwo' });

    const collection = await createCollection(user, { title: 'Re\u0301sume\u0301s' });
    expect(collection.title).toBe('Résumés');
    const category = await user.api.createTagCategory(collection.id);
    const renamed = await user.api.updateTagCategory(collection.id, category.id, { name: 'Ge\u0301nero' });
    expect(renamed.name).toBe('Género');
    const tagged = await user.api.addTag(collection.id, category.id, 'nai\u0308ve');
    expect(tagged.tags).toEqual(['naïve']);
    expect(refused(await failure(user.api.addTag(collection.id, category.id, 'bad\u0085tag')))).toEqual(REFUSED);

    const topic = await user.api.createTopic({ name: 'Cine\u0301ma', color: '#2563eb' });
    expect(topic.name).toBe('Cinéma');
    const profile = await user.api.updateProfile(user.me.id, { name: 'Zoe\u0308', bio: 'Two\r\nlines' });
    expect([profile.name, profile.bio]).toEqual(['Zoë', 'Two\nlines']);
  });

  it('refuses control characters in every text of a link and of a topic', async () => {
    const user = await signedInUser(ctx.server.url);
    const link = { title: 'ok', description: 'ok', url: 'https://example.com/x' };
    for (const bad of [{ title: 'a\nb' }, { title: 'a\u0000' }, { description: 'a\u009b' }, { linkText: 'Go\u2069' }]) {
      expect(refused(await failure(user.api.createLink({ ...link, ...bad }))), JSON.stringify(bad)).toEqual(REFUSED);
    }
    expect(refused(await failure(user.api.createTopic({ name: 'a\u202ab', color: '#2563eb' })))).toEqual(REFUSED);
    expect((await user.api.listLinks({ scope: 'mine' })).items).toEqual([]);
  });
});
