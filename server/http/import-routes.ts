import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiRoutes } from '../../shared/api/routes';
import {
  BOOKMARKS_MAX_BYTES,
  BOOKMARKS_NDJSON,
  BOOKMARK_MESSAGES,
  FEED_IMPORT_MESSAGES,
  FEED_IMPORT_RATE_LIMIT,
  JSON_MAX_DEPTH,
  type BookmarkImportEvent,
  type BookmarkImportSummary,
  type FolderMapping,
  bookmarksExportName,
  folderMappingSchema,
  importMainFeedFieldSchema,
} from '../../shared/domain';
import type { Config } from '../config';
import type { Db } from '../db';
import { shareLinks } from '../services/batch-share';
import type { ParsedBookmark } from '../services/bookmark-file';
import { fetchFeed, readFeed } from '../services/import-feed';
import { readImportFile } from '../services/import-file';
import { FULL_COLLECTION_AFTER_BOOKMARKS, collectAfter } from '../full-collection';
import { exportBookmarks } from '../services/bookmark-export';
import { bookmarkPreviewCounter, importBookmarks, importCollector, mappedCollections } from '../services/bookmark-import';
import { HttpError, badRequest, fileTooLarge, tooManyRequests } from '../errors';
import { jsonNestedDeeperThan } from '../services/json-depth';
import { declared, zodRoutes } from './api-route';
import { perViewerRateLimit } from './per-viewer-limit';
import type { SessionReader } from './session';

interface Deps {
  db: Db;
  session: SessionReader;
  config: Config;
  /** After an import: its links' previews are due (the background worker, import-previews). */
  onImported: () => void;
}

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
 * An uploaded file's bytes, copied into one buffer as its chunks arrive. The buffer is sized from
 * the request's Content-Length (never beyond the file's limit) and grows by doubling without one:
 * joining the chunks of 2.7 MB at the end took 20-40 ms in one go on a slow machine (the faults of
 * its fresh pages), while every other request waited. Not part.toBuffer(): it keeps the bytes on
 * the part, which the request keeps, so a 10 MB file stayed in memory through the whole import.
 */
async function wholeFile(stream: AsyncIterable<Buffer> & { truncated?: boolean }, sizeHint: number): Promise<Buffer> {
  let bytes = Buffer.allocUnsafeSlow(sizeHint);
  let length = 0;
  for await (const chunk of stream) {
    if (length + chunk.length > bytes.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(2 * bytes.length, length + chunk.length));
      bytes.copy(grown, 0, 0, length);
      bytes = grown;
    }
    chunk.copy(bytes, length);
    length += chunk.length;
  }
  if (stream.truncated) throw fileTooLarge(BOOKMARK_MESSAGES.tooLarge);
  return bytes.subarray(0, length);
}

/** What the request says it holds, as a size for its file's buffer: 0 when it doesn't say. */
const declaredFileSize = (req: FastifyRequest) => Math.min(Number(req.headers['content-length']) || 0, BOOKMARKS_MAX_BYTES);

/**
 * Receives the multipart upload's 'file' (400 without one, 413 beyond BOOKMARKS_MAX_BYTES), then
 * reads it by its content (readImportFile), handing each bookmark to `onBookmark`; returns the
 * text fields sent with it. 400 for a file of no known format or without bookmarks.
 */
async function readBookmarkUpload(
  req: FastifyRequest,
  onBookmark: (b: ParsedBookmark) => void,
): Promise<{ flattenedFolders: number; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw badRequest(BOOKMARK_MESSAGES.noFile);
  const fields: Record<string, string> = {};
  let file: Buffer | null = null;
  // The file's size limit fails the part being read, or the next pull of parts (which of the two
  // depends on how the upload's packets arrive): both say the file's limit.
  try {
    for await (const part of req.parts({ limits: { fileSize: BOOKMARKS_MAX_BYTES, files: 1, fields: 4, fieldSize: 4 * 1024 * 1024 } })) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        continue;
      }
      file = await wholeFile(part.file, declaredFileSize(req));
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge(BOOKMARK_MESSAGES.tooLarge);
    throw err;
  }
  if (!file) throw badRequest(BOOKMARK_MESSAGES.noFile);
  const { count, flattenedFolders } = await readImportFile(file, onBookmark);
  if (count === 0) throw badRequest(BOOKMARK_MESSAGES.noBookmarks, 'NO_BOOKMARKS');
  return { flattenedFolders, fields };
}

