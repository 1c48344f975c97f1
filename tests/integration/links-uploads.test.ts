import sharp from 'sharp';
import { expect, it } from 'vitest';
import { MSG, UPLOADED_IMAGE_PATH } from '../../shared/domain';
import { failure, http, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#cc6633' } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'secret camera owner' } })
    .toBuffer();

describeEachDatabase('links: thumbnail uploads', (ctx) => {
  it('re-encodes an upload to a WebP at most 1200 px wide without EXIF, served from our origin', async () => {
    const user = await signedInUser(ctx.server.url);
    const { url } = await user.api.uploadImage(new Blob([await photo(2400, 1600)], { type: 'image/jpeg' }));
    expect(url).toMatch(UPLOADED_IMAGE_PATH);
    const res = await http(`${ctx.server.url}${url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toContain('immutable');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', 1200, 800, undefined]);

    const small = await user.api.uploadImage(new Blob([await photo(300, 200)], { type: 'image/jpeg' }));
    const smallMeta = await sharp(Buffer.from(await (await http(`${ctx.server.url}${small.url}`)).arrayBuffer())).metadata();
    expect([smallMeta.width, smallMeta.height]).toEqual([300, 200]);

    const link = await user.api.createLink({ title: 'With picture', description: 'x', thumbnailUrl: url });
    expect(link.thumbnailUrl).toBe(url);
  });

  it('refuses visitors, non-images, fakes and files over 5 MB', async () => {
    const anon = await failure(testClient(ctx.server.url).api.uploadImage(new Blob([await photo(10, 10)], { type: 'image/jpeg' })));
    expect([anon.status, anon.message]).toEqual([401, MSG.notAuthenticated]);
    const user = await signedInUser(ctx.server.url);
    const text = await failure(user.api.uploadImage(new Blob(['hello'], { type: 'text/plain' })));
    expect([text.status, text.message]).toEqual([400, MSG.imagesOnly]);
    const fake = await failure(user.api.uploadImage(new Blob(['not really'], { type: 'image/png' })));
    expect([fake.status, fake.message]).toEqual([400, MSG.imagesOnly]);
    const huge = await failure(user.api.uploadImage(new Blob([new Uint8Array(5 * 1024 * 1024 + 1)], { type: 'image/png' })));
    expect([huge.status, huge.message]).toEqual([413, MSG.imageTooLarge]);
    const json = await user.fetch(`${ctx.server.url}/api/uploads/images`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
  });

  it('serves only uploaded image names', async () => {
    for (const path of ['/api/uploads/images/0123456789abcdef0123456789abcdef.webp', '/api/uploads/images/..%2Fsecrets%2Fauth-secret']) {
      expect((await http(`${ctx.server.url}${path}`)).status).toBe(404);
    }
  });
});
