import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { IMPORTED_BOOKMARK_DESCRIPTION } from '../../shared/domain';
import type { Db } from '../db';
import { keysetAfter } from '../db/keyset';
import type { Viewer } from '../policies/viewer';
import { BOOKMARKS_FOOTER, BOOKMARKS_HEADER, FOLDER_CLOSE, bookmarkLine, folderOpen } from './bookmark-file';

const EXPORT_PAGE = 1000;

/** The viewer's http(s) links, in keyset pages, optionally those of one collection or of none of theirs. */
async function* linkPages(db: Db, viewer: Viewer, scope: { collectionId: string } | { loose: true }) {
  let after: [string, string] | null = null;
  for (;;) {
    let q = db.kysely
      .selectFrom('links')
      .select(['links.id', 'links.url', 'links.title', 'links.description', 'links.created_at'])
      .where('links.user_id', '=', viewer.id)
      .where((eb) => eb.or([eb('links.url', 'like', 'http://%'), eb('links.url', 'like', 'https://%')]));
    if ('collectionId' in scope) {
      const id = scope.collectionId;
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('supercuration_links as sl')
            .select('sl.link_id')
            .whereRef('sl.link_id', '=', 'links.id')
            .where('sl.supercuration_id', '=', id),
        ),
      );
    } else {
      q = q.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('supercuration_links as sl')
              .innerJoin('supercurations as s', 's.id', 'sl.supercuration_id')
              .select('sl.link_id')
              .whereRef('sl.link_id', '=', 'links.id')
              .where('s.user_id', '=', viewer.id),
          ),
        ),
      );
    }
    if (after) q = q.where(keysetAfter(['links.created_at', 'links.id'], 'asc', after));
    const rows = await q.orderBy('links.created_at').orderBy('links.id').limit(EXPORT_PAGE).execute();
    if (rows.length === 0) return;
    const topics = await db.kysely
      .selectFrom('link_topics as lt')
      .innerJoin('topics as t', (join) => join.onRef('t.user_id', '=', 'lt.user_id').onRef('t.id', '=', 'lt.topic_id'))
      .select(['lt.link_id', 't.name'])
      .where(
        'lt.link_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('t.name')
      .execute();
    const tagsOf = new Map<string, string[]>();
    for (const t of topics) tagsOf.set(t.link_id, [...(tagsOf.get(t.link_id) ?? []), t.name]);
    yield rows.map((r) => ({
      url: r.url as string,
      title: r.title,
      description: r.description,
      createdAt: r.created_at,
      tags: tagsOf.get(r.id) ?? [],
    }));
    const last = rows[rows.length - 1] as (typeof rows)[number];
    after = [last.created_at, last.id];
    if (rows.length < EXPORT_PAGE) return;
  }
}

/**
 * GET /api/export/bookmarks: the viewer's own links as a Netscape bookmark file, each of their
 * own collections a folder (their own links in it), then links in none of them at the top level.
 * Streamed page by page.
 */
export function exportBookmarks(db: Db, viewer: Viewer): Readable {
  async function* lines() {
    yield BOOKMARKS_HEADER;
    const collections = await db.kysely
      .selectFrom('supercurations')
      .select(['id', 'title', 'created_at'])
      .where('user_id', '=', viewer.id)
      .orderBy(sql`lower(title)`)
      .orderBy('id')
      .execute();
    for (const c of collections) {
      let opened = false;
      for await (const page of linkPages(db, viewer, { collectionId: c.id })) {
        if (!opened) yield folderOpen(c.title, c.created_at);
        opened = true;
        yield page.map((b) => bookmarkLine(b, '        ', IMPORTED_BOOKMARK_DESCRIPTION)).join('');
      }
      if (opened) yield FOLDER_CLOSE;
    }
    for await (const page of linkPages(db, viewer, { loose: true })) {
      yield page.map((b) => bookmarkLine(b, '    ', IMPORTED_BOOKMARK_DESCRIPTION)).join('');
    }
    yield BOOKMARKS_FOOTER;
  }
  return Readable.from(lines());
}
