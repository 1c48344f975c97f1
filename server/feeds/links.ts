import { FORMATS, paths, USER_FEED_SIZE } from '../../shared/domain';
import type { Db } from '../db';
import { linkVisibleTo } from '../policies/links';
import { type RssChannel, type RssItem, httpUrlOrNull } from './rss';

/** What an RSS item needs of a link. */
export interface FeedLink {
  id: string;
  url: string | null;
  title: string;
  description: string;
  format: string | null;
  created_at: string;
}

/**
 * A link as an RSS item: it points at the shared URL when that is http(s), else at our link page;
 * the guid is always our link page. Reusable for a collection's feed.
 */
export function linkFeedItem(publicUrl: string, link: FeedLink): RssItem {
  const page = `${publicUrl}${paths.link(link.id)}`;
  const format = FORMATS.find((f) => f.id === link.format);
  return {
    title: link.title,
    link: httpUrlOrNull(link.url) ?? page,
    guid: page,
    description: link.description,
    pubDate: link.created_at,
    categories: format ? [format.label] : [],
  };
}

/**
 * A curator's feed: the newest links they shared to the main feed (reposts included; links shared
 * with "Don't add to main feed" stay out, as in 'Shared by me'). Null for an unknown user.
 * One range scan of links_feed_created (migration 0002).
 */
export async function userFeed(db: Db, publicUrl: string, userId: string): Promise<RssChannel | null> {
  const user = await db.kysely.selectFrom('user').select(['id', 'name']).where('id', '=', userId).executeTakeFirst();
  if (!user) return null;
  const links = await db.kysely
    .selectFrom('links')
    .select(['id', 'url', 'title', 'description', 'format', 'created_at'])
    .where('user_id', '=', userId)
    .where('in_main_feed', '=', 1)
    // A repost of a link hidden from visitors stays out (canSeeLink), and so does a broken link.
    .where(linkVisibleTo(null))
    .where('broken_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(USER_FEED_SIZE)
    .execute();
  const name = user.name.trim() || 'A curator';
  return {
    title: `${name} on Supercurate`,
    link: `${publicUrl}${paths.profile(user.id)}`,
    selfUrl: `${publicUrl}${paths.userFeed(user.id)}`,
    description: `Links shared by ${name} on Supercurate.`,
    ttl: 60,
    items: links.map((l) => linkFeedItem(publicUrl, l)),
  };
}

/**
 * A public collection's feed: its 50 newest resources (by when they were added). Null when the
 * collection is private or missing: private collections have no feed.
 */
export async function collectionFeed(db: Db, publicUrl: string, slug: string): Promise<RssChannel | null> {
  const collection = await db.kysely
    .selectFrom('supercurations as s')
    .leftJoin('user as u', 'u.id', 's.user_id')
    .select(['s.id', 's.title', 's.description', 's.slug', 'u.name as owner_name'])
    .where('s.slug', '=', slug)
    .where('s.is_public', '=', 1)
    .executeTakeFirst();
  if (!collection) return null;
  const links = await db.kysely
    .selectFrom('supercuration_links as sl')
    .innerJoin('links', 'links.id', 'sl.link_id')
    .select(['links.id', 'links.url', 'links.title', 'links.description', 'links.format', 'sl.created_at'])
    .where('sl.supercuration_id', '=', collection.id)
    .where(linkVisibleTo(null))
    .where('links.broken_at', 'is', null)
    .orderBy('sl.created_at', 'desc')
    .orderBy('sl.link_id', 'desc')
    .limit(USER_FEED_SIZE)
    .execute();
  const curator = collection.owner_name?.trim();
  return {
    title: collection.title,
    link: `${publicUrl}${paths.publicSupercuration(slug)}`,
    selfUrl: `${publicUrl}${paths.collectionFeed(slug)}`,
    description: collection.description.trim() || `A supercuration${curator ? ` by ${curator}` : ''} on Supercurate.`,
    ttl: 60,
    items: links.map((l) => linkFeedItem(publicUrl, l)),
  };
}
