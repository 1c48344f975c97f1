import { expect, it } from 'vitest';
import { LINK_MESSAGES } from '../../shared/domain';
import { failure, http, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

describeEachDatabase('links: "already shared" look-up (browser extension)', (ctx) => {
  it("finds the viewer's own link by normalised URL, with or without a fragment, and nobody else's", async () => {
    const ada = await signedInUser(ctx.server.url, 'Ada');
    const bob = await signedInUser(ctx.server.url, 'Bob');
    const shared = await ada.api.createLink({ title: 'Read me', description: 'Good', url: 'https://example.com/post?id=1' });

    expect((await ada.api.lookupLink('https://example.com/post?id=1'))?.id).toBe(shared.id);
    // Normalised like a shared URL (trimmed, scheme added) and found without the fragment.
    expect((await ada.api.lookupLink('  example.com/post?id=1#comments '))?.id).toBe(shared.id);
    expect(await ada.api.lookupLink('https://example.com/post?id=2')).toBeNull();
    // Another user's link is not "already shared" for Bob.
    expect(await bob.api.lookupLink('https://example.com/post?id=1')).toBeNull();
  });

  it("prefers the viewer's original over their repost, and answers the full link for edit mode", async () => {
    const ada = await signedInUser(ctx.server.url, 'Ada');
    const bob = await signedInUser(ctx.server.url, 'Bob');
    const theirs = await ada.api.createLink({ title: 'Theirs', description: 'By Ada', url: 'https://example.org/a' });
    const repost = await bob.api.repost(theirs.id);
    expect((await bob.api.lookupLink('https://example.org/a'))?.id).toBe(repost.id);
    const own = await bob.api.createLink({
      title: 'Mine',
      description: 'By Bob',
      url: 'https://example.org/a',
      format: 'video',
      topicIds: ['ai'],
    });
    const found = await bob.api.lookupLink('https://example.org/a');
    expect(found).toMatchObject({ id: own.id, title: 'Mine', format: 'video', topicIds: ['ai'], canEdit: true });
  });

  it('needs a session and an http(s) URL', async () => {
    const visitor = testClient(ctx.server.url);
    expect((await failure(visitor.api.lookupLink('https://example.com/'))).status).toBe(401);
    const ada = await signedInUser(ctx.server.url);
    const bad = await failure(ada.api.lookupLink('javascript:alert(1)'));
    expect([bad.status, bad.message]).toEqual([400, LINK_MESSAGES.onlyHttpUrls]);
    const none = await http(`${ctx.server.url}/api/links/lookup`, { headers: { cookie: ada.cookieHeader() } });
    expect(none.status).toBe(400);
  });
});

describeEachDatabase('browser extension origins', (ctx) => {
  const write = (origin: string, cookie: string) =>
    http(`${ctx.server.url}/api/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, cookie },
      body: JSON.stringify({ title: 'From the extension', description: 'Shared from the toolbar' }),
    });

  it('accepts signed-in writes from any Chrome or Firefox extension origin by default, not from other sites', async () => {
    const ada = await signedInUser(ctx.server.url);
    expect((await write('chrome-extension://abcdefghijklmnopabcdefghijklmnop', ada.cookieHeader())).status).toBe(201);
    expect((await write('moz-extension://0f7d2c4e-1b2a-4c3d-9e8f-123456789abc', ada.cookieHeader())).status).toBe(201);
    expect((await write('https://evil.example', ada.cookieHeader())).status).toBe(403);
    expect((await write('chrome-extension://bad/path', ada.cookieHeader())).status).toBe(403);
  });

  it('lets thumbnails (image proxy, uploads) be shown by extension pages: CORP cross-origin there only', async () => {
    const proxied = await http(`${ctx.server.url}/api/images/proxy?url=${encodeURIComponent('https://example.com/a.png')}`);
    expect(proxied.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const upload = await http(`${ctx.server.url}/api/uploads/images/nothing.webp`);
    expect(upload.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const other = await http(`${ctx.server.url}/api/health`);
    expect(other.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it("lets Better Auth sign out a session from an extension's origin", async () => {
    const ada = await signedInUser(ctx.server.url);
    const res = await http(`${ctx.server.url}/api/auth/sign-out`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop', cookie: ada.cookieHeader() },
      body: '{}',
    });
    expect(res.status).toBe(200);
  });
});

describeEachDatabase(
  'browser extension origins pinned by EXTENSION_ORIGINS',
  (ctx) => {
    it('accepts only the listed extension', async () => {
      const ada = await signedInUser(ctx.server.url);
      const post = (origin: string) =>
        http(`${ctx.server.url}/api/links`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin, cookie: ada.cookieHeader() },
          body: JSON.stringify({ title: 'T', description: 'D' }),
        });
      expect((await post('chrome-extension://pinnedpinnedpinnedpinnedpinnedpi')).status).toBe(201);
      expect((await post('chrome-extension://otherotherotherotherotherotherot')).status).toBe(403);
      expect((await post('moz-extension://0f7d2c4e-1b2a-4c3d-9e8f-123456789abc')).status).toBe(403);
    });
  },
  { EXTENSION_ORIGINS: 'chrome-extension://pinnedpinnedpinnedpinnedpinnedpi' },
);
