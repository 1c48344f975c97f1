import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TOPIC_NAMES,
  FOCUS_CATEGORIES,
  FOCUS_MAPPED_TOPIC_IDS,
  FOCUS_TOPIC_IDS,
  SUPERCURATION_MESSAGES as M,
  addResourceSchema,
  addedCollaborator,
  createSupercurationSchema,
  directoryQuerySchema,
  emailSubscribeSchema,
  focusCategoriesOf,
  setResourceTagsSchema,
  slugify,
  tagInputSchema,
  topicIdOf,
  updateSupercurationSchema,
  updateTagCategorySchema,
} from '../../shared/domain';
import { ftsMatch, pgSearchDocument, searchWords } from '../../server/db/search';
import {
  type SupercurationAccess,
  canDeleteSupercuration,
  canEditSupercuration,
  canEditSupercurationTopics,
  canRemoveCollaborator,
  canSeePublicPage,
  canSeeSupercuration,
  canSubscribeByEmail,
  isSupercurationOwner,
} from '../../server/policies/supercurations';
import type { Viewer } from '../../server/policies/viewer';

const firstError = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error?.issues[0]?.message;

describe('slugify (SPEC §5)', () => {
  it.each([
    ['My Great List', 'my-great-list'],
    ['  --Hello,   World!!--  ', 'hello-world'],
    ['Stratégie & Innovation', 'strategie-innovation'],
    ['AI/ML 2025', 'ai-ml-2025'],
    ['日本', ''],
    ['', ''],
  ])('%j → %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('caps the length without a trailing hyphen', () => {
    const slug = slugify(`${'a'.repeat(99)} b`);
    expect(slug.length).toBeLessThanOrEqual(100);
    expect(slug.endsWith('-')).toBe(false);
  });
});

describe('supercuration input schemas', () => {
  it('requires a title, non-empty after trimming', () => {
    expect(firstError(createSupercurationSchema.safeParse({ title: '   ' }))).toBe(M.titleRequired);
    expect(firstError(createSupercurationSchema.safeParse({}))).toBe(M.titleRequired);
    expect(createSupercurationSchema.parse({ title: ' T ' })).toEqual({
      title: 'T',
      description: '',
      isPublic: false,
      slug: null,
      topics: [],
      thumbnailUrl: null,
    });
  });

  it('requires a valid slug for public collections and drops it for private ones', () => {
    expect(firstError(createSupercurationSchema.safeParse({ title: 'T', isPublic: true }))).toBe(M.slugRequired);
    for (const slug of ['A', 'a b', 'a--b', '-a', 'a-', 'é', 'a_b', 'a'.repeat(101)]) {
      expect(firstError(createSupercurationSchema.safeParse({ title: 'T', isPublic: true, slug })), slug).toBe(M.slugInvalid);
    }
    expect(createSupercurationSchema.parse({ title: 'T', isPublic: true, slug: ' ab-1 ' }).slug).toBe('ab-1');
    expect(createSupercurationSchema.parse({ title: 'T', isPublic: false, slug: 'ab' }).slug).toBeNull();
    expect(updateSupercurationSchema.parse({ slug: '' })).toEqual({ slug: null });
    expect(updateSupercurationSchema.parse({})).toEqual({});
  });

  it('checks the other inputs with their texts', () => {
    expect(firstError(emailSubscribeSchema.safeParse({ email: 'nope' }))).toBe(M.emailInvalid);
    expect(firstError(emailSubscribeSchema.safeParse({}))).toBe(M.emailInvalid);
    expect(emailSubscribeSchema.parse({ email: ' A@B.co ' }).email).toBe('a@b.co');
    expect(firstError(tagInputSchema.safeParse({ name: '  ' }))).toBe(M.tagNameRequired);
    expect(firstError(updateTagCategorySchema.safeParse({ name: ' ' }))).toBe(M.categoryNameRequired);
    expect(setResourceTagsSchema.parse({ tags: ['a', 'a', ' b '] }).tags).toEqual(['a', 'b']);
    expect(addResourceSchema.safeParse({}).success).toBe(false);
    expect(addResourceSchema.safeParse({ linkId: 'x', link: { title: 't', description: 'd' } }).success).toBe(false);
    expect(addResourceSchema.parse({ link: { title: 't', description: 'd' } }).link?.linkText).toBe('Visit Link');
    expect(directoryQuerySchema.parse({ q: '   ' }).q).toBeUndefined();
    expect(addedCollaborator('Ada')).toBe('Added Ada as collaborator');
  });
});

