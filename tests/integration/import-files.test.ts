import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { BOOKMARK_MESSAGES, type BookmarkImportSummary, IMPORT_CSV_RECORD_MAX_CHARS, LINK_CHECK_INTERVAL_MS, bookmarkSummaryText } from '../../shared/domain';
import { runDigestOnce } from '../../server/mail/digest';
import { createMailer } from '../../server/mail/mailer';
import { signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { createCollection, failure } from '../support/supercurations';

const fixture = (name: string) => new Uint8Array(readFileSync(join(import.meta.dirname, '../fixtures/imports', name)));

type User = Awaited<ReturnType<typeof signedInUser>>;

/** Every format's fixture, with what a first import of it creates. */
const FORMATS: [file: string, created: number][] = [
  ['pocket.csv', 3],
  ['pocket.zip', 4],
  ['raindrop.csv', 4],
  ['raindrop-short.csv', 1],
  ['instapaper.csv', 3],
  ['readwise.csv', 2],
  ['omnivore.zip', 2],
  ['karakeep.json', 3],
  // Its 'Dup' is the same normalised URL as 'Refactoring UI', filed in a second collection.
  ['linkwarden.json', 2],
  ['netscape.html', 2],
];

describeEachDatabase('import files of every format', (ctx) => {
  const db = () => ctx.server.db.kysely;
  /** Everything an import may write, counted for one user. */
  const written = async (userId: string) => ({
    links: (await db().selectFrom('links').select('id').where('user_id', '=', userId).execute()).length,
    collections: (await db().selectFrom('supercurations').select('id').where('user_id', '=', userId).execute()).length,
    topics: (await db().selectFrom('topics').select('id').where('user_id', '=', userId).execute()).length,
  });
  /** Posts a file under a name that says nothing of its format (the server reads the content). */
  const post = (user: User, bytes: Uint8Array<ArrayBuffer> | string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([bytes]), 'export.bin');
    return user.fetch(`${ctx.server.url}/api/import/bookmarks`, { method: 'POST', body: form });
  };

  it.each(FORMATS)('imports %s, and a re-import adds nothing', async (file, created) => {
    const user = await signedInUser(ctx.server.url);
    const first = await user.api.importBookmarks(new Blob([fixture(file)]), { name: 'export.bin' });
    expect(first.created).toBe(created);
    const before = await written(user.me.id);
    expect(before.links).toBe(created);
    const again = await user.api.importBookmarks(new Blob([fixture(file)]), { name: 'export.bin' });
    expect(again).toMatchObject({ created: 0, reused: 0 });
    expect(bookmarkSummaryText(again)).toMatch(new RegExp(`^0 links imported, ${again.alreadySaved} already saved`));
    expect(again.alreadySaved).toBeGreaterThan(0);
    expect(await written(user.me.id)).toEqual(before);
  });

  it('keeps saved dates, titles (else from the URL), notes, tags, folders as private collections, favourites as likes', async () => {
    const user = await signedInUser(ctx.server.url);
    const summary = await user.api.importBookmarks(new Blob([fixture('raindrop.csv')]));
    expect(summary).toMatchObject({ created: 4, liked: 1, skipped: { duplicates: 0, invalid: 1 }, invalidRows: [5] });
    expect(summary.collections.map((c) => [c.title, c.count, c.created]).sort()).toEqual([
      ['Dev / Rust', 2, true],
      ['Travel', 1, true],
    ]);
    const rust = await db()
      .selectFrom('links')
      .selectAll()
      .where('user_id', '=', user.me.id)
      .where('url', '=', 'https://doc.rust-lang.org/book/')
      .executeTakeFirstOrThrow();
    expect(rust).toMatchObject({ title: 'Rust, the book', description: 'A note, with comma', created_at: '2023-05-01T10:00:00.000Z', in_main_feed: 0 });
    expect(Number(rust.likes_count)).toBe(1);
    expect(await db().selectFrom('likes').select('user_id').where('link_id', '=', rust.id).execute()).toEqual([{ user_id: user.me.id }]);
    const topics = await db().selectFrom('link_topics').select('topic_id').where('link_id', '=', rust.id).orderBy('topic_id').execute();
    expect(topics.map((t) => t.topic_id)).toEqual(['books', 'rust']);
    const collections = await db().selectFrom('supercurations').select(['is_public']).where('user_id', '=', user.me.id).execute();
    expect(collections.every((c) => Number(c.is_public) === 0)).toBe(true);

    const karakeep = await signedInUser(ctx.server.url);
    await karakeep.api.importBookmarks(new Blob([fixture('karakeep.json')]));
    const untitled = await db().selectFrom('links').select('title').where('user_id', '=', karakeep.me.id).where('url', '=', 'https://example.com/karakeep-untitled').executeTakeFirstOrThrow();
    expect(untitled.title).toBe('example.com');

    const linkwarden = await signedInUser(ctx.server.url);
    await linkwarden.api.importBookmarks(new Blob([fixture('linkwarden.json')]));
    const design = await db().selectFrom('supercurations').select('description').where('user_id', '=', linkwarden.me.id).where('title', '=', 'Design').executeTakeFirstOrThrow();
    expect(design.description).toBe('Things that look good');
  });

  it('keeps imported links out of the main feed unless "Also share these on my main feed" is ticked; refuses another value', async () => {
    const flags = async (userId: string) =>
      (await db().selectFrom('links').select('in_main_feed').where('user_id', '=', userId).execute()).map((r) => Number(r.in_main_feed));

    const quiet = await signedInUser(ctx.server.url);
    expect((await post(quiet, fixture('pocket.csv'))).status).toBe(200);
    expect(await flags(quiet.me.id)).toEqual([0, 0, 0]);
    expect((await post(quiet, fixture('readwise.csv'), { inMainFeed: 'false' })).status).toBe(200);
    expect((await flags(quiet.me.id)).every((f) => f === 0)).toBe(true);
    expect((await quiet.api.listLinks()).items.filter((l) => l.user.id === quiet.me.id)).toEqual([]);

    const shared = await signedInUser(ctx.server.url);
    expect((await post(shared, fixture('pocket.csv'), { inMainFeed: 'true' })).status).toBe(200);
    expect(await flags(shared.me.id)).toEqual([1, 1, 1]);

    const refused = await post(shared, fixture('readwise.csv'), { inMainFeed: 'yes' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe(BOOKMARK_MESSAGES.invalidMainFeed);
  });

  it('never mails a collection\'s subscribers about imported links', async () => {
    const owner = await signedInUser(ctx.server.url);
    const c = await createCollection(owner, { isPublic: true, title: 'Followed' });
    const past = new Date(Date.now() - 2 * 3600_000).toISOString();
    await db()
      .insertInto('email_subscribers')
      .values({ id: `sub-${c.id}`, supercuration_id: c.id, email: 'reader@example.com', confirmed_at: past, token_hash: `t-${c.id}`, created_at: past, confirm_sent_at: past })
      .execute();
    await db().insertInto('digest_state').values({ supercuration_id: c.id, last_sent_at: past }).execute();
    const summary = await owner.api.importBookmarks(new Blob([fixture('raindrop.csv')]), {
      mapping: { 'Dev / Rust': { type: 'collection', id: c.id } },
      inMainFeed: true,
    });
    expect(summary.collections).toContainEqual(expect.objectContaining({ id: c.id, count: 2 }));
    const deps = {
      db: ctx.server.db,
      mailer: createMailer({ from: ctx.server.config.mailFrom, dataDir: ctx.server.config.dataDir }),
      publicUrl: ctx.server.url,
      secret: ctx.server.config.authSecret,
      intervalSeconds: 3600,
      wakeOutbox: () => {},
    };
    const soon = () => new Date(Date.now() + 10_000);
    expect(await runDigestOnce(deps, soon())).toEqual({ collections: 0, mails: 0 });

    // A resource added by hand is news as before.
    const link = await owner.api.createLink({ url: 'https://example.com/by-hand', title: 'By hand', description: 'Added by hand' });
    await owner.api.addResource(c.id, { linkId: link.id });
    expect(await runDigestOnce(deps, soon())).toEqual({ collections: 1, mails: 1 });
    const mail = await db().selectFrom('mail_outbox').selectAll().where('kind', '=', 'digest').executeTakeFirstOrThrow();
    expect(mail.subject).toBe('New in Followed: 1 new resource');
  });

  it('refuses bad files with a clear 4xx and writes nothing', async () => {
    const user = await signedInUser(ctx.server.url);
    const before = await written(user.me.id);
    const header = 'title,url,time_added,tags,status\n';
    const cases: [name: string, bytes: Uint8Array<ArrayBuffer> | string, status: number, message: string][] = [
      ['a file of no known format', 'name,address\nAda,London\n', 400, BOOKMARK_MESSAGES.unknownFormat],
      ['JSON of no known shape', '{"hello":"world"}', 400, BOOKMARK_MESSAGES.unknownFormat],
      ['a zip bomb', fixture('hostile-bomb.zip'), 413, BOOKMARK_MESSAGES.unpackedTooLarge],
      ['a zip entry outside its folder', fixture('hostile-traversal.zip'), 400, BOOKMARK_MESSAGES.unsafeZipEntry],
      ['a broken zip', fixture('pocket.zip').subarray(0, 200), 400, BOOKMARK_MESSAGES.badZip],
      ['a CSV with a 10 MB field', `${header}"${'x'.repeat(10 * 1024 * 1024)}",https://example.com/a,1,,\n`, 400, BOOKMARK_MESSAGES.csvFieldTooLarge],
      ['JSON nested 10,000 deep', `{"bookmarks":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, 400, BOOKMARK_MESSAGES.jsonTooDeep],
      ['JSON that does not parse', '{"collections": [', 400, BOOKMARK_MESSAGES.badJson],
      ['a CSV with a header and no rows', header, 400, BOOKMARK_MESSAGES.noBookmarks],
    ];
    expect(10 * 1024 * 1024).toBeGreaterThan(IMPORT_CSV_RECORD_MAX_CHARS);
    for (const [name, bytes, status, message] of cases) {
      for (const path of ['/api/import/bookmarks', '/api/import/bookmarks/preview']) {
        const form = new FormData();
        form.append('file', new Blob([bytes]), 'export.bin');
        const res = await user.fetch(`${ctx.server.url}${path}`, { method: 'POST', body: form });
        expect([name, path, res.status, ((await res.json()) as { error: string }).error]).toEqual([name, path, status, message]);
      }
    }
    expect(await written(user.me.id)).toEqual(before);
    expect(before).toMatchObject({ links: 0, collections: 0 });

    // The typed client gets the same refusal.
    const err = await failure(user.api.importBookmarks(new Blob(['{"hello":"world"}'])));
    expect([err.status, err.message]).toEqual([400, BOOKMARK_MESSAGES.unknownFormat]);
  });

  it('skips rows without an http(s) URL, listing the first 10 row numbers', async () => {
    const user = await signedInUser(ctx.server.url);
    const rows = Array.from({ length: 14 }, (_, i) => (i % 2 === 0 ? `Bad ${i},ftp://example.com/${i},1700000000,,unread` : `Good ${i},https://example.com/${i},1700000000,,unread`));
    const summary: BookmarkImportSummary = await user.api.importBookmarks(new Blob([`title,url,time_added,tags,status\n${rows.join('\n')}\n,,,,\n`]));
    expect(summary).toMatchObject({ created: 7, skipped: { invalid: 8 }, invalidRows: [1, 3, 5, 7, 9, 11, 13, 15] });
    const many = Array.from({ length: 12 }, (_, i) => `No URL ${i},,1700000000,,unread`).join('\n');
    const more = await user.api.importBookmarks(new Blob([`title,url,time_added,tags,status\n${many}\nOk,https://example.com/ok,1,,\n`]));
    expect(more).toMatchObject({ created: 1, skipped: { invalid: 12 }, invalidRows: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] });
  });

  it("spreads the imported links' first health checks over the coming week, in file order", async () => {
    const user = await signedInUser(ctx.server.url, 'Check Spreader');
    const rows = Array.from({ length: 500 }, (_, i) => `Row ${i},https://spread.example.com/${i},${1_600_000_000 + i * 60},,unread`);
    const before = Date.now();
    await user.api.importBookmarks(new Blob([`title,url,time_added,tags,status\n${rows.join('\n')}\n`]));
    const due = await db()
      .selectFrom('link_checks as c')
      .innerJoin('links as l', 'l.id', 'c.link_id')
      .select('c.due_at')
      .where('l.user_id', '=', user.me.id)
      .orderBy('l.created_at')
      .execute();
    const times = due.map((r) => Date.parse(r.due_at));
    expect(times).toHaveLength(500);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect((times[0] as number) - before).toBeLessThan(LINK_CHECK_INTERVAL_MS / 10);
    expect((times[499] as number) - before).toBeGreaterThan(LINK_CHECK_INTERVAL_MS * 0.9);
    expect((times[499] as number) - Date.now()).toBeLessThanOrEqual(LINK_CHECK_INTERVAL_MS);
  });
});
