import { describe, expect, it } from 'vitest';
import { type LinkVisibility, canSeeLink } from '../../server/policies/links';
import type { SupercurationAccess } from '../../server/policies/supercurations';
import type { Viewer } from '../../server/policies/viewer';

const user = (id: string): Viewer => ({ id, email: `${id}@example.com`, name: id });
const author = user('author');
const owner = user('owner');
const collaborator = user('collaborator');
const stranger = user('stranger');

/** A collection owned by `owner`, as `viewer` sees it (collaborator only for `collaborator`). */
const collection = (viewer: Viewer | null, isPublic: boolean): SupercurationAccess => ({
  ownerId: owner.id,
  isPublic,
  viewerIsCollaborator: viewer?.id === collaborator.id,
});

/** A link of `author`'s, as `viewer` sees its facts. */
const link = (viewer: Viewer | null, inMainFeed: boolean, collections: boolean[], userId = author.id): LinkVisibility => ({
  userId,
  inMainFeed,
  collections: collections.map((isPublic) => collection(viewer, isPublic)),
});

const roles: [string, Viewer | null][] = [
  ['author', author],
  ['owner of a holding collection', owner],
  ['collaborator of a holding collection', collaborator],
  ['signed-in stranger', stranger],
  ['visitor', null],
];

describe('canSeeLink: the link visibility rule, per role', () => {
  it.each(roles)('a link in the main feed is seen by the %s', (_, viewer) => {
    expect(canSeeLink(viewer, link(viewer, true, []), null)).toBe(true);
  });

  it.each(roles)('a link hidden from the main feed but in a public collection is seen by the %s', (_, viewer) => {
    expect(canSeeLink(viewer, link(viewer, false, [false, true]), null)).toBe(true);
  });

  it.each([
    ['author', author, true],
    ['owner of a holding collection', owner, true],
    ['collaborator of a holding collection', collaborator, true],
    ['signed-in stranger', stranger, false],
    ['visitor', null, false],
  ] as const)('a link only in private collections, out of the main feed: the %s sees it: %s', (_, viewer, seen) => {
    expect(canSeeLink(viewer, link(viewer, false, [false, false]), null)).toBe(seen);
  });

  it.each([
    ['author', author, true],
    ['owner of another collection', owner, false],
    ['signed-in stranger', stranger, false],
    ['visitor', null, false],
  ] as const)('a link in no collection, out of the main feed: the %s sees it: %s', (_, viewer, seen) => {
    expect(canSeeLink(viewer, link(viewer, false, []), null)).toBe(seen);
  });

  describe('a repost (by the stranger, in their main feed) of the private link', () => {
    const repost = (viewer: Viewer | null) => link(viewer, true, [], stranger.id);
    const original = (viewer: Viewer | null) => link(viewer, false, [false]);

    it.each([
      ['reposter', stranger, true],
      ['author of the original', author, true],
      ['owner of the collection holding the original', owner, true],
      ['collaborator of the collection holding the original', collaborator, true],
      ['visitor', null, false],
    ] as const)('is seen by the %s: %s', (_, viewer, seen) => {
      expect(canSeeLink(viewer, repost(viewer), original(viewer))).toBe(seen);
    });

    it('is seen by everyone again once the original is public', () => {
      expect(canSeeLink(null, repost(null), link(null, false, [true]))).toBe(true);
      expect(canSeeLink(null, repost(null), link(null, true, []))).toBe(true);
    });

    it('needs its own visibility too: a repost hidden from the main feed is not seen by a visitor', () => {
      expect(canSeeLink(null, link(null, false, [], stranger.id), link(null, true, []))).toBe(false);
    });
  });
});
