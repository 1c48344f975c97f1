import { gunzipSync } from 'node:zlib';
import type { AccountExport, ExportedReadableCopy } from '../../shared/domain';
import type { Db } from '../db';
import { factsOfRow } from './link-facts';
import { digestSettingsOf } from './reader-digests';
import { optedOut } from './readable-copies';

const iso = (value: string | Date) => new Date(value).toISOString();
const flag = (value: number | boolean) => Number(value) === 1;

function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return groups;
}

/**
 * "Export my data": everything the account holds, private links included, as one JSON
 * document. Read in one transaction, so the parts agree with each other.
 */
export async function exportAccount(db: Db, userId: string, at = new Date()): Promise<Omit<AccountExport, 'readableCopies'> | null> {
  return db.kysely.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('user')
      .leftJoin('profiles', 'profiles.user_id', 'user.id')
      .select(['user.id', 'user.name', 'user.email', 'user.emailVerified', 'user.createdAt', 'profiles.bio', 'profiles.location', 'profiles.website', 'profiles.fediverse_username'])
      .where('user.id', '=', userId)
      .executeTakeFirst();
    if (!user) return null;

    const topics = await trx.selectFrom('topics').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
    const topicName = new Map(topics.map((t) => [t.id, t.name]));

    const links = await trx.selectFrom('links').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
    const linkTopics = groupBy(
      await trx.selectFrom('link_topics').select(['link_id', 'topic_id']).where('user_id', '=', userId).execute(),
      (r) => r.link_id,
    );

    const collections = await trx
      .selectFrom('supercurations as s')
      .leftJoin('collaborators as c', (join) => join.onRef('c.supercuration_id', '=', 's.id').on('c.user_id', '=', userId))
      .selectAll('s')
      .select('c.user_id as collaborator')
      .where((eb) => eb.or([eb('s.user_id', '=', userId), eb('c.user_id', '=', userId)]))
      .orderBy('s.created_at')
      .orderBy('s.id')
      .execute();
    const ids = collections.map((c) => c.id);
    const none = ids.length === 0;
    const categories = none
      ? []
      : await trx.selectFrom('tag_categories').selectAll().where('supercuration_id', 'in', ids).orderBy('position').orderBy('id').execute();
    const tags = none
      ? []
      : await trx
          .selectFrom('tags')
          .innerJoin('tag_categories as tc', 'tc.id', 'tags.category_id')
          .select(['tags.id', 'tags.name', 'tags.category_id'])
          .where('tc.supercuration_id', 'in', ids)
          .orderBy('tags.name')
          .execute();
    const resources = none
      ? []
      : await trx
          .selectFrom('supercuration_links as sl')
          .innerJoin('links', 'links.id', 'sl.link_id')
          .select(['sl.supercuration_id', 'sl.link_id', 'sl.created_at', 'links.title', 'links.url'])
          .where('sl.supercuration_id', 'in', ids)
          .orderBy('sl.created_at')
          .orderBy('sl.link_id')
          .execute();
    const resourceTags = none
      ? []
      : await trx
          .selectFrom('supercuration_link_tags as slt')
          .innerJoin('tags', 'tags.id', 'slt.tag_id')
          .select(['slt.supercuration_id', 'slt.link_id', 'tags.name'])
          .where('slt.supercuration_id', 'in', ids)
          .orderBy('tags.name')
          .execute();
    // E-mail subscribers are the owner's to see (SPEC §1: publishers see and export them).
    const owned = collections.filter((c) => c.user_id === userId).map((c) => c.id);
    const subscribers =
      owned.length === 0
        ? []
        : await trx
            .selectFrom('email_subscribers')
            .select(['supercuration_id', 'email', 'confirmed_at', 'created_at'])
            .where('supercuration_id', 'in', owned)
            .orderBy('created_at')
            .execute();

    const likes = await trx
      .selectFrom('likes')
      .innerJoin('links', 'links.id', 'likes.link_id')
      .select(['likes.link_id', 'likes.created_at', 'links.title', 'links.url'])
      .where('likes.user_id', '=', userId)
      .orderBy('likes.created_at')
      .execute();
    const people = (column: 'subscriber_id' | 'publisher_id', other: 'subscriber_id' | 'publisher_id') =>
      trx
        .selectFrom('user_subscriptions as us')
        .innerJoin('user', 'user.id', `us.${other}`)
        .select(['user.id', 'user.name', 'us.created_at'])
        .where(`us.${column}`, '=', userId)
        .orderBy('us.created_at')
        .execute();
    const subscriptions = await people('subscriber_id', 'publisher_id');
    const followers = await people('publisher_id', 'subscriber_id');
    // Only those still public: a collection that turned private is no longer the follower's to see.
    const followedCollections = await trx
      .selectFrom('supercuration_followers as f')
      .innerJoin('supercurations as s', 's.id', 'f.supercuration_id')
      .select(['s.id', 's.title', 'f.created_at'])
      .where('f.user_id', '=', userId)
      .where('s.is_public', '=', 1)
      .orderBy('f.created_at')
      .execute();

    const digest = await trx.selectFrom('reader_digests').select('frequency').where('user_id', '=', userId).executeTakeFirst();

    const tagsOf = groupBy(tags, (t) => t.category_id);
    const categoriesOf = groupBy(categories, (c) => c.supercuration_id);
    const resourcesOf = groupBy(resources, (r) => r.supercuration_id);
    const resourceTagsOf = groupBy(resourceTags, (t) => `${t.supercuration_id} ${t.link_id}`);
    const subscribersOf = groupBy(subscribers, (s) => s.supercuration_id);
    return {
      exportedAt: at.toISOString(),
      profile: {
        id: user.id,
        name: user.name,
        email: user.email,
        emailVerified: flag(user.emailVerified),
        createdAt: iso(user.createdAt),
        bio: user.bio ?? null,
        location: user.location ?? null,
        website: user.website ?? null,
        fediverseUsername: user.fediverse_username ?? null,
      },
      topics: topics.map((t) => ({ id: t.id, name: t.name, color: t.color, createdAt: t.created_at })),
      links: links.map((l) => ({
        id: l.id,
        url: l.url,
        title: l.title,
        description: l.description,
        thumbnailUrl: l.thumbnail_url,
        buttonText: l.link_text,
        format: l.format,
        isOriginalContent: flag(l.is_original_content),
        inMainFeed: flag(l.in_main_feed),
        repostOf: l.original_post_id,
        topics: (linkTopics.get(l.id) ?? []).map((t) => topicName.get(t.topic_id) ?? t.topic_id),
        likes: Number(l.likes_count),
        createdAt: l.created_at,
        updatedAt: l.updated_at,
        ...factsOfRow(l),
      })),
      collections: collections.map((c) => ({
        id: c.id,
        title: c.title,
        description: c.description,
        thumbnailUrl: c.thumbnail_url,
        isPublic: flag(c.is_public),
        slug: c.slug,
        role: c.user_id === userId ? ('owner' as const) : ('collaborator' as const),
        createdAt: c.created_at,
        tagCategories: (categoriesOf.get(c.id) ?? []).map((k) => ({
          id: k.id,
          name: k.name,
          color: k.color,
          tags: (tagsOf.get(k.id) ?? []).map((t) => ({ id: t.id, name: t.name })),
        })),
        resources: (resourcesOf.get(c.id) ?? []).map((r) => ({
          linkId: r.link_id,
          title: r.title,
          url: r.url,
          addedAt: r.created_at,
          tags: (resourceTagsOf.get(`${c.id} ${r.link_id}`) ?? []).map((t) => t.name),
        })),
        emailSubscribers: (subscribersOf.get(c.id) ?? []).map((s) => ({ email: s.email, confirmedAt: s.confirmed_at, createdAt: s.created_at })),
      })),
      likes: likes.map((l) => ({ linkId: l.link_id, title: l.title, url: l.url, likedAt: l.created_at })),
      subscriptions: subscriptions.map((s) => ({ userId: s.id, name: s.name, since: s.created_at })),
      subscribers: followers.map((s) => ({ userId: s.id, name: s.name, since: s.created_at })),
      followedCollections: followedCollections.map((c) => ({ id: c.id, title: c.title, since: c.created_at })),
      digest: digestSettingsOf(digest),
      keepReadableCopies: !(await optedOut(trx, userId)),
    };
  });
}

