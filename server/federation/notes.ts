import { Announce, Create, Document, Hashtag, Note, PUBLIC_COLLECTION } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import type { Kysely } from 'kysely';
import { absoluteImageUrl, paths } from '../../shared/domain';
import { keysetAfter } from '../db/keyset';
import type { Database } from '../db/schema';
import { escapeHtml } from '../mail/render';
import { linkVisibleTo } from '../policies/links';
import { isFederatedCollection } from '../policies/supercurations';
import type { StoredTopic } from '../services/collection-topics';

/**
 * A public collection's resources as ActivityPub Notes, the way Mastodon shows a link post: the
 * title as a link to the page, the description, the resource's tags in the collection and the
 * collection's topics as hashtags,
 * and the thumbnail as an image attachment described by the title. A resource is a Note of the
 * collection (the same link in two collections is two Notes, one per actor), at
 * /ap/notes/{collection id}/{link id}.
 */

export interface ResourceRow {
  supercuration_id: string;
  slug: string;
  link_id: string;
  url: string | null;
  title: string;
  description: string;
  thumbnail_url: string | null;
  added_at: string;
  /** The resource's tags in the collection, then the collection's topics. */
  tags: string[];
}

export const NOTES_PATH = '/ap/notes/{collection}/{link}';
export const noteUri = (publicUrl: string, supercurationId: string, linkId: string) =>
  new URL(`/ap/notes/${encodeURIComponent(supercurationId)}/${encodeURIComponent(linkId)}`, publicUrl);

/** Whose resources: one public collection's, or those of all a curator's public collections. */
export type ResourceScope = { supercurationId: string } | { ownerId: string };

/** A page's keyset: [added_at, link id, collection id], newest first. */
export type ResourceKeyset = [string, string, string];

/**
 * The resources of public collections as visitors see them on their pages: these links, or a page
 * of the newest before `before`.
 */
export async function resourceRows(
  db: Kysely<Database>,
  scope: ResourceScope,
  which: { linkIds: readonly string[] } | { before: ResourceKeyset | null; limit: number },
): Promise<ResourceRow[]> {
  let q = db
    .selectFrom('supercuration_links as sl')
    .innerJoin('supercurations as s', 's.id', 'sl.supercuration_id')
    .innerJoin('links as l', 'l.id', 'sl.link_id')
    .select(['sl.supercuration_id', 's.slug', 's.is_public', 's.topics_json', 'l.id as link_id', 'l.url', 'l.title', 'l.description', 'l.thumbnail_url', 'sl.created_at as added_at'])
    .where(linkVisibleTo(null, 'l'))
    .orderBy('sl.created_at', 'desc')
    .orderBy('sl.link_id', 'desc')
    .orderBy('sl.supercuration_id', 'desc');
  q = 'supercurationId' in scope ? q.where('sl.supercuration_id', '=', scope.supercurationId) : q.where('s.user_id', '=', scope.ownerId).where('s.is_public', '=', 1);
  if ('linkIds' in which) {
    if (which.linkIds.length === 0) return [];
    q = q.where('sl.link_id', 'in', [...which.linkIds]);
  } else {
    const { before } = which;
    if (before) q = q.where(keysetAfter(['sl.created_at', 'sl.link_id', 'sl.supercuration_id'], 'desc', before));
    q = q.limit(which.limit);
  }
  const rows = (await q.execute()).filter((r) => r.slug && isFederatedCollection({ isPublic: r.is_public === 1 }));
  if (rows.length === 0) return [];
  const tags = await db
    .selectFrom('supercuration_link_tags as slt')
    .innerJoin('tags as t', 't.id', 'slt.tag_id')
    .select(['slt.supercuration_id', 'slt.link_id', 't.name'])
    .where('slt.supercuration_id', 'in', [...new Set(rows.map((r) => r.supercuration_id))])
    .where(
      'slt.link_id',
      'in',
      rows.map((r) => r.link_id),
    )
    .orderBy('t.name')
    .execute();
  return rows.map((r) => ({
    supercuration_id: r.supercuration_id,
    slug: r.slug as string,
    link_id: r.link_id,
    url: r.url,
    title: r.title,
    description: r.description,
    thumbnail_url: r.thumbnail_url,
    added_at: r.added_at,
    tags: [
      ...new Set([...tags.filter((t) => t.link_id === r.link_id && t.supercuration_id === r.supercuration_id).map((t) => t.name), ...topicNames(r.topics_json)]),
    ],
  }));
}

const topicNames = (json: string) => (JSON.parse(json) as StoredTopic[]).map((t) => t.name);

/** A tag as a hashtag: its words joined, capitalised (Mastodon's hashtags are letters, digits and _). */
export function hashtagOf(tag: string): string | null {
  const words = tag.split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  if (words.length === 0) return null;
  return words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
}

export function resourceNote(publicUrl: string, actorUri: URL, r: ResourceRow): Note {
  const page = new URL(paths.publicSupercuration(r.slug), publicUrl);
  const linkPage = new URL(paths.link(r.link_id), publicUrl);
  // The resource itself first: Mastodon makes its preview card of the first link of the content.
  const target = r.url ?? linkPage.href;
  const hashtags = r.tags.flatMap((t) => {
    const name = hashtagOf(t);
    return name ? [name] : [];
  });
  const content = [
    `<p><a href="${escapeHtml(target)}">${escapeHtml(r.title || target)}</a></p>`,
    r.description ? `<p>${escapeHtml(r.description)}</p>` : '',
    hashtags.length > 0
      ? `<p>${hashtags.map((h) => `<a href="${escapeHtml(page.href)}" class="mention hashtag" rel="tag">#<span>${escapeHtml(h)}</span></a>`).join(' ')}</p>`
      : '',
  ].join('');
  const image = absoluteImageUrl(publicUrl, r.thumbnail_url);
  return new Note({
    id: noteUri(publicUrl, r.supercuration_id, r.link_id),
    attribution: actorUri,
    content,
    url: linkPage,
    published: Temporal.Instant.from(r.added_at),
    to: PUBLIC_COLLECTION,
    cc: new URL(`${actorUri.href}/followers`),
    attachments: image ? [new Document({ url: new URL(image), mediaType: imageType(image), name: r.title || null })] : [],
    tags: hashtags.map((h) => new Hashtag({ href: page, name: `#${h}` })),
  });
}

/** The Create that announces a resource, with an id of its own each time it is added. */
export function resourceCreate(publicUrl: string, actorUri: URL, r: ResourceRow): Create {
  const note = resourceNote(publicUrl, actorUri, r);
  return new Create({
    id: new URL(`#create-${Date.parse(r.added_at)}`, note.id ?? actorUri),
    actor: actorUri,
    object: note,
    to: PUBLIC_COLLECTION,
    cc: new URL(`${actorUri.href}/followers`),
    published: note.published,
  });
}

/** Our uploads are WebP; another site's image is left for the receiver to sniff. */
const imageType = (url: string) => (/\.webp$/i.test(new URL(url).pathname) ? 'image/webp' : null);

/** A curator's Person announcing (boosting) a Note of one of their collections, with an id of its own each time. */
export function resourceAnnounce(actorUri: URL, note: Note, stamp: number): Announce {
  return new Announce({
    id: new URL(`#announce-${stamp}`, note.id ?? actorUri),
    actor: actorUri,
    object: note,
    to: PUBLIC_COLLECTION,
    cc: new URL(`${actorUri.href}/followers`),
    published: Temporal.Instant.fromEpochMilliseconds(stamp),
  });
}