/** The multipart field 'inMainFeed' ('true' or 'false'; absent: false). */
function parseMainFeed(raw: string | undefined): boolean {
  const parsed = importMainFeedFieldSchema.safeParse(raw);
  if (!parsed.success) throw badRequest(BOOKMARK_MESSAGES.invalidMainFeed, 'INVALID_MAIN_FEED');
  return parsed.data;
}

/**
 * Answers an import with its summary, or with `Accept: application/x-ndjson` a stream of
 * BookmarkImportEvent lines: progress ({ done, total }) after each chunk, then the summary.
 */
async function sendImport(
  req: FastifyRequest,
  reply: FastifyReply,
  run: (onProgress?: (done: number, total: number) => void) => Promise<BookmarkImportSummary>,
): Promise<FastifyReply> {
  if (!acceptsNdjson(req.headers.accept)) return reply.send(await run());
  const out = new PassThrough();
  const line = (event: BookmarkImportEvent) => out.write(`${JSON.stringify(event)}\n`);
  reply.type(`${BOOKMARKS_NDJSON}; charset=utf-8`).header('cache-control', 'no-store').header('x-content-type-options', 'nosniff');
  void reply.send(out);
  try {
    const summary = await run((done, total) => {
      line({ type: 'progress', done, total });
    });
    line({ type: 'summary', summary });
  } catch (err) {
    req.log.error({ err }, 'bookmark import failed while streaming');
    line({ type: 'error', error: err instanceof HttpError ? err.message : BOOKMARK_MESSAGES.importFailed });
  }
  out.end();
  return reply;
}

/** Import: sharing many found URLs at once; bookmark files and feeds in, bookmark files out. */
export function registerImportRoutes(app: FastifyInstance, { db, session, config, onImported }: Deps): void {
  const api = zodRoutes(app);

  /** { items: [{ url, title, description, thumbnailUrl? }] (1..100), supercurationIds?, format?, inMainFeed? } → 201 { links }. */
  api.route({
    ...declared(apiRoutes.shareLinks, session),
    handler: async (req, reply) => reply.status(201).send({ links: await shareLinks(db, await session.requireViewer(req), req.body) }),
  });

  /**
   * Multipart: optional fields 'mapping' (JSON FolderMapping) and 'inMainFeed' ('true': the new
   * links also go to the main feed; default private), field 'file': an import file in any format
   * readImportFile reads, ≤ 50 MB (413), ≤ 100,000 bookmarks (400). A
   * mapping that is not valid JSON of that shape is 400; one naming a collection the viewer may
   * not edit is 404 'Supercuration not found'. All of that is answered before anything is written.
   * Then → 200 BookmarkImportSummary, or with `Accept: application/x-ndjson` a stream of
   * BookmarkImportEvent lines: progress ({ done, total }) after each chunk, then the summary.
   */
  api.route({
    ...declared(apiRoutes.importBookmarks, session),
    handler: async (req, reply) => {
      const viewer = await session.requireViewer(req);
      const collector = importCollector();
      const { flattenedFolders, fields } = await readBookmarkUpload(req, collector.add);
      const file = collector.collected(flattenedFolders);
      if (file.items.length >= FULL_COLLECTION_AFTER_BOOKMARKS) collectAfter(reply.raw);
      const mapping = parseMapping(fields.mapping);
      const inMainFeed = parseMainFeed(fields.inMainFeed);
      const targets = await mappedCollections(db, viewer, mapping);
      return sendImport(req, reply, (onProgress) => importBookmarks(db, viewer, file, { mapping, targets, inMainFeed, onProgress }).finally(onImported));
    },
  });

  /**
   * JSON { url }: the RSS or Atom feed at `url`, fetched SSRF-guarded (fetchFeed), becomes a
   * private supercuration named after it, as an import file's folder would (so its links stay off
   * the main feed). Refusals (address, fetch, size, not a feed) are 4xx before anything is
   * written; then as above.
   */
  api.route({
    ...declared(apiRoutes.importFeed, session),
    config: perViewerRateLimit(session, 'import-feed', FEED_IMPORT_RATE_LIMIT, () => tooManyRequests(FEED_IMPORT_MESSAGES.rateLimited)),
    handler: async (req, reply) => {
      const viewer = await session.requireViewer(req);
      const feed = await fetchFeed(req.body.url, { allowPrivate: config.previewAllowPrivate, publicUrl: config.publicUrl });
      const collector = importCollector();
      const file = collector.collected((await readFeed(feed, collector.add)).flattenedFolders);
      return sendImport(req, reply, (onProgress) => importBookmarks(db, viewer, file, { onProgress }).finally(onImported));
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
