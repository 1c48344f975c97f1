import { expect, it } from 'vitest';
import {
  BOOKMARK_FOLDER_MAX_DEPTH,
  type BookmarkImportSummary,
} from '../../shared/domain';
import { nestedBookmarkFile } from '../support/bookmark-files';
import { signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';

/** Too-deep folders and where their links go (the health bounds: tests/solo/import-hostile.test.ts). */
const form = (html: string) => {
  const data = new FormData();
  data.append('file', new Blob([html], { type: 'text/html' }), 'bookmarks.html');
  return data;
};

describeEachDatabase('hostile bookmark files', (ctx) => {
  /** [url, in_main_feed] of the user's links, by URL. */
  const mainFeedFlags = async (userId: string) =>
    (await ctx.server.db.kysely.selectFrom('links').select(['url', 'in_main_feed']).where('user_id', '=', userId).orderBy('url').execute()).map(
      (r) => [r.url, Number(r.in_main_feed)],
    );

  it('imports a too-deep file into the folder 100 levels down, says so in the summary, and keeps every link out of the main feed by default', async () => {
    const user = await signedInUser(ctx.server.url);
    const html = nestedBookmarkFile(BOOKMARK_FOLDER_MAX_DEPTH + 20, 3).replace(
      '<DT><H3>f0</H3>',
      '<DT><A HREF="https://loose.example.com/">Loose</A>\n<DT><H3>f0</H3>',
    );
    const res = await user.fetch(`${ctx.server.url}/api/import/bookmarks`, { method: 'POST', body: form(html) });
    expect(res.status).toBe(200);
    const summary = (await res.json()) as BookmarkImportSummary;
    expect(summary).toMatchObject({ created: 4, flattenedFolders: 20 });
    expect(summary.collections).toEqual([expect.objectContaining({ count: 3, created: true })]);

    // Private by default: no link is published to the main feed, loose or in the new private collection.
    expect(await mainFeedFlags(user.me.id)).toEqual([
      ['https://deep.example.com/0', 0],
      ['https://deep.example.com/1', 0],
      ['https://deep.example.com/2', 0],
      ['https://loose.example.com/', 0],
    ]);
  });

  it('with "Also share these on my main feed", puts the links of loose bookmarks and of public collections in the main feed', async () => {
    const user = await signedInUser(ctx.server.url);
    const open = await user.api.createSupercuration({ title: 'Open', isPublic: true, slug: `open-${user.me.id.slice(0, 8).toLowerCase()}` });
    const html = `<DL><p><DT><A HREF="https://top.example.com/">Top</A><DT><H3>Pub</H3><DL><p><DT><A HREF="https://pub.example.com/">P</A></DL><p></DL><p>`;
    const summary = await user.api.importBookmarks(new Blob([html], { type: 'text/html' }), {
      mapping: { Pub: { type: 'collection', id: open.id } },
      inMainFeed: true,
    });
    expect(summary.created).toBe(2);
    expect(await mainFeedFlags(user.me.id)).toEqual([
      ['https://pub.example.com/', 1],
      ['https://top.example.com/', 1],
    ]);
  });
});
