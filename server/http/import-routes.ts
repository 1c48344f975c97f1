import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiRoutes } from '../../shared/api/routes';
import {
  BOOKMARKS_MAX_BYTES,
  BOOKMARKS_NDJSON,
  BOOKMARK_MESSAGES,
  JSON_MAX_DEPTH,
  type BookmarkImportEvent,
  type FolderMapping,
  bookmarksExportName,
  folderMappingSchema,
} from '../../shared/domain';
import type { Db } from '../db';
import { shareLinks } from '../services/batch-share';
import { type ParsedBookmark, bookmarkParser } from '../services/bookmark-file';
import { exportBookmarks } from '../services/bookmark-export';
import { bookmarkPreviewCounter, importBookmarks, mappedCollections } from '../services/bookmark-import';
import { eventLoopTurns } from '../services/event-loop-turns';
import { HttpError, badRequest, fileTooLarge } from '../errors';
import { declared, zodRoutes } from './api-route';
import { jsonNestedDeeperThan } from './json-body';
import type { SessionReader } from './session';

interface Deps {
  db: Db;
  session: SessionReader;
}


/** Characters parsed between two chances for other requests to run (a 64 KB chunk at once took up to 15 ms). */
const PARSE_SLICE = 8 * 1024;

const acceptsNdjson = (accept: string | undefined) => (accept ?? '').toLowerCase().includes(BOOKMARKS_NDJSON);

/** The multipart field 'mapping' (absent: every folder as by default). */
function parseMapping(raw: string | undefined): FolderMapping {
  if (raw === undefined) return {};
  let json: unknown;
  try {
    if (jsonNestedDeeperThan(raw, JSON_MAX_DEPTH)) throw new Error('too deep');
    json = JSON.parse(raw);
  } catch {
    throw badRequest(BOOKMARK_MESSAGES.invalidMapping, 'INVALID_MAPPING');
  }
  const parsed = folderMappingSchema.safeParse(json);
  if (!parsed.success) throw badRequest(BOOKMARK_MESSAGES.invalidMapping, 'INVALID_MAPPING');
  return parsed.data;
}

/**
 * Parses the multipart upload's 'file' as it streams in, handing each bookmark to `onBookmark`,
 * and returns the text fields sent with it. 400 without a file or bookmarks, 413 beyond 20 MB, 400
 * beyond 50,000 bookmarks. The file is parsed in slices, giving other requests turns between them.
 */
async function readBookmarkUpload(
  req: FastifyRequest,
  onBookmark: (b: ParsedBookmark) => void,
): Promise<{ flattenedFolders: number; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw badRequest(BOOKMARK_MESSAGES.noFile);
  const fields: Record<string, string> = {};
  let flattenedFolders = 0;
  let count = 0;
  let sawFile = false;
  for await (const part of req.parts({ limits: { fileSize: BOOKMARKS_MAX_BYTES, files: 1, fields: 4, fieldSize: 4 * 1024 * 1024 } })) {
    if (part.type === 'field') {
      if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      continue;
    }
    if (part.fieldname !== 'file' || sawFile) {
      part.file.resume();
      continue;
    }
    sawFile = true;
    const parser = bookmarkParser(onBookmark);
    const decoder = new TextDecoder('utf-8');
    const turn = eventLoopTurns();
    try {
      for await (const chunk of part.file) {
        const text = decoder.decode(chunk as Buffer, { stream: true });
        for (let at = 0; at < text.length; at += PARSE_SLICE) {
          parser.write(text.slice(at, at + PARSE_SLICE));
          await turn();
        }
      }
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge(BOOKMARK_MESSAGES.tooLarge);
      // A refused file (too many bookmarks): the rest of the upload is not read.
      part.file.resume();
      throw err;
    }
    if (part.file.truncated) throw fileTooLarge(BOOKMARK_MESSAGES.tooLarge);
    parser.write(decoder.decode());
    parser.end();
    flattenedFolders = parser.flattenedFolders;
    count = parser.count;
  }
  if (!sawFile) throw badRequest(BOOKMARK_MESSAGES.noFile);
  if (count === 0) throw badRequest(BOOKMARK_MESSAGES.noBookmarks, 'NO_BOOKMARKS');
  return { flattenedFolders, fields };
}

/** Import: sharing many found URLs at once; bookmark files in and out. */
export function registerImportRoutes(app: FastifyInstance, { db, session }: Deps): void {
  const api = zodRoutes(app);

  /** { items: [{ url, title, description, thumbnailUrl? }] (1..100), supercurationIds?, format?, inMainFeed? } → 201 { links }. */
  api.route({
    ...declared(apiRoutes.shareLinks, session),
    handler: async (req, reply) => reply.status(201).send({ links: await shareLinks(db, await session.requireViewer(req), req.body) }),
  });

  /**
   * Multipart: optional field 'mapping' (JSON FolderMapping, before the file), field 'file': a
   * Netscape bookmark file, ≤ 20 MB (413), ≤ 50,000 bookmarks (400), parsed as it streams in. A
   * mapping that is not valid JSON of that shape is 400; one naming a collection the viewer may
   * not edit is 404 'Supercuration not found'. All of that is answered before anything is written.
   * Then → 200 BookmarkImportSummary, or with `Accept: application/x-ndjson` a stream of
   * BookmarkImportEvent lines: progress ({ done, total }) after each chunk, then the summary.
   */
  api.route({
    ...declared(apiRoutes.importBookmarks, session),
    handler: async (req, reply) => {
      const viewer = await session.requireViewer(req);
      const bookmarks: ParsedBookmark[] = [];
      const { flattenedFolders, fields } = await readBookmarkUpload(req, (b) => bookmarks.push(b));
      const file = { bookmarks, flattenedFolders };
      const mapping = parseMapping(fields.mapping);
      const targets = await mappedCollections(db, viewer, mapping);

      if (!acceptsNdjson(req.headers.accept)) return reply.send(await importBookmarks(db, viewer, file, { mapping, targets }));

      const out = new PassThrough();
      const line = (event: BookmarkImportEvent) => out.write(`${JSON.stringify(event)}\n`);
      reply.type(`${BOOKMARKS_NDJSON}; charset=utf-8`).header('cache-control', 'no-store').header('x-content-type-options', 'nosniff');
      void reply.send(out);
      try {
        const summary = await importBookmarks(db, viewer, file, {
          mapping,
          targets,
          onProgress: (done, total) => {
            line({ type: 'progress', done, total });
          },
        });
        line({ type: 'summary', summary });
      } catch (err) {
        req.log.error({ err }, 'bookmark import failed while streaming');
        line({ type: 'error', error: err instanceof HttpError ? err.message : BOOKMARK_MESSAGES.importFailed });
      }
      out.end();
      return reply;
    },
  });

  /** Multipart field 'file' as above → 200 BookmarkFilePreview (its folders and counts); nothing is written. */
  api.route({
    ...declared(apiRoutes.previewBookmarks, session),
    handler: async (req, reply) => {
      const counter = bookmarkPreviewCounter();
      const { flattenedFolders } = await readBookmarkUpload(req, counter.add);
      return reply.send(counter.preview(flattenedFolders));
    },
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
