import { expect, it } from 'vitest';
import { LINK_MESSAGES, MSG } from '../../shared/domain';
import type { Db } from '../../server/db';
import { failure, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
const TOO_DEEP = { error: MSG.jsonTooDeep, code: 'JSON_TOO_DEEP' };
const MALFORMED = { error: MSG.malformedMultipart, code: 'MALFORMED_MULTIPART' };

type Client = ReturnType<typeof testClient>;

async function post(client: Client, url: string, body: string, contentType = 'application/json') {
  const res = await client.fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { status: res.status, body: (await res.json()) as unknown };
}

async function linksCount(db: Db): Promise<number> {
  const row = await db.kysely.selectFrom('links').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One file part in `field`, as a browser sends it; `end: false` leaves out the closing boundary. */
function multipart(boundary: string, field: string, content: string, { end = true } = {}) {
  return [
    `--${boundary}\r\n`,
    `Content-Disposition: form-data; name="${field}"; filename="upload.bin"\r\n`,
    'Content-Type: image/png\r\n\r\n',
    content,
    end ? `\r\n--${boundary}--\r\n` : '',
  ].join('');
}

describeEachDatabase('request bodies', (ctx) => {
  const url = (path: string) => `${ctx.server.url}${path}`;

  it('refuses JSON nested deeper than 64 levels with 400 on our routes and the Better Auth ones, signed in or not', async () => {
    const user = await signedInUser(ctx.server.url);
    const visitor = testClient(ctx.server.url);
    const before = await linksCount(ctx.server.db);
    const targets: [Client, string][] = [
      [user, '/api/links'],
      [user, `/api/supercurations`],
      [visitor, '/api/auth/sign-in/email'],
      [visitor, '/api/auth/sign-up/email'],
      [visitor, '/api/auth/get-session'],
      [user, '/api/auth/get-session'],
      [visitor, '/api/auth/sign-out'],
      [user, '/api/auth/sign-out'],
      [user, '/api/auth/change-password'],
    ];
    for (const [client, path] of targets) {
      for (const body of [arrays(10_000), objects(5_000), `{"name":${arrays(65)}}`]) {
        expect(await post(client, url(path), body), `${path} ${body.slice(0, 8)}`).toEqual({ status: 400, body: TOO_DEEP });
      }
    }
    // The refused sign-out left the session alone; nothing was written.
    expect((await user.api.me())?.id).toBe(user.me.id);
    expect(await linksCount(ctx.server.db)).toBe(before);
  });

  it('checks every JSON content type: parameters and letter case do not bypass it; other JSON types are 415', async () => {
    const user = await signedInUser(ctx.server.url);
    for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8; x=y']) {
      expect(await post(user, url('/api/links'), arrays(10_000), type), type).toEqual({ status: 400, body: TOO_DEEP });
    }
    for (const type of ['application/vnd.api+json', 'application/merge-patch+json', 'application/json-patch+json']) {
      expect((await post(user, url('/api/links'), arrays(10_000), type)).status, type).toBe(415);
    }
  });

  it('accepts 64 levels where the body is otherwise valid', async () => {
    const user = await signedInUser(ctx.server.url);
    // The body itself is level 1; unknown fields are dropped by the schemas.
    const link = `{"title":"Deep","description":"Still valid","extra":${arrays(63)}}`;
    const created = await post(user, url('/api/links'), link);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: 'Deep' });
    const signIn = `{"email":"${user.input.email}","password":"${user.input.password}","extra":${objects(63)}}`;
    expect((await post(testClient(ctx.server.url), url('/api/auth/sign-in/email'), signIn)).status).toBe(200);
    expect(await post(user, url('/api/links'), `{"title":"Deep","description":"x","extra":${arrays(64)}}`)).toEqual({
      status: 400,
      body: TOO_DEEP,
    });
  });

  it("keeps Fastify's JSON checks: prototype poisoning, empty and invalid bodies are 400", async () => {
    const user = await signedInUser(ctx.server.url);
    const before = await linksCount(ctx.server.db);
    for (const body of [
      '{"title":"t","description":"d","__proto__":{"isAdmin":true}}',
      '{"title":"t","description":"d","constructor":{"prototype":{"isAdmin":true}}}',
      '',
      '{"title":',
      ']]]][[[[',
    ]) {
      const res = await post(user, url('/api/links'), body);
      expect(res.status, body).toBe(400);
      expect(res.body).toMatchObject({ code: expect.stringMatching(/^FST_ERR_CTP_/) });
    }
    expect(await linksCount(ctx.server.db)).toBe(before);
  });

  it('checks the session before the body: a visitor gets the route\'s 401, a signed-in user the schema\'s 400 with its issues', async () => {
    const user = await signedInUser(ctx.server.url);
    const other = await signedInUser(ctx.server.url);
    const visitor = testClient(ctx.server.url);
    const bad = '{"title":42}';
    expect(await post(visitor, url('/api/links'), bad)).toEqual({ status: 401, body: { error: LINK_MESSAGES.mustLogInToShare, code: 'UNAUTHORIZED' } });
    expect(await post(user, url('/api/links'), bad)).toEqual({
      status: 400,
      body: { error: LINK_MESSAGES.invalidLinkData, code: 'VALIDATION_ERROR', issues: [{ path: 'title', message: LINK_MESSAGES.invalidLinkData }, { path: 'description', message: LINK_MESSAGES.invalidLinkData }] },
    });
    // Someone else's profile is 403 whatever the body holds.
    const patch = await other.fetch(url(`/api/users/${encodeURIComponent(user.me.id)}`), { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"name":42}' });
    expect([patch.status, await patch.json()]).toEqual([403, { error: MSG.forbiddenProfile, code: 'FORBIDDEN' }]);
  });

  it('answers a JSON body over 1 MB with 413 and a code (over 8 MB for a share, which may carry a readable copy)', async () => {
    const user = await signedInUser(ctx.server.url);
    const body = JSON.stringify({ title: 'x', description: 'y'.repeat(1024 * 1024) });
    const tooLarge = { status: 413, body: { error: MSG.bodyTooLarge, code: 'PAYLOAD_TOO_LARGE' } };
    const link = await user.api.createLink({ title: 'A link', description: 'd' });
    const patch = await user.fetch(url(`/api/links/${link.id}`), { method: 'PATCH', headers: { 'content-type': 'application/json' }, body });
    expect({ status: patch.status, body: await patch.json() }).toEqual(tooLarge);
    expect((await post(user, url('/api/links'), body)).status).toBe(400);
    expect(await post(user, url('/api/links'), JSON.stringify({ title: 'x', description: 'y'.repeat(8 * 1024 * 1024) }))).toEqual(tooLarge);
    expect(await post(testClient(ctx.server.url), url('/api/auth/sign-in/email'), body)).toEqual({
      status: 413,
      body: { error: MSG.bodyTooLarge, code: 'PAYLOAD_TOO_LARGE' },
    });
  });

  it('answers uploads over their limit with 413 and a code', async () => {
    const user = await signedInUser(ctx.server.url);
    const huge = new Blob([new Uint8Array(5 * 1024 * 1024 + 1)], { type: 'image/png' });
    const image = await failure(user.api.uploadImage(huge));
    const avatar = await failure(user.api.uploadAvatar(user.me.id, huge));
    for (const err of [image, avatar]) expect([err.status, err.message, err.code]).toEqual([413, MSG.imageTooLarge, 'FILE_TOO_LARGE']);
  });

  it('answers malformed multipart with 400 on every upload route, writing nothing', async () => {
    const user = await signedInUser(ctx.server.url);
    const routes = [
      ['/api/uploads/images', 'image'],
      [`/api/users/${user.me.id}/avatar`, 'avatar'],
      ['/api/import/bookmarks', 'file'],
      ['/api/import/bookmarks/preview', 'file'],
    ] as const;
    const bookmarks = '<DL><p><DT><A HREF="https://example.com/a">A</A>';
    const cases = (field: string): [string, string, string][] => [
      ['no boundary', 'multipart/form-data', multipart('x', field, bookmarks)],
      ['no boundary but another parameter', 'multipart/form-data; charset=utf-8', multipart('x', field, bookmarks)],
      ['an empty boundary', 'multipart/form-data; boundary=', multipart('x', field, bookmarks)],
      ['a boundary over 256 characters', `multipart/form-data; boundary=${'b'.repeat(300)}`, multipart('b'.repeat(300), field, bookmarks)],
      ['another boundary than the body', 'multipart/form-data; boundary=yyy', multipart('xxx', field, bookmarks)],
      ['a body cut in the file', 'multipart/form-data; boundary=xxx', multipart('xxx', field, bookmarks, { end: false })],
      ['a body cut in the part header', 'multipart/form-data; boundary=xxx', '--xxx\r\nContent-Disposition: form-da'],
    ];
    const before = await linksCount(ctx.server.db);
    for (const [path, field] of routes) {
      for (const [name, type, body] of cases(field)) {
        expect(await post(user, url(path), body, type), `${path}: ${name}`).toEqual({ status: 400, body: MALFORMED });
      }
    }
    expect(await linksCount(ctx.server.db)).toBe(before);
    expect(await user.api.me()).toEqual(user.me);
    // The server is fine and the routes still work.
    const preview = await user.api.previewBookmarks(new Blob([bookmarks], { type: 'text/html' }));
    expect(preview.bookmarks).toBe(1);
  });
});
