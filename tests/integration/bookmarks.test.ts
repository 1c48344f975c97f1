import { expect, it } from 'vitest';
import { BOOKMARKS_CHUNK, BOOKMARKS_MAX_COUNT, type BookmarkImportSummary } from '../../shared/domain';
import { parseBookmarks } from '../../server/services/bookmark-file';
import { multipartUpload, nestedBookmarkFile } from '../support/bookmark-files';
import { CHROMIUM_BOOKMARKS_EXPECTED, CHROMIUM_BOOKMARKS_HTML } from '../support/chromium-bookmarks';
import { failure, signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

const FILE = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
    <DT><H3 PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>
    <DL><p>
        <DT><A HREF="https://root.example.com/one" ADD_DATE="1600000000">Root one</A>
        <DT><H3>Dev</H3>
        <DL><p>
            <DT><A HREF="https://dev.example.com/a" ADD_DATE="1650000000" TAGS="Machine Learning,web">Dev A</A>
            <DD>About A &amp; more
            <DT><A HREF="https://dev.example.com/a" ADD_DATE="1650000000">Dev A again</A>
            <DT><A HREF="javascript:void(0)">Bookmarklet</A>
            <DT><A HREF="place:sort=8">Recent</A>
            <DT><H3>Rust</H3>
            <DL><p>
                <DT><A HREF="https://doc.rust-lang.org/book/"></A>
                <DT><A HREF="https://root.example.com/one">Root one in Rust</A>
            </DL><p>
        </DL><p>
    </DL><p>
</DL><p>
`;

function form(content: string | Uint8Array<ArrayBuffer>, name = 'bookmarks.html') {
  const data = new FormData();
  data.append('file', new Blob([content], { type: 'text/html' }), name);
  return data;
}

async function upload(client: { fetch: typeof fetch }, url: string, body: FormData) {
  return client.fetch(`${url}/api/import/bookmarks`, { method: 'POST', body });
}

describeEachDatabase('bookmark files (import and export)', (ctx) => {
  it('imports folders as private collections, links with dates and topics; re-import skips them', async () => {
    const user = await signedInUser(ctx.server.url);
    const res = await upload(user, ctx.server.url, form(FILE));
    expect(res.status).toBe(200);
    const summary = (await res.json()) as BookmarkImportSummary;
    expect(summary).toMatchObject({ created: 3, reused: 1, skipped: { duplicates: 1, invalid: 2 } });
    expect(summary.collections.map((c) => [c.title, c.count, c.created]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['Dev', 1, true],
      ['Dev / Rust', 2, true],
    ]);

    const db = ctx.server.db.kysely;
    const collections = await db.selectFrom('supercurations').selectAll().where('user_id', '=', user.me.id).execute();
    expect(collections.every((c) => Number(c.is_public) === 0 && c.slug === null)).toBe(true);
    for (const c of collections) {
      const n = await db.selectFrom('supercuration_links').select((eb) => eb.fn.countAll<number>().as('n')).where('supercuration_id', '=', c.id).executeTakeFirstOrThrow();
      expect(Number(c.links_count)).toBe(Number(n.n));
    }
    const links = await db.selectFrom('links').selectAll().where('user_id', '=', user.me.id).orderBy('url').execute();
    expect(links.map((l) => l.url)).toEqual([
      'https://dev.example.com/a',
      'https://doc.rust-lang.org/book/',
      'https://root.example.com/one',
    ]);
    const devA = links[0];
    expect(devA).toMatchObject({ title: 'Dev A', description: 'About A & more', created_at: new Date(1650000000 * 1000).toISOString() });
    expect(links[1]).toMatchObject({ title: 'doc.rust-lang.org', description: 'Imported bookmark' });
    const topics = await db.selectFrom('link_topics').select('topic_id').where('link_id', '=', devA?.id ?? '').orderBy('topic_id').execute();
    expect(topics.map((t) => t.topic_id)).toEqual(['machine-learning', 'web']);
    expect((await user.api.getLink(devA?.id ?? '')).topicIds).toEqual(['machine-learning', 'web']);
    expect((await user.api.listTopics()).some((t) => t.name === 'Machine Learning')).toBe(true);

    const again = (await (await upload(user, ctx.server.url, form(FILE))).json()) as BookmarkImportSummary;
    expect(again).toMatchObject({ created: 0, reused: 0, alreadySaved: 4, skipped: { duplicates: 1, invalid: 2 }, invalidRows: [4, 5] });
    expect(again.collections.every((c) => !c.created)).toBe(true);
    expect(await db.selectFrom('supercurations').select('id').where('user_id', '=', user.me.id).execute()).toHaveLength(2);
  });

  it('refuses visitors (401), files over 50 MB (413) and files with no bookmarks (400)', async () => {
    const visitor = testClient(ctx.server.url);
    expect((await upload(visitor, ctx.server.url, form(FILE))).status).toBe(401);
    const user = await signedInUser(ctx.server.url);
    const big = new Uint8Array(50 * 1024 * 1024 + 1024).fill(0x20);
    const res = await upload(user, ctx.server.url, form(big));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toBe('Import files can be at most 50 MB');
    expect((await upload(user, ctx.server.url, form('<p>nothing</p>'))).status).toBe(400);
  });

  it('exports own links grouped by own collections, and the export re-imports to the same links', async () => {
    const user = await signedInUser(ctx.server.url);
    const other = await signedInUser(ctx.server.url);
    await upload(user, ctx.server.url, form(FILE));
    await other.api.createLink({ url: 'https://other.example.com/secret', title: 'Secret', description: 'Not yours' });

    const res = await user.fetch(`${ctx.server.url}/api/export/bookmarks`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="supercurate-bookmarks-\d{4}-\d{2}-\d{2}\.html"$/);
    const html = await res.text();
    expect(html).not.toContain('other.example.com');
    const exported = parseBookmarks(html);
    const pairs = exported.map((b) => `${b.folder?.title ?? ''}|${b.href}`).sort();
    expect(pairs).toEqual([
      // root.example.com/one is in 'Dev / Rust' too, so it is listed there only.
      'Dev / Rust|https://doc.rust-lang.org/book/',
      'Dev / Rust|https://root.example.com/one',
      'Dev|https://dev.example.com/a',
    ]);
    expect(exported.find((b) => b.href === 'https://dev.example.com/a')).toMatchObject({
      addDate: 1650000000,
      tags: ['Machine Learning', 'web'],
      description: 'About A & more',
    });
    // Not visible to visitors.
    expect((await testClient(ctx.server.url).fetch(`${ctx.server.url}/api/export/bookmarks`)).status).toBe(401);

    // Round trip into a fresh account: the same URLs and folders.
    const fresh = await signedInUser(ctx.server.url);
    const summary = (await (await upload(fresh, ctx.server.url, form(html))).json()) as BookmarkImportSummary;
    expect(summary.created).toBe(3);
    expect(summary.collections.map((c) => c.title).sort()).toEqual(['Dev', 'Dev / Rust']);
    const back = parseBookmarks(await (await fresh.fetch(`${ctx.server.url}/api/export/bookmarks`)).text());
    expect(back.map((b) => `${b.folder?.title ?? ''}|${b.href}`).sort()).toEqual(pairs);
  });

  // The limit is the parser's, the same for a preview and an import: it is tried at 100,000 by a
  // preview (nothing written), and the chunked writes by importing 50 chunks. Importing 100,000
  // took 50-90 s per database here, every CI run; `npm run bench` measures imports at that scale.
  it('accepts 100,000 bookmarks and refuses more; imports in chunks, counting every one', async () => {
    const user = await signedInUser(ctx.server.url);
    const line = (i: number) => `<DT><A HREF="https://bulk.example.com/${i}" ADD_DATE="1600000000">Bulk ${i}</A>\n`;
    const body = (n: number) => `<DL><p><DT><H3>Bulk</H3><DL><p>\n${Array.from({ length: n }, (_, i) => line(i)).join('')}</DL><p></DL><p>`;
    const tooMany = await upload(user, ctx.server.url, form(body(BOOKMARKS_MAX_COUNT + 1)));
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { error: string }).error).toMatch(/at most 100,000 bookmarks/);
    const atLimit = await user.api.previewBookmarks(new Blob([body(BOOKMARKS_MAX_COUNT)], { type: 'text/html' }));
    expect(atLimit).toMatchObject({ bookmarks: 100_000, folders: [{ title: 'Bulk', count: 100_000 }] });

    const n = 50 * BOOKMARKS_CHUNK;
    const res = await upload(user, ctx.server.url, form(body(n)));
    expect(res.status).toBe(200);
    const summary = (await res.json()) as BookmarkImportSummary;
    expect(summary.created).toBe(n);
    expect(summary.collections).toEqual([expect.objectContaining({ title: 'Bulk', count: n })]);
    const row = await ctx.server.db.kysely.selectFrom('supercurations').select('links_count').where('id', '=', summary.collections[0]?.id ?? '').executeTakeFirstOrThrow();
    expect(Number(row.links_count)).toBe(n);
  }, 120_000);

  it('streams progress lines, then the summary, with Accept: application/x-ndjson', async () => {
    const user = await signedInUser(ctx.server.url);
    const n = 1_200;
    const body = `<DL><p><DT><H3>Stream</H3><DL><p>\n${Array.from({ length: n }, (_, i) => `<DT><A HREF="https://stream.example.com/${i}">S ${i}</A>\n`).join('')}</DL><p></DL><p>`;
    const data = form(body);
    const res = await user.fetch(`${ctx.server.url}/api/import/bookmarks`, {
      method: 'POST',
      headers: { accept: 'application/x-ndjson' },
      body: data,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as { type: string; done?: number; total?: number; summary?: BookmarkImportSummary });
    // One line before the first chunk and one after each.
    const chunks = Math.ceil(n / BOOKMARKS_CHUNK);
    expect(lines.filter((l) => l.type === 'progress').map((l) => [l.done, l.total])).toEqual(
      Array.from({ length: chunks + 1 }, (_, i) => [Math.min(i * BOOKMARKS_CHUNK, n), n]),
    );
    expect(lines.at(-1)).toMatchObject({ type: 'summary', summary: { created: n, skipped: { duplicates: 0, invalid: 0 } } });

    // The typed client reads the same stream.
    const progress: [number, number][] = [];
    const again = await user.api.importBookmarks(new Blob([body], { type: 'text/html' }), { onProgress: (d, t) => progress.push([d, t]) });
    expect(again).toMatchObject({ created: 0, alreadySaved: n, skipped: { duplicates: 0 } });
    expect(progress.at(0)).toEqual([0, n]);
    expect(progress.at(-1)).toEqual([n, n]);

    // Refusals are plain 4xx answers before any streaming.
    const refused = await failure(user.api.importBookmarks(new Blob(['<p>nothing</p>'], { type: 'text/html' })));
    expect([refused.status, refused.message]).toEqual([400, 'No bookmarks found in this file']);
  });

  it('previews the folders of a file without writing anything', async () => {
    const user = await signedInUser(ctx.server.url);
    const preview = await user.api.previewBookmarks(new Blob([FILE], { type: 'text/html' }));
    expect(preview).toEqual({
      bookmarks: 7,
      loose: 1,
      folders: [
        { title: 'Dev', count: 4 },
        { title: 'Dev / Rust', count: 2 },
      ],
      flattenedFolders: 0,
    });
    const db = ctx.server.db.kysely;
    expect(await db.selectFrom('links').select('id').where('user_id', '=', user.me.id).execute()).toEqual([]);
    expect(await db.selectFrom('supercurations').select('id').where('user_id', '=', user.me.id).execute()).toEqual([]);
    expect((await failure(testClient(ctx.server.url).api.previewBookmarks(new Blob([FILE])))).status).toBe(401);
  });

  it('reads a file sent in chunks without a Content-Length as one sent whole', async () => {
    const user = await signedInUser(ctx.server.url);
    const html = nestedBookmarkFile(3, 8_000);
    expect(html.length).toBeGreaterThan(300_000);
    const { contentType, bytes } = await multipartUpload(html);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 10_000) controller.enqueue(bytes.slice(at, at + 10_000));
        controller.close();
      },
    });
    const res = await user.fetch(`${ctx.server.url}/api/import/bookmarks/preview`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(200);
    const expected = { bookmarks: 8_000, loose: 0, folders: [{ title: 'f0 / f1 / f2', count: 8_000 }], flattenedFolders: 0 };
    expect(await res.json()).toEqual(expected);
    expect(await user.api.previewBookmarks(new Blob([html], { type: 'text/html' }))).toEqual(expected);
  });

  it('maps folders to an own collection or to none, as the user chose', async () => {
    const user = await signedInUser(ctx.server.url);
    const reading = await user.api.createSupercuration({ title: 'Reading list' });
    const summary = await user.api.importBookmarks(new Blob([FILE], { type: 'text/html' }), {
      mapping: { Dev: { type: 'collection', id: reading.id }, 'Dev / Rust': { type: 'none' } },
    });
    expect(summary).toMatchObject({ created: 3, skipped: { invalid: 2 } });
    expect(summary.collections).toEqual([{ id: reading.id, title: 'Reading list', count: 1, created: false }]);
    const db = ctx.server.db.kysely;
    const own = await db.selectFrom('supercurations').select(['id', 'links_count']).where('user_id', '=', user.me.id).execute();
    expect(own).toEqual([{ id: reading.id, links_count: 1 }]);
    const members = await db
      .selectFrom('supercuration_links as sl')
      .innerJoin('links as l', 'l.id', 'sl.link_id')
      .select('l.url')
      .where('sl.supercuration_id', '=', reading.id)
      .execute();
    expect(members.map((m) => m.url)).toEqual(['https://dev.example.com/a']);
  });

  it("refuses a mapping to someone else's collection (404) or a malformed one (400), writing nothing", async () => {
    const owner = await signedInUser(ctx.server.url);
    const user = await signedInUser(ctx.server.url);
    const secret = await owner.api.createSupercuration({ title: 'Secret' });
    const open = await owner.api.createSupercuration({ title: 'Open', isPublic: true, slug: `open-${owner.me.id.slice(0, 8).toLowerCase()}` });
    const file = () => new Blob([FILE], { type: 'text/html' });
    for (const target of [secret.id, open.id, 'no-such-collection']) {
      const err = await failure(user.api.importBookmarks(file(), { mapping: { Dev: { type: 'collection', id: target } } }));
      expect([err.status, err.message]).toEqual([404, 'Supercuration not found']);
    }
    const malformed = new FormData();
    malformed.append('mapping', '{"Dev": {"type": "elsewhere"}}');
    malformed.append('file', file(), 'bookmarks.html');
    const bad = await upload(user, ctx.server.url, malformed);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe('Invalid folder mapping');
    const notJson = form(FILE);
    notJson.append('mapping', 'Dev=none');
    expect((await upload(user, ctx.server.url, notJson)).status).toBe(400);

    const db = ctx.server.db.kysely;
    expect(await db.selectFrom('links').select('id').where('user_id', '=', user.me.id).execute()).toEqual([]);
    expect(await db.selectFrom('supercurations').select('id').where('user_id', '=', user.me.id).execute()).toEqual([]);
    expect(Number((await db.selectFrom('supercurations').select('links_count').where('id', '=', secret.id).executeTakeFirstOrThrow()).links_count)).toBe(0);
  });

  it("imports a file in Chromium's export format, and its export re-imports to the same links", async () => {
    const user = await signedInUser(ctx.server.url);
    const file = () => new Blob([CHROMIUM_BOOKMARKS_HTML], { type: 'text/html' });
    const { urls, ...preview } = CHROMIUM_BOOKMARKS_EXPECTED;
    expect(await user.api.previewBookmarks(file(), 'bookmarks_11_23_26.html')).toEqual(preview);

    const summary = await user.api.importBookmarks(file(), { name: 'bookmarks_11_23_26.html' });
    // The 'Ownership' bookmark is in 'Dev / Rust' and in 'Reading': one link in both collections.
    expect(summary).toMatchObject({ created: 7, reused: 1, skipped: { duplicates: 0, invalid: 1 } });
    expect(summary.collections.map((c) => [c.title, c.count, c.created])).toEqual([
      ['Dev', 1, true],
      ['Dev / Rust', 2, true],
      ['Reading', 2, true],
    ]);
    const db = ctx.server.db.kysely;
    const links = await db.selectFrom('links').selectAll().where('user_id', '=', user.me.id).orderBy('url').execute();
    expect(links.map((l) => l.url)).toEqual(urls);
    expect(links.find((l) => l.url === 'https://supercurate.example.com/')).toMatchObject({
      title: 'Supercurate & friends',
      created_at: new Date(1700000100 * 1000).toISOString(),
    });
    expect(links.find((l) => l.url?.startsWith('https://dev.example.com/'))?.title).toBe('Search: "tesseract" <en>');

    const exported = await (await user.fetch(`${ctx.server.url}/api/export/bookmarks`)).text();
    const fresh = await signedInUser(ctx.server.url);
    const again = await fresh.api.importBookmarks(new Blob([exported], { type: 'text/html' }));
    expect(again.created).toBe(urls.length);
    const back = await db.selectFrom('links').select('url').where('user_id', '=', fresh.me.id).orderBy('url').execute();
    expect(back.map((l) => l.url)).toEqual(urls);
    expect(again.collections.map((c) => c.title).sort()).toEqual(['Dev', 'Dev / Rust', 'Reading']);
  });
});
