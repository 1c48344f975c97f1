import type { FastifyInstance } from 'fastify';
import { BOOKMARKS_MAX_BYTES, BOOKMARK_MESSAGES, LINK_MESSAGES, bookmarksExportName } from '../../shared/domain';
import type { Db } from '../db';
import { shareLinks } from '../services/batch-share';
import { type ParsedBookmark, bookmarkParser } from '../services/bookmark-file';
import { exportBookmarks, importBookmarks } from '../services/bookmarks';
import { HttpError, badRequest } from './errors';
import type { SessionReader } from './session';

interface Deps {
  db: Db;
  session: SessionReader;
}

const tooLarge = () => new HttpError(413, BOOKMARK_MESSAGES.tooLarge, 'FILE_TOO_LARGE');

/** Import (issue 6): sharing many found URLs at once; bookmark files in and out. */
export function registerImportRoutes(app: FastifyInstance, { db, session }: Deps): void {
  /** { items: [{ url, title, description, thumbnailUrl? }] (1..100), supercurationIds?, format?, inMainFeed? } → 201 { links }. */
  app.post('/api/links/batch', async (req, reply) => {
    const viewer = await session.requireViewer(req, LINK_MESSAGES.mustLogInToShare);
    const links = await shareLinks(db, viewer, req.body);
    return reply.status(201).send({ links });
  });

  /**
   * Multipart field 'file': a Netscape bookmark file, ≤ 20 MB (413), ≤ 50,000 bookmarks (400),
   * parsed as it streams in → 200 BookmarkImportSummary.
   */
  app.post('/api/import/bookmarks', async (req, reply) => {
    const viewer = await session.requireViewer(req, BOOKMARK_MESSAGES.mustLogIn);
    if (!req.isMultipart()) throw badRequest(BOOKMARK_MESSAGES.noFile);
    const file = await req.file({ limits: { fileSize: BOOKMARKS_MAX_BYTES, files: 1 } });
    if (!file || file.fieldname !== 'file') throw badRequest(BOOKMARK_MESSAGES.noFile);
    const bookmarks: ParsedBookmark[] = [];
    const parser = bookmarkParser((b) => bookmarks.push(b));
    const decoder = new TextDecoder('utf-8');
    try {
      for await (const chunk of file.file) parser.write(decoder.decode(chunk as Buffer, { stream: true }));
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      // A refused file (too many bookmarks): the rest of the upload is not read.
      file.file.resume();
      throw err;
    }
    if (file.file.truncated) throw tooLarge();
    parser.write(decoder.decode());
    parser.end();
    if (bookmarks.length === 0) throw badRequest(BOOKMARK_MESSAGES.noBookmarks, 'NO_BOOKMARKS');
    const summary = await importBookmarks(db, viewer, bookmarks);
    return reply.send(summary);
  });

  /** The viewer's links as a Netscape bookmark file (attachment), streamed. */
  app.get('/api/export/bookmarks', async (req, reply) => {
    const viewer = await session.requireViewer(req);
    reply
      .type('text/html; charset=utf-8')
      .header('content-disposition', `attachment; filename="${bookmarksExportName()}"`)
      .header('cache-control', 'private, no-store');
    return reply.send(exportBookmarks(db, viewer));
  });
}
