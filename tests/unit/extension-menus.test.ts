import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/api/client';
import { type Link, type LinkPreview, NO_LINK_FACTS } from '../../shared/domain';
import type { SupercurationChoice } from '../../shared/domain/supercurations';
import { SESSION_EXPIRED, messageOf, unreachable } from '../../extension/lib/api';
import { pageKey } from '../../extension/lib/badge';
import type { PageCapture } from '../../extension/lib/capture';
import { type MenuDeps, buildMenu, handleMenuClick, loadMenuState } from '../../extension/lib/menus';
import { CANNOT_SHARE, whyNotShareable } from '../../extension/lib/pages';
import { parseServerUrl, serverPermissionPattern } from '../../extension/lib/settings';
import { draftFromCapture, draftFromPreview, linkInputOf, withReadableCopy } from '../../extension/lib/share';
import { shareFormValuesOf } from '../../shared/ui/shareForm';

const SERVER = 'http://localhost:3000';
const choices: SupercurationChoice[] = [
  { id: 'c1', title: 'Reading list', isPublic: false, isOwner: true },
  { id: 'c2', title: 'Team picks', isPublic: true, isOwner: false },
  { id: 'c3', title: 'Design', isPublic: true, isOwner: true },
];

const capture = (extra: Partial<PageCapture> = {}): PageCapture => ({
  url: 'https://example.com/post?utm_source=x',
  canonicalUrl: 'https://example.com/post',
  title: 'A post',
  description: 'About things',
  image: 'https://example.com/cover.png',
  siteName: 'Example',
  format: 'article',
  contentType: 'text/html',
  empty: false,
  readable: null,
  ...extra,
});

describe('settings', () => {
  it('accepts http(s) server URLs, without a trailing slash, and refuses anything else', () => {
    expect(parseServerUrl(' http://localhost:3000/ ')).toBe('http://localhost:3000');
    expect(parseServerUrl('https://curate.example.com/sc//')).toBe('https://curate.example.com/sc');
    expect(parseServerUrl('https://curate.example.com/?q=1#x')).toBe('https://curate.example.com');
    for (const bad of ['', 'localhost:3000', 'ftp://x.example', 'javascript:alert(1)', 'https://user:pw@x.example']) {
      expect(parseServerUrl(bad)).toBeNull();
    }
  });

  it('asks for the server host on any port (Firefox match patterns cannot name one)', () => {
    expect(serverPermissionPattern('http://localhost:3000')).toBe('http://localhost/*');
    expect(serverPermissionPattern('https://curate.example.com/sc')).toBe('https://curate.example.com/*');
  });
});

