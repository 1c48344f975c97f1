import { type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import { FEED_PAGE_SIZE, type FollowingItem, type FollowingKind, type Page, type followingQuerySchema } from '../../shared/domain';
import type { Db } from '../db';
import { type CursorValue, decodeKeyset, encodeKeyset } from '../db/keyset';
import { linkVisibleTo } from '../policies/links';
import type { Viewer } from '../policies/viewer';
import { userCard } from '../presenters/users';
import { windowStart } from './feed';
import { linkRows, toLinks } from './links';

export type FollowingParams = z.output<typeof followingQuerySchema>;

/**
 * The Following feed, fanned out on read (docs/decisions.md "Following feed"): the main-feed links
 * of the users the viewer subscribes to, and the additions to the public collections they follow,
 * merged newest first. Items are ordered by (at, key): a link's key is its id, an addition's is
 * `collection:link`, so the order is total and a cursor names one place in it.
 */

const ROWS = FEED_PAGE_SIZE + 1;
const CURSOR_TAG = 'following';

interface Filters {
  viewer: string;
  since: string | null;
  format: string | undefined;
  cursor: CursorValue[];
}

/** The conditions on a followed user's link `l` (or an addition's link) other than whose it is. */
function linkFilters(f: Filters, at: RawBuilder<string>, key: RawBuilder<string>): RawBuilder<boolean> {
  const parts: RawBuilder<boolean>[] = [sql`1 = 1`];
  if (f.since !== null) parts.push(sql`${at} >= ${f.since}`);
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

/** The viewer's sources with the time of their `offset`-th newest item past the cursor (`only`: just these sources). */
function sourceTimes(f: Filters, offset: number, only?: Sources) {
  return sql<{ kind: 'user' | 'collection'; id: string; at: string | null }>`
    select 'user' as kind, s.publisher_id as id, ${userSeek(f, offset)} as at
      from user_subscriptions s where s.subscriber_id = ${f.viewer}${only ? sql` and ${among('s.publisher_id', only.users)}` : sql``}
    union all
    select 'collection', c.id, ${collectionSeek(f, offset)}
      from supercuration_followers fo inner join supercurations c on c.id = fo.supercuration_id
      where fo.user_id = ${f.viewer} and c.is_public = 1${only ? sql` and ${among('c.id', only.collections)}` : sql``}`;
}

/**
 * Where a page can come from, and a lower bound of its oldest time (the floor; '' for none), in two
 * index seeks per source and a few more: the page's ROWS items are all at least as new as the
 * ROWS-th newest of the sources' newest items, so only the sources whose newest item is that new
 * can hold them; and they are at least as new as any one source's ROWS-th newest item. The page
 * query then reads a short index range of a few sources, not every item of every source.
 */
async function pageSources(db: Db, f: Filters): Promise<{ sources: Sources; floor: string }> {
  const { rows } = await sourceTimes(f, 0).execute(db.kysely);
  const newest = rows.filter((r) => r.at !== null).sort((a, b) => ((a.at ?? '') < (b.at ?? '') ? 1 : -1));
  const atLeast = newest[ROWS - 1]?.at ?? '';
  const active = newest.filter((r) => (r.at ?? '') >= atLeast);
  const sources: Sources = {
    users: active.filter((r) => r.kind === 'user').map((r) => r.id),
    collections: active.filter((r) => r.kind === 'collection').map((r) => r.id),
  };
  if (active.length === 0) return { sources, floor: '' };
  const deep = await sourceTimes(f, ROWS - 1, sources).execute(db.kysely);
  const floor = deep.rows.reduce((max, r) => (r.at !== null && r.at > max ? r.at : max), atLeast);
  return { sources, floor };
}

interface ItemRow {
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
}

/**
 * One page of items (ROWS at most) no older than `floor`: each source's rows are an index range.
 * Only what the viewer may see: public collections (checked now, so one turned private is gone at
 * once) and links by the visibility rule (a repost of a link turned private is left out).
 */
async function pageItems(db: Db, f: Filters, { users, collections }: Sources, floor: string): Promise<ItemRow[]> {
  const visible = linkVisibleTo(f.viewer, 'l');
  const { rows } = await sql<ItemRow>`
    select i.*, u.name as actor_name, p.avatar_key as actor_avatar_key,
           sc.title as supercuration_title, sc.slug as supercuration_slug
    from (
      select * from (
        select case when l.original_post_id is null then 'shared' else 'reposted' end as kind,
               l.created_at as at, l.id as key, l.id as link_id, l.user_id as actor_id, null as supercuration_id
          from user_subscriptions s inner join links l on l.user_id = s.publisher_id and l.in_main_feed = 1
          where s.subscriber_id = ${f.viewer} and ${among('s.publisher_id', users)} and l.created_at >= ${floor} and ${linkFilters(f, linkAt, linkKey)} and ${visible}
        union all
        select 'added', sl.created_at, ${addedKey}, sl.link_id, coalesce(sl.added_by, l.user_id), sl.supercuration_id
          from supercuration_followers fo
          inner join supercurations c on c.id = fo.supercuration_id
          inner join supercuration_links sl on sl.supercuration_id = c.id
          inner join links l on l.id = sl.link_id
          where fo.user_id = ${f.viewer} and ${among('c.id', collections)} and c.is_public = 1 and sl.created_at >= ${floor}
            and ${linkFilters(f, addedAt, addedKey)} and ${visible}
      ) merged order by at desc, key desc limit ${sql.lit(ROWS)}
    ) i
    left join "user" u on u.id = i.actor_id
    left join profiles p on p.user_id = i.actor_id
    left join supercurations sc on sc.id = i.supercuration_id
    order by i.at desc, i.key desc`.execute(db.kysely);
  return rows;
}

export async function listFollowing(db: Db, viewer: Viewer, q: FollowingParams): Promise<Page<FollowingItem>> {
  const f: Filters = {
    viewer: viewer.id,
    since: windowStart(q.window),
    format: q.format,
    cursor: q.cursor ? decodeKeyset(CURSOR_TAG, ['string', 'string'], q.cursor) : [],
  };
  const { sources, floor } = await pageSources(db, f);
  const rows = await pageItems(db, f, sources, floor);
  const page = rows.slice(0, FEED_PAGE_SIZE);
  const ids = [...new Set(page.map((r) => r.link_id))];
  const links = ids.length === 0 ? [] : await toLinks(db.kysely, await linkRows(db.kysely, viewer.id).where('links.id', 'in', ids).execute(), viewer);
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
