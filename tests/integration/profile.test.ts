import sharp from 'sharp';
import { expect, it } from 'vitest';
import { MSG } from '../../shared/domain';
import { failure, http, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'secret camera owner' } })
    .toBuffer();

describeEachDatabase('profiles', (ctx) => {
  it('updates the own profile; empty optional fields are cleared', async () => {
    const user = await signedInUser(ctx.server.url);
    const updated = await user.api.updateProfile(user.me.id, {
      name: '  Grace Hopper ',
      bio: 'Compilers',
      location: 'Arlington',
      website: 'https://grace.example',
    });
    expect(updated).toMatchObject({ name: 'Grace Hopper', bio: 'Compilers', location: 'Arlington' });
    const cleared = await user.api.updateProfile(user.me.id, { name: 'Grace Hopper', bio: '', website: '' });
    expect(cleared).toMatchObject({ bio: null, website: null, location: 'Arlington' });
    expect(await user.api.me()).toEqual(cleared);
  });

  it('rejects a non-http(s) website and an empty name without writing anything', async () => {
    const user = await signedInUser(ctx.server.url, 'Original Name');
    for (const website of ['javascript:alert(1)', 'ftp://example.com', 'not a url']) {
      const err = await failure(user.api.updateProfile(user.me.id, { name: 'Changed', bio: 'new bio', website }));
      expect([err.status, err.message]).toEqual([400, MSG.websiteInvalid]);
    }
    const noName = await failure(user.api.updateProfile(user.me.id, { name: '  ', bio: 'new bio' }));
    expect([noName.status, noName.message]).toEqual([400, MSG.nameRequired]);
    expect(await user.api.me()).toMatchObject({ name: 'Original Name', bio: null, website: null });
  });

  it("forbids editing someone else's profile, and anonymous edits", async () => {
    const owner = await signedInUser(ctx.server.url, 'Owner');
    const stranger = await signedInUser(ctx.server.url, 'Stranger');
    const err = await failure(stranger.api.updateProfile(owner.me.id, { name: 'Hacked' }));
    expect([err.status, err.message]).toEqual([403, MSG.forbiddenProfile]);
    const anon = await failure(testClient(ctx.server.url).api.updateProfile(owner.me.id, { name: 'Hacked' }));
    expect([anon.status, anon.message]).toEqual([401, MSG.notAuthenticated]);
    const avatar = await failure(stranger.api.uploadAvatar(owner.me.id, new Blob([await photo(10, 10)])));
    expect(avatar.status).toBe(403);
    expect((await owner.api.me())?.name).toBe('Owner');
  });

  it('refuses a cookie-authenticated write sent from another origin', async () => {
    const user = await signedInUser(ctx.server.url, 'Victim');
    const res = await http(`${ctx.server.url}/api/users/${user.me.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie: user.cookieHeader() },
      body: JSON.stringify({ name: 'Hacked' }),
    });
    expect(res.status).toBe(403);
    expect((await user.api.me())?.name).toBe('Victim');
  });

  it("shows others a profile without the e-mail; 'User not found' for unknown ids", async () => {
    const owner = await signedInUser(ctx.server.url, 'Public Person');
    const seen = await testClient(ctx.server.url).api.getUser(owner.me.id);
    expect(seen).toMatchObject({ id: owner.me.id, name: 'Public Person' });
    expect(seen).not.toHaveProperty('email');
    const missing = await failure(testClient(ctx.server.url).api.getUser('no-such-user'));
    expect([missing.status, missing.message]).toEqual([404, MSG.userNotFound]);
  });

  it('generates the default avatar on our server, the same for the same e-mail', async () => {
    const user = await signedInUser(ctx.server.url);
    const first = await http(`${ctx.server.url}${user.me.avatarUrl}`);
    const second = await http(`${ctx.server.url}${user.me.avatarUrl}`);
    expect(first.headers.get('content-type')).toContain('image/svg+xml');
    const svg = await first.text();
    expect(svg).toContain('<svg');
    expect(await second.text()).toBe(svg);
    // No image or font is loaded from elsewhere (license metadata URLs are text, not fetched).
    expect(svg).not.toMatch(/(?:href|src)\s*=\s*["']https?:|url\(\s*["']?https?:/);
  });

  it('re-encodes an uploaded avatar, strips EXIF and serves it from our origin', async () => {
    const user = await signedInUser(ctx.server.url);
    const updated = await user.api.uploadAvatar(user.me.id, new Blob([await photo(800, 600)], { type: 'image/jpeg' }));
    expect(updated.avatarUrl).not.toBe(user.me.avatarUrl);
    const res = await http(`${ctx.server.url}${updated.avatarUrl}`);
    expect(res.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', 256, 256, undefined]);

    const reset = await user.api.removeAvatar(user.me.id);
    expect(reset.avatarUrl).toMatch(/v=generated$/);
  });

  it('accepts images only, at most 5 MB, and keeps the old avatar on failure', async () => {
    const user = await signedInUser(ctx.server.url);
    const before = (await user.api.uploadAvatar(user.me.id, new Blob([await photo(50, 50)], { type: 'image/jpeg' })))
      .avatarUrl;
    const text = await failure(user.api.uploadAvatar(user.me.id, new Blob(['hello'], { type: 'text/plain' })));
    expect([text.status, text.message]).toEqual([400, MSG.imagesOnly]);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><rect width="9" height="9"/></svg>';
    const vector = await failure(user.api.uploadAvatar(user.me.id, new Blob([svg], { type: 'image/svg+xml' })));
    expect([vector.status, vector.message]).toEqual([400, MSG.imagesOnly]);
    const fake = await failure(user.api.uploadAvatar(user.me.id, new Blob(['not really'], { type: 'image/png' })));
    expect([fake.status, fake.message]).toEqual([400, MSG.imagesOnly]);
    const huge = await failure(
      user.api.uploadAvatar(user.me.id, new Blob([new Uint8Array(5 * 1024 * 1024 + 1)], { type: 'image/png' })),
    );
    expect([huge.status, huge.message, huge.code]).toEqual([413, MSG.imageTooLarge, 'FILE_TOO_LARGE']);
    expect((await user.api.me())?.avatarUrl).toBe(before);
  });
});