describe('what can be shared', () => {
  it.each([
    ['https://example.com/a', null],
    ['http://127.0.0.1:8080/', null],
    ['chrome://settings', CANNOT_SHARE],
    ['about:blank', CANNOT_SHARE],
    ['edge://newtab', CANNOT_SHARE],
    ['chrome-extension://abc/popup.html', CANNOT_SHARE],
    ['view-source:https://example.com', CANNOT_SHARE],
    ['data:text/html,hi', CANNOT_SHARE],
  ])('%s', (url, expected) => {
    expect(whyNotShareable(url)).toBe(expected);
  });

  it('says local files and unknown tabs clearly', () => {
    expect(whyNotShareable('file:///home/me/paper.pdf')).toMatch(/^Files on your computer can't be shared/);
    expect(whyNotShareable(undefined)).toMatch(/^Supercurate can't read this tab/);
  });

  it('keys pages by normalised URL without the fragment (the badge)', () => {
    expect(pageKey('https://Example.com/a#top')).toBe('https://example.com/a');
    expect(pageKey('chrome://settings')).toBeNull();
  });
});

describe('drafts for Preview & Share', () => {
  it('shares the canonical URL, with the page title, description, image and guessed format', () => {
    expect(draftFromCapture(capture())).toEqual({
      url: 'https://example.com/post',
      title: 'A post',
      description: 'About things',
      thumbnailUrl: 'https://example.com/cover.png',
      format: 'article',
    });
    // No canonical link: the address itself; no title: the host.
    expect(draftFromCapture(capture({ canonicalUrl: null, title: '' }))).toMatchObject({
      url: 'https://example.com/post?utm_source=x',
      title: 'example.com',
    });
  });

  it("uses the server's preview for pages that say nothing, and a PDF's file name as its title", () => {
    const preview: LinkPreview = { url: 'https://example.com/paper.pdf', title: 'example.com', description: 'No preview available', thumbnailUrl: null, ...NO_LINK_FACTS, format: null };
    expect(draftFromPreview('https://example.com/paper.pdf', preview, capture({ contentType: 'application/pdf', empty: true, format: null }))).toEqual({
      url: 'https://example.com/paper.pdf',
      title: 'paper.pdf',
      description: 'No preview available',
      thumbnailUrl: '',
      format: null,
    });
    expect(draftFromPreview('https://example.com/x', null)).toMatchObject({ title: 'x', description: 'No preview available' });
  });

  it("sends the captured article with a new link, unless the form's URL is no longer the page captured", () => {
    const draft = draftFromCapture(capture());
    const input = linkInputOf(draft);
    const readable = { html: '<p>The article</p>', lang: 'en' };
    expect(withReadableCopy(input, draft.url, readable)).toEqual({ ...input, readable });
    expect(withReadableCopy({ ...input, url: 'https://example.com/another' }, draft.url, readable)).not.toHaveProperty('readable');
    expect(withReadableCopy(input, draft.url, null)).toBe(input);
  });

  it('never sends an empty description from the menu, and maps a link for edit mode', () => {
    expect(linkInputOf({ url: 'https://e.com/', title: ' ', description: '', thumbnailUrl: '', format: null })).toEqual({
      url: 'https://e.com/',
      title: 'https://e.com/',
      description: 'No preview available',
      linkText: 'Visit Link',
      thumbnailUrl: null,
      format: null,
    });
    const link = { url: null, title: 'T', description: 'D', linkText: 'Read', thumbnailUrl: null, isOriginalContent: true, format: 'dev', topicIds: ['ai'], supercurationIds: ['c1'] } as unknown as Link;
    expect(shareFormValuesOf(link)).toEqual({
      url: '',
      title: 'T',
      description: 'D',
      linkText: 'Read',
      thumbnailUrl: '',
      isOriginalContent: true,
      format: 'dev',
      topicIds: ['ai'],
      supercurationIds: ['c1'],
    });
  });
});

describe('error texts', () => {
  it("shows the server's text, 'Cannot reach …' for no answer, and the session message on 401", () => {
    expect(messageOf(new ApiError(409, 'This link has already been added to this supercuration'), SERVER, 'x')).toBe(
      'This link has already been added to this supercuration',
    );
    expect(messageOf(new ApiError(0, 'Failed', 'NETWORK_ERROR'), SERVER, 'x')).toBe(unreachable(SERVER));
    expect(unreachable(SERVER)).toMatch(/^Cannot reach your Supercurate server at http:\/\/localhost:3000\./);
    expect(messageOf(new ApiError(401, 'Must be logged in to share links'), SERVER, 'x')).toBe(SESSION_EXPIRED);
    expect(messageOf(new TypeError('boom'), SERVER, 'Failed to add resource')).toBe('Failed to add resource');
  });
});

describe('"Add to supercuration" menu', () => {
  const titles = (state: Parameters<typeof buildMenu>[0]) => buildMenu(state).map((i) => (i.type === 'separator' ? '---' : i.title));

  it('lists own collections, then those the user collaborates on, on pages and links', () => {
    const items = buildMenu({ kind: 'ready', choices });
    expect(items[0]).toEqual({ id: 'supercurate', title: 'Add to supercuration', contexts: ['page', 'link'] });
    expect(titles({ kind: 'ready', choices })).toEqual([
      'Add to supercuration',
      'Reading list',
      'Design',
      '---',
      'Team picks (collaborator)',
      '---',
      'New supercuration…',
    ]);
    expect(items.slice(1).every((i) => i.parentId === 'supercurate' && i.contexts.join() === 'page,link')).toBe(true);
    expect(items.find((i) => i.title === 'Reading list')?.id).toBe('supercurate-add:c1');
  });

  it('says what to do first when it cannot list them', () => {
    expect(titles({ kind: 'signed-out' })).toEqual(['Add to supercuration', 'Sign in to Supercurate…']);
    expect(titles({ kind: 'no-permission' })).toEqual(['Add to supercuration', 'Connect to your Supercurate server…']);
    expect(titles({ kind: 'unreachable' })).toEqual(['Add to supercuration', 'Cannot reach your Supercurate server', 'Options…']);
    expect(titles({ kind: 'unavailable' })).toEqual(['Add to supercuration', 'Your server has no supercurations yet']);
    expect(titles({ kind: 'ready', choices: [] })).toEqual(['Add to supercuration', 'No supercurations yet', '---', 'New supercuration…']);
    const many = Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, title: `C${i}`, isPublic: false, isOwner: true }));
    expect(titles({ kind: 'ready', choices: many }).at(-1)).toBe('More in Supercurate…');
  });

  it('reads the state from the server: 401 signed out, 404 no supercurations API, no answer unreachable', async () => {
    expect(await loadMenuState(false, async () => choices)).toEqual({ kind: 'no-permission' });
    expect(await loadMenuState(true, async () => choices)).toEqual({ kind: 'ready', choices });
    const failing = (err: unknown) => loadMenuState(true, () => Promise.reject(err));
    expect(await failing(new ApiError(401, 'Not authenticated'))).toEqual({ kind: 'signed-out' });
    expect(await failing(new ApiError(404, 'Not found'))).toEqual({ kind: 'unavailable' });
    expect(await failing(new ApiError(0, 'x', 'NETWORK_ERROR'))).toEqual({ kind: 'unreachable' });
  });
});

