import { describe, expect, it } from 'vitest';
import { HttpError } from '../../server/errors';
import { absoluteImageUrl } from '../../shared/domain';
import { renderPage } from '../../server/http/web-routes';
import { canDeleteLink, canEditLink, canRepostLink } from '../../server/policies/links';
import { type SupercurationAccess, canEditSupercuration, canSeeSupercuration } from '../../server/policies/supercurations';
import { decodeCursor, encodeCursor } from '../../server/services/feed';
import { topicIdFor } from '../../server/services/topics';

const ann = { id: 'ann', email: 'ann@example.com', name: 'Ann' };
const bob = { id: 'bob', email: 'bob@example.com', name: 'Bob' };
const shelf = (over: Partial<SupercurationAccess> = {}): SupercurationAccess => ({
  ownerId: 'carol',
  isPublic: false,
  viewerIsCollaborator: false,
  ...over,
});

describe('link policies', () => {
  it('the author edits and deletes; others neither; visitors nothing', () => {
    const link = { userId: 'ann' };
    expect([canEditLink(ann, link, []), canDeleteLink(ann, link)]).toEqual([true, true]);
    expect([canEditLink(bob, link, []), canDeleteLink(bob, link)]).toEqual([false, false]);
    expect([canEditLink(null, link, []), canDeleteLink(null, link)]).toEqual([false, false]);
  });

  it('an owner or collaborator of a collection containing the link edits it, but does not delete it', () => {
    const link = { userId: 'ann' };
    expect(canEditLink(bob, link, [shelf({ ownerId: 'bob' })])).toBe(true);
    expect(canEditLink(bob, link, [shelf(), shelf({ viewerIsCollaborator: true })])).toBe(true);
    expect(canEditLink(bob, link, [shelf({ isPublic: true })])).toBe(false);
    expect(canDeleteLink(bob, link)).toBe(false);
    // "viewerIsCollaborator" describes the viewer: without one there is none.
    expect(canEditLink(null, link, [shelf({ viewerIsCollaborator: true })])).toBe(false);
  });

  it('nobody reposts their own link', () => {
    expect(canRepostLink(ann, { userId: 'ann' })).toBe(false);
    expect(canRepostLink(bob, { userId: 'ann' })).toBe(true);
  });

  it('collections: public ones are seen by all, private ones by their editors only', () => {
    expect(canSeeSupercuration(null, shelf({ isPublic: true }))).toBe(true);
    expect(canSeeSupercuration(null, shelf())).toBe(false);
    expect(canSeeSupercuration(bob, shelf())).toBe(false);
    expect(canSeeSupercuration(bob, shelf({ viewerIsCollaborator: true }))).toBe(true);
    expect(canEditSupercuration(ann, shelf({ ownerId: 'ann' }))).toBe(true);
    expect(canEditSupercuration(ann, shelf({ isPublic: true }))).toBe(false);
  });
});

describe('feed cursor', () => {
  it('round-trips the sort keys of the last row', () => {
    const row = { created_at: '2026-01-01T00:00:00.000Z', id: 'abc', likes_count: 7, title: 'ignored' };
    expect(decodeCursor('newest', encodeCursor('newest', row))).toEqual(['2026-01-01T00:00:00.000Z', 'abc']);
    expect(decodeCursor('most_liked', encodeCursor('most_liked', row))).toEqual([7, '2026-01-01T00:00:00.000Z', 'abc']);
    expect(encodeCursor('oldest', row)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['garbage', 'newest'],
    [encodeCursor('newest', { created_at: 'x', id: 'y' }), 'oldest'],
    [Buffer.from('["most_liked","7","x","y"]').toString('base64url'), 'most_liked'],
    [Buffer.from('["newest","x"]').toString('base64url'), 'newest'],
    [Buffer.from('{"a":1}').toString('base64url'), 'newest'],
  ] as const)('refuses %s for %s with 400', (cursor, sort) => {
    expect(() => decodeCursor(sort, cursor)).toThrow(HttpError);
  });
});

describe('topic ids', () => {
  it.each([
    ['Future of Work', 'future-of-work'],
    ['Tech & Politique', 'tech-politique'],
    ['Stratégie & Innovation', 'strategie-innovation'],
    ['IA Audio/Video', 'ia-audio-video'],
    ['  Médias ', 'medias'],
  ])('%s → %s', (name, id) => {
    expect(topicIdFor(name)).toBe(id);
  });

  it('gives names without latin letters a stable id of their own', () => {
    expect(topicIdFor('日本')).toMatch(/^topic-[0-9a-f]{16}$/);
    expect(topicIdFor('日本')).toBe(topicIdFor(' 日本 '));
    expect(topicIdFor('日本')).not.toBe(topicIdFor('中国'));
  });
});

describe('page head for unfurlers', () => {
  const template =
    '<html><head><meta charset="UTF-8" /><meta name="description" content="app" /><title>App</title></head><body></body></html>';

  it('replaces the title and description and adds escaped og/twitter tags inside <head>', () => {
    const html = renderPage(template, {
      title: '"Quotes" & <tags>',
      description: "It's\n\nmulti-line",
      image: 'https://img.example/a.png?x=1&y=2',
      url: 'https://curate.example/links/abc',
    });
    expect(html).toContain('<title>&quot;Quotes&quot; &amp; &lt;tags&gt; · Supercurate</title>');
    expect(html).not.toContain('<title>App</title>');
    expect(html).not.toContain('content="app"');
    expect(html).toContain('<meta name="description" content="It&#39;s multi-line" />');
    expect(html).toContain('<meta property="og:image" content="https://img.example/a.png?x=1&amp;y=2" />');
    expect(html).toContain('<meta property="og:url" content="https://curate.example/links/abc" />');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(html.indexOf('twitter:card')).toBeLessThan(html.indexOf('</head>'));
  });

  it('accepts only http(s) images and our own uploads (made absolute)', () => {
    const base = 'https://curate.example';
    expect(absoluteImageUrl(base, 'https://cdn.example/x.jpg')).toBe('https://cdn.example/x.jpg');
    expect(absoluteImageUrl(base, '/api/uploads/images/abc.webp')).toBe('https://curate.example/api/uploads/images/abc.webp');
    expect(absoluteImageUrl(base, 'javascript:alert(1)')).toBeNull();
    expect(absoluteImageUrl(base, '/etc/passwd')).toBeNull();
    expect(absoluteImageUrl(base, null)).toBeNull();
  });
});
