import { type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import { FEED_PAGE_SIZE, type FollowingItem, type FollowingKind, type Page, type followingQuerySchema } from '../../shared/domain';
import type { Db } from '../db';
import { type CursorValue, decodeKeyset, encodeKeyset } from '../db/keyset';
import { linkVisibleTo } from '../policies/links';
import type { Viewer } from '../policies/viewer';
import { userCard } from '../presenters/users';
import { windowStart } from './feed';
import { linkCards, toLinks } from './links';

export type FollowingParams = z.output<typeof followingQuerySchema>;

/**
 * The Following feed, fanned out on read (docs/decisions.md "Following feed"): the main-feed links
 * of the users the viewer subscribes to, and the additions to the public collections they follow,
 * merged newest first. Items are ordered by (at, key): a link's key is its id, an addition's is
 * `collection:link`, so the order is total and a cursor names one place in it.
 */

const ROWS = FEED_PAGE_SIZE + 1;
const CURSOR_TAG = 'following';

export interface Filters {
  viewer: string;
  since: string | null;
  /** Items no newer than this (the digest's period); null: up to now. */
  until: string | null;
  format: string | undefined;
  cursor: CursorValue[];
  /** Whether a file import's additions to a followed collection count (the digest leaves them out, like collection e-mails). */
  imports: boolean;
}

/** The conditions on a followed user's link `l` (or an addition's link) other than whose it is. */
function linkFilters(f: Filters, at: RawBuilder<string>, key: RawBuilder<string>): RawBuilder<boolean> {
  const parts: RawBuilder<boolean>[] = [sql`1 = 1`];
  if (f.since !== null) parts.push(sql`${at} >= ${f.since}`);
  if (f.until !== null) parts.push(sql`${at} <= ${f.until}`);
  if (f.format !== undefined) parts.push(sql`l.format = ${f.format}`);
  if (f.cursor.length > 0) parts.push(sql`(${at}, ${key}) < (${f.cursor[0]}, ${f.cursor[1]})`);
  return sql.join(parts, sql` and `) as RawBuilder<boolean>;
}

const linkAt = sql<string>`l.created_at`;
const linkKey = sql<string>`l.id`;
const addedAt = sql<string>`sl.created_at`;
const addedKey = sql<string>`sl.supercuration_id || ':' || sl.link_id`;

/** The time of a followed user's `offset`-th newest item (0: the newest) past the cursor: one index seek (links_feed_created). */
const userSeek = (f: Filters, offset: number) =>
  sql<string | null>`(select l.created_at from links l where l.user_id = s.publisher_id and l.in_main_feed = 1 and ${linkFilters(f, linkAt, linkKey)} order by l.created_at desc, l.id desc limit 1 offset ${sql.lit(offset)})`;

/** The same for a followed collection (supercuration_links_collection_created). */
const collectionSeek = (f: Filters, offset: number) =>
  sql<string | null>`(select sl.created_at from supercuration_links sl inner join links l on l.id = sl.link_id where sl.supercuration_id = c.id and ${linkFilters(f, addedAt, addedKey)} order by sl.created_at desc, sl.link_id desc limit 1 offset ${sql.lit(offset)})`;

/** The sources (followed users and public collections) whose items a page may hold. */
interface Sources {
  users: string[];
  collections: string[];
}

/** `column in (ids)`, or false for none (an empty `in ()` is not SQL). */
const among = (column: string, ids: readonly string[]) =>
  ids.length === 0 ? sql<boolean>`1 = 0` : sql<boolean>`${sql.ref(column)} in (${sql.join(ids)})`;

type SourceTime = { kind: 'user' | 'collection'; id: string; at: string | null };

/** The viewer's sources with the time of their `offset`-th newest item past the cursor (`only`: just these; a list left out: all). */
export function sourceTimes(f: Filters, offset: number, only: Partial<Sources> = {}) {
  const users = only.users ? sql` and ${among('s.publisher_id', only.users)}` : sql``;
  const collections = only.collections ? sql` and ${among('c.id', only.collections)}` : sql``;
  return sql<SourceTime>`
    select 'user' as kind, s.publisher_id as id, ${userSeek(f, offset)} as at
      from user_subscriptions s where s.subscriber_id = ${f.viewer}${users}
    union all
    select 'collection', c.id, ${collectionSeek(f, offset)}
      from supercuration_followers fo inner join supercurations c on c.id = fo.supercuration_id
      where fo.user_id = ${f.viewer} and c.is_public = 1${collections}`;
}

/** Links of the whole site read newest first before falling back to a seek per followed user. */
const WALK = 400;

/**
 * The newest ROWS items of followed users the viewer may see, when they are among the WALK newest
 * links under the cursor (a walk of links_created, a few hundred rows); null when they are not
 * (the followed users publish a small share of the site's links), and the seeks take over.
 */
async function walkUsers(db: Db, f: Filters): Promise<SourceTime[] | null> {
  const { rows } = await walkQuery(f).execute(db.kysely);
  return rows.length === ROWS ? rows : null;
}

/** walkUsers' query: the format is kept out of the walked range, so a rare one can't make it read far. */
export function walkQuery(f: Filters) {
  const format = f.format === undefined ? sql`` : sql` and l.format = ${f.format}`;
  return sql<SourceTime>`
    select 'user' as kind, l.user_id as id, l.created_at as at from (
      select w.id, w.user_id, w.created_at, w.in_main_feed, w.original_post_id, w.format from links w
      where ${linkFilters({ ...f, format: undefined }, sql`w.created_at`, sql`w.id`)}
      order by w.created_at desc, w.id desc limit ${sql.lit(WALK)}
    ) l
    where l.in_main_feed = 1${format}
      and exists (select 1 from user_subscriptions s where s.subscriber_id = ${f.viewer} and s.publisher_id = l.user_id)
      and ${linkVisibleTo(f.viewer, 'l')}
    order by l.created_at desc, l.id desc limit ${sql.lit(ROWS)}`;
}

/**
 * Where a page can come from, and a lower bound of its oldest time (the floor; '' for none): the
 * page's ROWS items are all at least as new as the ROWS-th newest of any ROWS items, here the
 * followed users' newest ones (walked, or one index seek per user) and each collection's newest,
 * so only the sources with an item that new can hold them; and they are at least as new as any
 * one source's ROWS-th newest item (a few more seeks). The page query then reads a short index
 * range of a few sources, not every item of every source (docs/decisions.md "Following feed").
 */
async function pageSources(db: Db, f: Filters): Promise<{ sources: Sources; floor: string }> {
  const walked = await walkUsers(db, f);
  const { rows } = await sourceTimes(f, 0, walked ? { users: [] } : {}).execute(db.kysely);
  const newest = [...(walked ?? []), ...rows]
    .filter((r) => r.at !== null)
    .sort((a, b) => ((a.at ?? '') < (b.at ?? '') ? 1 : -1));
  const atLeast = newest[ROWS - 1]?.at ?? '';
  const active = newest.filter((r) => (r.at ?? '') >= atLeast);
  const sources: Sources = {
    users: [...new Set(active.filter((r) => r.kind === 'user').map((r) => r.id))],
    collections: active.filter((r) => r.kind === 'collection').map((r) => r.id),
  };
  // A walked user's items from the floor up are all among the walked ones: no seek needed.
  const deepen = walked ? { users: [], collections: sources.collections } : sources;
  if (deepen.users.length + deepen.collections.length === 0) return { sources, floor: atLeast };
  const deep = await sourceTimes(f, ROWS - 1, deepen).execute(db.kysely);
  const floor = deep.rows.reduce((max, r) => (r.at !== null && r.at > max ? r.at : max), atLeast);
  return { sources, floor };
}

export interface ItemRow {
  kind: FollowingKind;
  at: string;
  key: string;
  link_id: string;
  actor_id: string;
  actor_name: string | null;
  actor_avatar_key: string | null;
  supercuration_id: string | null;
  supercuration_title: string | null;
  supercuration_slug: string | null;
  /** With `total`: how many items there are in all, beyond the limit too. */
  total?: number | string;
}

interface ItemQuery {
  /** Only these sources' items; null: every followed user and public collection. */
  sources: Sources | null;
  /** Items no older than this ('' for none). */
  floor: string;
  limit: number;
  /** Count every matching item into each row's `total` (the digest's "and n more"). */
  total?: boolean;
}

/**
 * The newest items (`limit` at most) no older than `floor`: each source's rows are an index range.
 * Only what the viewer may see: public collections (checked now, so one turned private is gone at
 * once) and links by the visibility rule (a repost of a link turned private is left out).
 */
export async function followedItems(db: Db, f: Filters, { sources, floor, limit, total }: ItemQuery): Promise<ItemRow[]> {
  const visible = linkVisibleTo(f.viewer, 'l');
  const users = sources ? sql` and ${among('s.publisher_id', sources.users)}` : sql``;
  const collections = sources ? sql` and ${among('c.id', sources.collections)}` : sql``;
  const imports = f.imports ? sql`` : sql` and sl.imported = 0`;
  const { rows } = await sql<ItemRow>`
    select i.*, u.name as actor_name, p.avatar_key as actor_avatar_key,
           sc.title as supercuration_title, sc.slug as supercuration_slug
    from (
      select *${total ? sql`, count(*) over () as total` : sql``} from (
        select case when l.original_post_id is null then 'shared' else 'reposted' end as kind,
               l.created_at as at, l.id as key, l.id as link_id, l.user_id as actor_id, null as supercuration_id
          from user_subscriptions s inner join links l on l.user_id = s.publisher_id and l.in_main_feed = 1
          where s.subscriber_id = ${f.viewer}${users} and l.created_at >= ${floor} and ${linkFilters(f, linkAt, linkKey)} and ${visible}
        union all
        select 'added', sl.created_at, ${addedKey}, sl.link_id, coalesce(sl.added_by, l.user_id), sl.supercuration_id
          from supercuration_followers fo
          inner join supercurations c on c.id = fo.supercuration_id
          inner join supercuration_links sl on sl.supercuration_id = c.id
          inner join links l on l.id = sl.link_id
          where fo.user_id = ${f.viewer}${collections} and c.is_public = 1 and sl.created_at >= ${floor}${imports}
            and ${linkFilters(f, addedAt, addedKey)} and ${visible}
      ) merged order by at desc, key desc limit ${sql.lit(limit)}
    ) i
    left join "user" u on u.id = i.actor_id
    left join profiles p on p.user_id = i.actor_id
    left join supercurations sc on sc.id = i.supercuration_id
    order by i.at desc, i.key desc`.execute(db.kysely);
  return rows;
}

/** A request's filters; a cursor that is not one of this feed's is 400 'Invalid page cursor'. */
export function followingFilters(viewerId: string, q: FollowingParams): Filters {
  return {
    viewer: viewerId,
    since: windowStart(q.window),
    until: null,
    format: q.format,
    cursor: q.cursor ? decodeKeyset(CURSOR_TAG, ['string', 'string'], q.cursor) : [],
    imports: true,
  };
}

export async function listFollowing(db: Db, viewer: Viewer, q: FollowingParams): Promise<Page<FollowingItem>> {
  const f = followingFilters(viewer.id, q);
  const { sources, floor } = await pageSources(db, f);
  const rows = await followedItems(db, f, { sources, floor, limit: ROWS });
  const page = rows.slice(0, FEED_PAGE_SIZE);
  const ids = [...new Set(page.map((r) => r.link_id))];
  const links = ids.length === 0 ? [] : await toLinks(db.kysely, await linkCards(db.kysely, viewer.id).where('links.id', 'in', ids).execute(), viewer);
  const byId = new Map(links.map((l) => [l.id, l]));
  const items = page.flatMap((r): FollowingItem[] => {
    const link = byId.get(r.link_id);
    if (!link) return [];
    const supercuration = r.supercuration_id
      ? { id: r.supercuration_id, title: r.supercuration_title ?? '', slug: r.supercuration_slug }
      : null;
    return [{ kind: r.kind, at: r.at, actor: userCard(r.actor_id, r.actor_name, r.actor_avatar_key), supercuration, link }];
  });
  const last = page[page.length - 1];
  if (rows.length > FEED_PAGE_SIZE && last) {
    return { items, nextCursor: encodeKeyset(CURSOR_TAG, [last.at, last.key]), hasMore: true };
  }
  // A short page above a floor: rows the visibility rule hid were counted in the floor, so older
  // items may remain. They all lie below it ('' sorts before every key).
  return floor === '' ? { items, nextCursor: null, hasMore: false } : { items, nextCursor: encodeKeyset(CURSOR_TAG, [floor, '']), hasMore: true };
}