describe('the menu click handler', () => {
  function deps(overrides: Partial<MenuDeps> = {}) {
    const link = { id: 'l1', title: 'A post' } as Link;
    return {
      serverUrl: SERVER,
      choices,
      api: {
        addResource: vi.fn(async () => link),
        preview: vi.fn(async (url: string): Promise<LinkPreview> => ({ url, title: 'Previewed', description: 'From the server', thumbnailUrl: null, ...NO_LINK_FACTS, format: null })),
      },
      capture: vi.fn(async () => capture()),
      notify: vi.fn(async () => {}),
      markSaved: vi.fn(async () => {}),
      refreshMenu: vi.fn(async () => {}),
      openSignIn: vi.fn(async () => {}),
      openOptions: vi.fn(async () => {}),
      openServer: vi.fn(async () => {}),
      ...overrides,
    } satisfies MenuDeps;
  }
  const tab = { id: 7, url: 'https://example.com/post?utm_source=x' };

  it('adds the page as captured from its DOM, notifies, and marks the tab', async () => {
    const d = deps();
    const result = await handleMenuClick({ menuItemId: 'supercurate-add:c1', pageUrl: tab.url }, tab, d);
    expect(result).toMatchObject({ ok: true, title: 'Added to Reading list', message: 'A post' });
    expect(d.capture).toHaveBeenCalledWith(7);
    expect(d.api.preview).not.toHaveBeenCalled();
    expect(d.api.addResource).toHaveBeenCalledWith('c1', {
      link: {
        url: 'https://example.com/post',
        title: 'A post',
        description: 'About things',
        linkText: 'Visit Link',
        thumbnailUrl: 'https://example.com/cover.png',
        format: 'article',
      },
    });
    expect(d.notify).toHaveBeenCalledWith({ title: 'Added to Reading list', message: 'A post' });
    expect(d.markSaved).toHaveBeenCalledWith(7, [tab.url, 'https://example.com/post'], 'l1');
  });

  it('adds a right-clicked link through the server preview, without touching the page', async () => {
    const d = deps();
    await handleMenuClick({ menuItemId: 'supercurate-add:c2', pageUrl: tab.url, linkUrl: 'https://other.example/x' }, tab, d);
    expect(d.capture).not.toHaveBeenCalled();
    expect(d.api.preview).toHaveBeenCalledWith('https://other.example/x');
    expect(d.api.addResource).toHaveBeenCalledWith('c2', expect.objectContaining({ link: expect.objectContaining({ url: 'https://other.example/x', title: 'Previewed' }) }));
    expect(d.notify).toHaveBeenCalledWith({ title: 'Added to Team picks', message: 'A post' });
    expect(d.markSaved).not.toHaveBeenCalled();
  });

  it("notifies the server's text on failure, and rebuilds the menu when the collection is gone or the session ended", async () => {
    const duplicate = deps({
      api: {
        addResource: vi.fn(() => Promise.reject(new ApiError(409, 'This link has already been added to this supercuration'))),
        preview: vi.fn(),
      },
    });
    expect(await handleMenuClick({ menuItemId: 'supercurate-add:c1' }, tab, duplicate)).toMatchObject({
      ok: false,
      title: 'Could not add to Reading list',
      message: 'This link has already been added to this supercuration',
    });
    expect(duplicate.refreshMenu).not.toHaveBeenCalled();

    const gone = deps({ api: { addResource: vi.fn(() => Promise.reject(new ApiError(404, 'Supercuration not found'))), preview: vi.fn() } });
    expect((await handleMenuClick({ menuItemId: 'supercurate-add:c1' }, tab, gone))?.message).toBe('Supercuration not found');
    expect(gone.refreshMenu).toHaveBeenCalled();

    const expired = deps({ api: { addResource: vi.fn(() => Promise.reject(new ApiError(401, 'Not authenticated'))), preview: vi.fn() } });
    expect((await handleMenuClick({ menuItemId: 'supercurate-add:c1' }, tab, expired))?.message).toBe(SESSION_EXPIRED);
    expect(expired.refreshMenu).toHaveBeenCalled();
  });

  it('refuses browser pages, and falls back to the server preview when the page gives nothing', async () => {
    const d = deps();
    expect(await handleMenuClick({ menuItemId: 'supercurate-add:c1', pageUrl: 'chrome://settings' }, { id: 1 }, d)).toMatchObject({
      ok: false,
      message: CANNOT_SHARE,
    });
    expect(d.api.addResource).not.toHaveBeenCalled();

    const blank = deps({ capture: vi.fn(async () => null) });
    await handleMenuClick({ menuItemId: 'supercurate-add:c1', pageUrl: 'https://example.com/doc.pdf' }, { id: 2, url: 'https://example.com/doc.pdf' }, blank);
    expect(blank.api.preview).toHaveBeenCalledWith('https://example.com/doc.pdf');
  });

  it('opens the sign-in popup, the options and the web app for the other items', async () => {
    const d = deps();
    expect(await handleMenuClick({ menuItemId: 'supercurate-sign-in' }, tab, d)).toBeNull();
    expect(d.openSignIn).toHaveBeenCalledWith(7);
    await handleMenuClick({ menuItemId: 'supercurate-options' }, tab, d);
    expect(d.openOptions).toHaveBeenCalled();
    await handleMenuClick({ menuItemId: 'supercurate-new' }, tab, d);
    expect(d.openServer).toHaveBeenCalledWith('/supercurations');
    expect(d.notify).not.toHaveBeenCalled();
  });
});