describe('focus categories', () => {
  it('maps every default topic to a focus category, and every category to a list', () => {
    const defaults = DEFAULT_TOPIC_NAMES.map(topicIdOf);
    for (const id of defaults) expect(FOCUS_MAPPED_TOPIC_IDS, id).toContain(id);
    expect(Object.keys(FOCUS_TOPIC_IDS).sort()).toEqual([...FOCUS_CATEGORIES].sort());
  });

  it('puts a collection in each category of its topics, or generaliste', () => {
    expect(focusCategoriesOf(['ai', 'future-of-work'])).toEqual(['ia', 'futur-of-work']);
    expect(focusCategoriesOf(['productivity'])).toEqual(['futur-of-work']);
    expect(focusCategoriesOf(['my-own-topic'])).toEqual(['generaliste']);
    expect(focusCategoriesOf(['my-own-topic', 'productivity', 'ai', 'ia'])).toEqual(['ia', 'futur-of-work']);
    expect(focusCategoriesOf([])).toEqual(['generaliste']);
  });
});

describe('directory search terms', () => {
  it('keeps letters and digits of any script as words, at most 8', () => {
    expect(searchWords(`Hello, "world" -- NEAR( x*y 日本 ${'w '.repeat(20)}`)).toEqual([
      'Hello',
      'world',
      'NEAR',
      'x',
      'y',
      '日本',
      'w',
      'w',
    ]);
    expect(searchWords('%_*"')).toEqual([]);
  });

  it('quotes words as FTS5 prefixes and keeps the PostgreSQL document expression stable', () => {
    expect(ftsMatch(['growth', 'ide'])).toBe('"growth"* "ide"*');
    expect(pgSearchDocument()).toMatch(/^to_tsvector\('simple'::regconfig, translate\(lower\(title \|\| ' ' \|\| description\), '/);
  });
});

describe('supercuration policies', () => {
  const owner: Viewer = { id: 'o', email: 'o@x.y', name: 'O' };
  const collaborator: Viewer = { id: 'c', email: 'c@x.y', name: 'C' };
  const stranger: Viewer = { id: 's', email: 's@x.y', name: 'S' };
  const access = (viewer: Viewer | null, isPublic: boolean): SupercurationAccess => ({
    ownerId: 'o',
    isPublic,
    viewerIsCollaborator: viewer?.id === 'c',
  });
  const roles: [string, Viewer | null][] = [
    ['visitor', null],
    ['stranger', stranger],
    ['collaborator', collaborator],
    ['owner', owner],
  ];
  const table: [string, (v: Viewer | null, c: SupercurationAccess) => boolean, boolean[], boolean[]][] = [
    // rule, [visitor, stranger, collaborator, owner] on a private, then a public collection
    ['see', canSeeSupercuration, [false, false, true, true], [true, true, true, true]],
    ['edit (fields, tags, resources, adding collaborators)', canEditSupercuration, [false, false, true, true], [false, false, true, true]],
    ['edit topics', canEditSupercurationTopics, [false, false, false, true], [false, false, false, true]],
    ['delete', canDeleteSupercuration, [false, false, false, true], [false, false, false, true]],
    ['is owner', isSupercurationOwner, [false, false, false, true], [false, false, false, true]],
    ['public page', (_v, c) => canSeePublicPage(c), [false, false, false, false], [true, true, true, true]],
    ['subscribe by e-mail', (_v, c) => canSubscribeByEmail(c), [false, false, false, false], [true, true, true, true]],
    ['remove another collaborator', (v, c) => canRemoveCollaborator(v, c, 'other'), [false, false, false, true], [false, false, false, true]],
  ];
  for (const [rule, check, privateRow, publicRow] of table) {
    it(rule, () => {
      for (const [i, [role, viewer]] of roles.entries()) {
        expect(check(viewer, access(viewer, false)), `${rule} private ${role}`).toBe(privateRow[i]);
        expect(check(viewer, access(viewer, true)), `${rule} public ${role}`).toBe(publicRow[i]);
      }
    });
  }

  it('lets a collaborator remove themself only', () => {
    expect(canRemoveCollaborator(collaborator, access(collaborator, false), 'c')).toBe(true);
    expect(canRemoveCollaborator(stranger, access(stranger, true), 's')).toBe(false);
  });
});
