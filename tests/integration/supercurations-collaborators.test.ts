import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { COLLABORATOR_SEARCH_LIMIT, LINK_MESSAGES, MSG, SUPERCURATION_MESSAGES as M, TOPIC_PALETTE } from '../../shared/domain';
import { SUBSCRIBE_RATE_LIMIT } from '../../server/http/email-subscription-routes';
import { signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { createCollection, expectFailure, failure, rowCount } from '../support/supercurations';

describeEachDatabase('supercurations: collaborators and tag categories', (ctx) => {
  it('searches users by name from one character, case-insensitively, without self, owner and collaborators, at most 10', async () => {
    const tag = `Qx${Date.now().toString(36).slice(-4)}`;
    const owner = await signedInUser(ctx.server.url, `${tag} Owner`);
    const c = await createCollection(owner);
    const people = [];
    for (let i = 0; i < COLLABORATOR_SEARCH_LIMIT + 2; i += 1) people.push(await signedInUser(ctx.server.url, `${tag} Person ${i}`));
    const odd = await signedInUser(ctx.server.url, `50%_off ${tag}`);
    await owner.api.addCollaborator(c.id, people[0]!.me.id);

    const found = await owner.api.searchCollaborators(c.id, tag.toLowerCase());
    expect(found).toHaveLength(COLLABORATOR_SEARCH_LIMIT);
    const ids = found.map((u) => u.id);
    expect(ids).not.toContain(owner.me.id);
    expect(ids).not.toContain(people[0]!.me.id);
    expect(found[0]).toEqual({ id: expect.any(String), name: expect.any(String), avatarUrl: expect.any(String) });
    expect(found[0]).not.toHaveProperty('email');
    // A collaborator searching doesn't find themself, the owner or other collaborators either.
    const byCollaborator = await people[0]!.api.searchCollaborators(c.id, `${tag} person 1`);
    expect(byCollaborator.map((u) => u.name).sort()).toEqual([`${tag} Person 1`, `${tag} Person 10`, `${tag} Person 11`]);
    // Wildcards are literal.
    expect((await owner.api.searchCollaborators(c.id, '%_')).map((u) => u.id)).toEqual([odd.me.id]);
    expect((await owner.api.searchCollaborators(c.id, '5')).map((u) => u.id)).toContain(odd.me.id);
    expect(await owner.api.searchCollaborators(c.id, '   ')).toEqual([]);
  });

  it('adds and removes collaborators, answering the added name; refuses the owner, duplicates and unknown users', async () => {
    const owner = await signedInUser(ctx.server.url);
    const friend = await signedInUser(ctx.server.url, 'Friendly Fran');
    const c = await createCollection(owner);
    const added = await owner.api.addCollaborator(c.id, friend.me.id);
    expect(added).toEqual({ id: friend.me.id, name: 'Friendly Fran', avatarUrl: expect.stringContaining(friend.me.id) });
    expect((await friend.api.getSupercuration(c.id)).canEdit).toBe(true);
    await expectFailure(owner.api.addCollaborator(c.id, friend.me.id), 409, M.alreadyCollaborator);
    await expectFailure(owner.api.addCollaborator(c.id, owner.me.id), 400, M.ownerIsNotCollaborator);
    await expectFailure(owner.api.addCollaborator(c.id, 'no-such-user'), 404, M.userNotFound);
    await expectFailure(owner.api.addCollaborator(c.id, '' as string), 400, M.invalidInput);
    expect(await rowCount(ctx.server.db, 'collaborators')).toBeGreaterThan(0);
    await owner.api.removeCollaborator(c.id, friend.me.id);
    await expectFailure(owner.api.removeCollaborator(c.id, friend.me.id), 404, M.collaboratorNotFound);
    await expectFailure(friend.api.getSupercuration(c.id), 404, M.notFound);
  });

  it("creates 'New Category' with a palette colour, renames, recolours, adds and removes unique tags, deletes", async () => {
    const owner = await signedInUser(ctx.server.url);
    const c = await createCollection(owner);
    const category = await owner.api.createTagCategory(c.id);
    expect(category.name).toBe('New Category');
    expect(TOPIC_PALETTE).toContain(category.color);
    expect(category.tags).toEqual([]);
    const second = await owner.api.createTagCategory(c.id);

    const renamed = await owner.api.updateTagCategory(c.id, category.id, { name: '  Level ', color: '#16A34A' });
    expect([renamed.name, renamed.color]).toEqual(['Level', '#16a34a']);
    await expectFailure(owner.api.updateTagCategory(c.id, category.id, { name: '   ' }), 400, M.categoryNameRequired);
    await expectFailure(owner.api.updateTagCategory(c.id, category.id, { color: 'red' }), 400, LINK_MESSAGES.invalidColor);
    await expectFailure(owner.api.updateTagCategory(c.id, 'nope', { name: 'x' }), 404, M.categoryNotFound);

    expect((await owner.api.addTag(c.id, category.id, ' beginner ')).tags).toEqual(['beginner']);
    expect((await owner.api.addTag(c.id, category.id, 'advanced')).tags).toEqual(['advanced', 'beginner']);
    await expectFailure(owner.api.addTag(c.id, category.id, 'beginner'), 409, M.tagExists);
    await expectFailure(owner.api.addTag(c.id, category.id, '  '), 400, M.tagNameRequired);
    // Unique per category: another category may have the same name.
    expect((await owner.api.addTag(c.id, second.id, 'beginner')).tags).toEqual(['beginner']);
    // A category of another collection is not found through this one.
    const other = await createCollection(owner);
    await expectFailure(owner.api.addTag(other.id, category.id, 'x'), 404, M.categoryNotFound);

    const link = await owner.api.addResource(c.id, { link: { title: 't', description: 'd', url: 'https://example.com/lvl' } });
    await owner.api.setResourceTags(c.id, link.id, ['advanced', 'beginner']);
    expect((await owner.api.removeTag(c.id, category.id, 'advanced')).tags).toEqual(['beginner']);
    expect((await owner.api.getLink(link.id)).supercurationTags[c.id]).toEqual(['beginner']);
    await expectFailure(owner.api.removeTag(c.id, category.id, 'advanced'), 404, M.tagNotFound);

    const detail = await owner.api.getSupercuration(c.id);
    expect(detail.tagCategories.map((t) => [t.name, t.tags])).toEqual([
      ['Level', ['beginner']],
      ['New Category', ['beginner']],
    ]);
    await owner.api.deleteTagCategory(c.id, category.id);
    // The other category's 'beginner' still tags the link.
    expect((await owner.api.getLink(link.id)).supercurationTags[c.id]).toEqual(['beginner']);
    await owner.api.deleteTagCategory(c.id, second.id);
    expect((await owner.api.getLink(link.id)).supercurationTags[c.id]).toEqual([]);
    await expectFailure(owner.api.deleteTagCategory(c.id, second.id), 404, M.categoryNotFound);
  });
});

describeEachDatabase('supercurations: e-mail subscribers', (ctx) => {
  it('stores a valid address once per collection, unconfirmed with a token hash, and never tells it was there', async () => {
    const owner = await signedInUser(ctx.server.url);
    const c = await createCollection(owner, { isPublic: true });
    const visitor = testClient(ctx.server.url).api;
    const first = await visitor.subscribeByEmail(c.id, '  Reader@Example.com ');
    const again = await visitor.subscribeByEmail(c.id, 'reader@example.com');
    expect(first).toEqual({ message: M.subscribeThanks });
    expect(again).toEqual(first);
    const rows = await ctx.server.db.kysely.selectFrom('email_subscribers').selectAll().where('supercuration_id', '=', c.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: 'reader@example.com', confirmed_at: null });
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.token_hash).not.toBe(createHash('sha256').update('').digest('hex'));

    const before = await rowCount(ctx.server.db, 'email_subscribers');
    for (const email of ['', 'not-an-email', 'a@', '@b.c', 'x'.repeat(300)]) {
      await expectFailure(visitor.subscribeByEmail(c.id, email), 400, M.emailInvalid);
    }
    const priv = await createCollection(owner);
    await expectFailure(visitor.subscribeByEmail(priv.id, 'reader@example.com'), 404, M.notFound);
    expect(await rowCount(ctx.server.db, 'email_subscribers')).toBe(before);
  });

  it(`rate limits subscriptions per address (${SUBSCRIBE_RATE_LIMIT} a minute)`, async () => {
    const owner = await signedInUser(ctx.server.url);
    const c = await createCollection(owner, { isPublic: true });
    const visitor = testClient(ctx.server.url).api;
    const results = await Promise.allSettled(
      Array.from({ length: SUBSCRIBE_RATE_LIMIT + 2 }, (_, i) => visitor.subscribeByEmail(c.id, `r${i}@example.com`)),
    );
    const limited = results.filter((r) => r.status === 'rejected');
    expect(limited.length).toBeGreaterThanOrEqual(2);
    const err = await failure(visitor.subscribeByEmail(c.id, 'late@example.com'));
    expect([err.status, err.message]).toEqual([429, MSG.tooManyRequests]);
  });
});
