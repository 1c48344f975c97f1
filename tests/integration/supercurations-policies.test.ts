import { beforeAll, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/api/client';
import { MSG, SUPERCURATION_MESSAGES as M } from '../../shared/domain';
import { signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { type User, createCollection, failure } from '../support/supercurations';

type Role = 'visitor' | 'stranger' | 'collaborator' | 'owner';
const ROLES: Role[] = ['visitor', 'stranger', 'collaborator', 'owner'];

/** A fresh collection per case, with a collaborator, one resource, one tag category with one tag. */
interface Fixture {
  id: string;
  slug: string | null;
  linkId: string;
  categoryId: string;
  extraCollaboratorId: string;
}

/** What a role gets: 'ok', or [status, message]. */
type Outcome = 'ok' | [number, string];

const NF: Outcome = [404, M.notFound];
const EDIT = (visitor: string, isPublic: boolean): Record<Role, Outcome> => ({
  visitor: [401, visitor],
  stranger: isPublic ? [403, M.cannotEdit] : NF,
  collaborator: 'ok',
  owner: 'ok',
});
const SEE = (isPublic: boolean): Record<Role, Outcome> =>
  isPublic
    ? { visitor: 'ok', stranger: 'ok', collaborator: 'ok', owner: 'ok' }
    : { visitor: NF, stranger: NF, collaborator: 'ok', owner: 'ok' };

interface Rule {
  name: string;
  expect(isPublic: boolean): Record<Role, Outcome>;
  run(api: ApiClient, f: Fixture): Promise<unknown>;
}

const RULES: Rule[] = [
  { name: 'view the collection', expect: SEE, run: (api, f) => api.getSupercuration(f.id) },
  { name: 'list its resources', expect: SEE, run: (api, f) => api.listResources(f.id) },
  {
    name: 'see it on the public page',
    expect: (isPublic) =>
      Object.fromEntries(ROLES.map((r) => [r, isPublic ? 'ok' : [404, M.publicNotFound]])) as Record<Role, Outcome>,
    run: (api, f) => api.getPublicSupercuration(f.slug ?? 'private-has-no-slug'),
  },
  {
    name: 'subscribe by e-mail',
    expect: (isPublic) => Object.fromEntries(ROLES.map((r) => [r, isPublic ? 'ok' : NF])) as Record<Role, Outcome>,
    run: (api, f) => api.subscribeByEmail(f.id, 'policy-reader@example.com'),
  },
  {
    name: 'update it',
    expect: (p) => EDIT(M.mustLogInToUpdate, p),
    run: (api, f) => api.updateSupercuration(f.id, { title: 'Changed' }),
  },
  {
    name: 'change its topics (owner only: topics are per user)',
    expect: (p) => ({ ...EDIT(M.mustLogInToUpdate, p), collaborator: [403, M.ownerOnlyTopics] }),
    run: (api, f) => api.updateSupercuration(f.id, { topics: ['ai'] }),
  },
  {
    name: 'delete it (owner only)',
    expect: (p) => ({
      visitor: [401, M.mustLogInToRemove],
      stranger: p ? [403, M.ownerOnlyDelete] : NF,
      collaborator: [403, M.ownerOnlyDelete],
      owner: 'ok',
    }),
    run: (api, f) => api.deleteSupercuration(f.id),
  },
  {
    name: 'add a resource',
    expect: (p) => EDIT(M.mustLogInToUpdate, p),
    run: (api, f) => api.addResource(f.id, { link: { title: 'New', description: 'd', url: `https://example.com/${Math.random()}` } }),
  },
  {
    name: 'tag a resource',
    expect: (p) => EDIT(M.mustLogInToUpdate, p),
    run: (api, f) => api.setResourceTags(f.id, f.linkId, ['first']),
  },
  {
    name: 'remove a resource',
    expect: (p) => EDIT(M.mustLogInToUpdate, p),
    run: (api, f) => api.removeResource(f.id, f.linkId),
  },
  { name: 'create a tag category', expect: (p) => EDIT(M.mustLogInToUpdate, p), run: (api, f) => api.createTagCategory(f.id) },
  {
    name: 'rename and recolour a tag category',
    expect: (p) => EDIT(M.mustLogInToUpdate, p),
    run: (api, f) => api.updateTagCategory(f.id, f.categoryId, { name: 'Kinds', color: '#DC2626' }),
  },
  {
    name: 'delete a tag category',
    expect: (p) => EDIT(M.mustLogInToUpdate, p),
    run: (api, f) => api.deleteTagCategory(f.id, f.categoryId),
  },
  { name: 'add a tag', expect: (p) => EDIT(M.mustLogInToUpdate, p), run: (api, f) => api.addTag(f.id, f.categoryId, 'second') },
  { name: 'remove a tag', expect: (p) => EDIT(M.mustLogInToUpdate, p), run: (api, f) => api.removeTag(f.id, f.categoryId, 'first') },
  { name: 'search collaborators', expect: (p) => EDIT(M.mustLogInToUpdate, p), run: (api, f) => api.searchCollaborators(f.id, 'a') },
  {
    name: 'remove another collaborator (owner only)',
    expect: (p) => ({
      visitor: [401, M.mustLogInToUpdate],
      stranger: p ? [403, M.cannotEdit] : NF,
      collaborator: [403, M.ownerOnlyRemoveCollaborator],
      owner: 'ok',
    }),
    run: (api, f) => api.removeCollaborator(f.id, f.extraCollaboratorId),
  },
];

describeEachDatabase('supercurations: policies per rule and role', (ctx) => {
  const users = {} as Record<Exclude<Role, 'visitor'>, User> & { extra: User; added: User[] };
  const apiOf = (role: Role): ApiClient => (role === 'visitor' ? testClient(ctx.server.url).api : users[role].api);

  beforeAll(async () => {
    users.owner = await signedInUser(ctx.server.url, 'Owner Person');
    users.collaborator = await signedInUser(ctx.server.url, 'Collab Person');
    users.stranger = await signedInUser(ctx.server.url, 'Stranger Person');
    users.extra = await signedInUser(ctx.server.url, 'Extra Person');
  });

  async function fixture(isPublic: boolean): Promise<Fixture> {
    const owner = users.owner.api;
    const c = await createCollection(users.owner, { isPublic });
    await owner.addCollaborator(c.id, users.collaborator.me.id);
    await owner.addCollaborator(c.id, users.extra.me.id);
    const link = await owner.addResource(c.id, { link: { title: 'L', description: 'd', url: `https://example.com/p/${c.id}` } });
    const category = await owner.createTagCategory(c.id);
    await owner.addTag(c.id, category.id, 'first');
    return { id: c.id, slug: c.slug, linkId: link.id, categoryId: category.id, extraCollaboratorId: users.extra.me.id };
  }

  for (const rule of RULES) {
    for (const isPublic of [false, true]) {
      it(`${rule.name} — ${isPublic ? 'public' : 'private'} collection`, async () => {
        const expected = rule.expect(isPublic);
        for (const role of ROLES) {
          const f = await fixture(isPublic);
          const outcome = expected[role];
          const label = `${rule.name} / ${isPublic ? 'public' : 'private'} / ${role}`;
          if (outcome === 'ok') {
            await expect(rule.run(apiOf(role), f), label).resolves.not.toThrow();
          } else {
            const err = await failure(rule.run(apiOf(role), f));
            expect([err.status, err.message], label).toEqual(outcome);
          }
        }
      });
    }
  }

  it('create: visitors get 401, any signed-in user creates', async () => {
    const err = await failure(testClient(ctx.server.url).api.createSupercuration({ title: 'x' }));
    expect([err.status, err.message]).toEqual([401, M.mustLogInToCreate]);
    for (const role of ['stranger', 'collaborator', 'owner'] as const) {
      expect((await users[role].api.createSupercuration({ title: role })).isOwner).toBe(true);
    }
  });

  it('a collaborator may add collaborators and leave; refused changes write nothing', async () => {
    const f = await fixture(false);
    const newcomer = await signedInUser(ctx.server.url, 'Newcomer Person');
    const added = await users.collaborator.api.addCollaborator(f.id, newcomer.me.id);
    expect(added).toMatchObject({ id: newcomer.me.id, name: 'Newcomer Person' });
    await users.collaborator.api.removeCollaborator(f.id, users.collaborator.me.id);
    const err = await failure(users.collaborator.api.getSupercuration(f.id));
    expect([err.status, err.message]).toEqual([404, M.notFound]);
    const detail = await users.owner.api.getSupercuration(f.id);
    expect(detail.collaborators.map((c) => c.id).sort()).toEqual([users.extra.me.id, newcomer.me.id].sort());
    expect(detail.title).toBe('A collection');
    expect(detail.tagCategories).toEqual([expect.objectContaining({ tags: ['first'] })]);
    expect(detail.linksCount).toBe(1);
  });

  it("a collaborator's edit may carry the collection's topics unchanged; a change of them writes nothing", async () => {
    const f = await fixture(false);
    await users.owner.api.updateSupercuration(f.id, { topics: ['ai', 'growth'] });
    const edited = await users.collaborator.api.updateSupercuration(f.id, { title: 'Renamed', topics: ['growth', 'ai'] });
    expect([edited.title, [...edited.topics].sort()]).toEqual(['Renamed', ['ai', 'growth']]);
    const err = await failure(users.collaborator.api.updateSupercuration(f.id, { title: 'Again', topics: ['ai'] }));
    expect([err.status, err.message]).toEqual([403, M.ownerOnlyTopics]);
    const detail = await users.owner.api.getSupercuration(f.id);
    expect([detail.title, [...detail.topics].sort()]).toEqual(['Renamed', ['ai', 'growth']]);
  });

  it('private collections stay out of the directory, My Supercurations and search for everyone but editors', async () => {
    const f = await fixture(false);
    const word = `hidden${Date.now().toString(36)}`;
    await users.owner.api.updateSupercuration(f.id, { title: `Title ${word}` });
    for (const role of ROLES) {
      const dir = await apiOf(role).directory({ q: word });
      expect(dir.items.map((s) => s.id), role).not.toContain(f.id);
    }
    expect((await users.stranger.api.listSupercurations()).items.map((s) => s.id)).not.toContain(f.id);
    expect((await users.collaborator.api.listSupercurations()).items.map((s) => s.id)).toContain(f.id);
    expect((await users.stranger.api.mySupercurationChoices()).map((s) => s.id)).not.toContain(f.id);
    expect((await users.collaborator.api.mySupercurationChoices()).map((s) => s.id)).toContain(f.id);
    // And a stranger can't put links into it.
    const err = await failure(
      users.stranger.api.createLink({ title: 't', description: 'd', supercurationIds: [f.id] }),
    );
    expect([err.status, err.message]).toEqual([404, M.notFound]);
  });

  it('editor-only lists need a session', async () => {
    const visitor = testClient(ctx.server.url).api;
    for (const call of [visitor.listSupercurations(), visitor.mySupercurationChoices()]) {
      const err = await failure(call);
      expect([err.status, err.message]).toEqual([401, MSG.notAuthenticated]);
    }
  });
});