const COPY_BATCH = 50;

/**
 * The readable copies of the user's links, a batch at a time (they may be large: the export
 * streams them after the rest of the document, so its memory stays bounded).
 */
export async function* exportReadableCopies(db: Db, userId: string): AsyncGenerator<ExportedReadableCopy> {
  let after = '';
  for (;;) {
    const rows = await db.kysely
      .selectFrom('link_copies as c')
      .innerJoin('links as l', 'l.id', 'c.link_id')
      .select(['c.link_id', 'c.captured_at', 'c.source', 'c.word_count', 'c.lang', 'c.html_gz'])
      .where('l.user_id', '=', userId)
      .where('c.html_gz', 'is not', null)
      .where('c.link_id', '>', after)
      .orderBy('c.link_id')
      .limit(COPY_BATCH)
      .execute();
    for (const r of rows) {
      yield {
        linkId: r.link_id,
        capturedAt: r.captured_at ?? '',
        source: r.source === 'extension' ? 'extension' : 'server',
        wordCount: Number(r.word_count ?? 0),
        lang: r.lang,
        html: gunzipSync(r.html_gz as Buffer).toString('utf8'),
      };
    }
    if (rows.length < COPY_BATCH) return;
    after = (rows[rows.length - 1] as { link_id: string }).link_id;
  }
}

/** supercurate-export-YYYY-MM-DD.json */
export const accountExportName = (at = new Date()) => `supercurate-export-${at.toISOString().slice(0, 10)}.json`;
