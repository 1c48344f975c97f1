import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import { FEED_PAGE_SIZE, type FormatId, type Link, type Page, type linkListQuerySchema } from '../../shared/domain';
import type { Db } from '../db';
import { type CursorValue, decodeKeyset, encodeKeyset, keysetAfter } from '../db/keyset';
import { queryTemplate } from '../db/query-templates';
import type { Database } from '../db/schema';
import type { Viewer } from '../policies/viewer';
import { linkCards, toLinks } from './links';

type Q = Kysely<Database>;
export type LinkListParams = z.output<typeof linkListQuerySchema>;

// My Feed: keyset pages, each an index range scan (migration 0002).

/** Sort keys, most significant first; the last is the unique id, so the order is total. */
const SORTS = {
  newest: { keys: ['created_at', 'id'], direction: 'desc' },
  oldest: { keys: ['created_at', 'id'], direction: 'asc' },
  most_liked: { keys: ['likes_count', 'created_at', 'id'], direction: 'desc' },
} as const;
type Sort = keyof typeof SORTS;

export const WINDOW_MS = { today: 24 * 3600_000, week: 7 * 24 * 3600_000, month: 30 * 24 * 3600_000 } as const;

/** The start of a time window (SPEC §9: today = 24 h, week = 7 days, month = 30 days), or null for all time. */
export function windowStart(window: 'all' | keyof typeof WINDOW_MS, at = Date.now()): string | null {
  return window === 'all' ? null : new Date(at - WINDOW_MS[window]).toISOString();
}

const keyTypes = (sort: Sort) =>
  SORTS[sort].keys.map((k): 'string' | 'number' => (k === 'likes_count' ? 'number' : 'string'));

/** The opaque cursor: the sort keys of a page's last link, in base64url JSON. */
export function encodeCursor(sort: Sort, row: Record<string, unknown>): string {
  return encodeKeyset(sort, SORTS[sort].keys.map((k) => row[k]));
}

export function decodeCursor(sort: Sort, cursor: string): CursorValue[] {
  return decodeKeyset(sort, keyTypes(sort), cursor);
}

/** Words of a search box as LIKE patterns (case-insensitive, wildcards escaped), at most 8. */
export function likePatterns(q: string): string[] {
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 8)
    .map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}

/** What decides a feed query's SQL text; the values go in separately (see feedInput). */
interface FeedShape {
  scope: LinkListParams['scope'];
  sort: Sort;
  since: boolean;
  format: boolean;
  topic: boolean;
  words: number;
  broken: boolean;
  cursor: boolean;
}

/** A feed request as the shape of its query and the values of its parameters. */
function feedInput(viewerId: string, q: LinkListParams, at: number) {
  const since = windowStart(q.window, at);
  const patterns = q.q ? likePatterns(q.q) : [];
  const cursor = q.cursor ? decodeCursor(q.sort, q.cursor) : [];
  const shape: FeedShape = {
    scope: q.scope,
    sort: q.sort,
    since: since !== null,
    format: Boolean(q.format),
    topic: Boolean(q.topic),
    words: patterns.length,
    broken: q.broken === true,
    cursor: cursor.length > 0,
  };
  const values: Record<string, unknown> = { viewer: viewerId, since, format: q.format, topic: q.topic };
  patterns.forEach((p, i) => (values[`word${i}`] = p));
  cursor.forEach((c, i) => (values[`key${i}`] = c));
  return { shape, values };
}

/** The query of one feed page (one row more than a page, to learn whether there is more). */
function buildFeedQuery(db: Q, shape: FeedShape, v: Record<string, unknown>) {
  const { keys, direction } = SORTS[shape.sort];
  const viewerId = v.viewer as string;
  let query = linkCards(db, viewerId, viewerId).where('links.user_id', '=', viewerId);
  if (shape.broken) query = query.where('links.broken_at', 'is not', null);
  else if (shape.scope === 'mine') query = query.where('links.in_main_feed', '=', 1);
  else query = query.where('links.original_post_id', 'is not', null);
  if (shape.since) query = query.where('links.created_at', '>=', v.since as string);
  if (shape.format) query = query.where('links.format', '=', v.format as FormatId);
  if (shape.topic) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('link_topics')
          .select('link_topics.link_id')
          .whereRef('link_topics.link_id', '=', 'links.id')
          .where('link_topics.topic_id', '=', v.topic as string),
      ),
    );
  }
  // Search among the viewer's own links (the 'Add New Resource' dialog): every word in the title or description.
  for (let i = 0; i < shape.words; i++) {
    const pattern = v[`word${i}`];
    query = query.where(
      sql<boolean>`(lower(links.title) like ${pattern} escape '\\' or lower(links.description) like ${pattern} escape '\\')`,
    );
  }
  if (shape.cursor) {
    // Row-value comparison: one range bound on the index, unlike `a < ? or (a = ? and id < ?)`.
    const values = keys.map((_, i) => v[`key${i}`] as CursorValue);
    query = query.where(keysetAfter(keys.map((k) => `links.${k}`), direction, values));
  }
  for (const k of keys) query = query.orderBy(`links.${k}`, direction);
  // A literal LIMIT, as for resources: a prepared statement's generic plan then knows it reads a page.
  return query.limit(sql.lit(FEED_PAGE_SIZE + 1));
}

export function feedQuery(db: Q, viewerId: string, q: LinkListParams, at = Date.now()) {
  const { shape, values } = feedInput(viewerId, q, at);
  return buildFeedQuery(db, shape, values);
}

/** The feed query compiled once per shape (server/db/query-templates.ts). */
const feedTemplate = queryTemplate((db, args, key) => buildFeedQuery(db, JSON.parse(key) as FeedShape, args));

export async function listLinks(db: Db, viewer: Viewer, q: LinkListParams): Promise<Page<Link>> {
  const { shape, values } = feedInput(viewer.id, q, Date.now());
  const rows = await feedTemplate(db.kysely, values, JSON.stringify(shape));
  const hasMore = rows.length > FEED_PAGE_SIZE;
  const page = rows.slice(0, FEED_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    items: await toLinks(db.kysely, page, viewer),
    nextCursor: hasMore && last ? encodeCursor(q.sort, last) : null,
    hasMore,
  };
}
