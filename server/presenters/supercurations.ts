import {
  type Supercuration,
  type SupercurationSummary,
  type SupercurationTopic,
  type TagCategory,
  focusCategoriesOf,
} from '../../shared/domain';
import { toAccess } from '../access/supercurations';
import { jsonRowsOf } from '../db/json-rows';
import { canEditSupercuration, isSupercurationOwner } from '../policies/supercurations';
import type { Viewer } from '../policies/viewer';
import type { DetailRow, SummaryRow } from '../services/supercurations';
import { userCard } from './users';

export function toSummaries(rows: SummaryRow[], viewer: Viewer | null): SupercurationSummary[] {
  return rows.map((r) => {
    const access = toAccess({ owner_id: r.user_id, ...r });
    // Sorted here (by creation, then id), not in SQL: no temporary B-tree per collection row.
    const topicDetails: SupercurationTopic[] = jsonRowsOf(r.topics_json)
      .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1))
      .map((t) => ({ id: t.id, name: t.name, color: t.color }));
    const topicIds = topicDetails.map((t) => t.id);
    return {
      id: r.id,
      title: r.title,
      description: r.description,
      thumbnailUrl: r.thumbnail_url,
      topics: topicIds,
      topicDetails,
      focus: focusCategoriesOf(topicIds),
      isPublic: access.isPublic,
      slug: access.isPublic ? r.slug : null,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      linksCount: r.links_count,
      followersCount: Number(r.followers_count),
      fediverseFollowersCount: Number(r.fediverse_followers_count),
      isFollowing: r.follower_id !== null,
      user: userCard(r.user_id, r.owner_name, r.owner_avatar_key),
      canEdit: canEditSupercuration(viewer, access),
      isOwner: isSupercurationOwner(viewer, access),
    };
  });
}

export function toDetail(row: DetailRow, viewer: Viewer | null): Supercuration {
  const [summary] = toSummaries([row], viewer);
  const tagCategories: TagCategory[] = [];
  for (const t of jsonRowsOf(row.tags_json)) {
    let category = tagCategories[tagCategories.length - 1];
    if (category?.id !== t.id) {
      category = { id: t.id, name: t.name, color: t.color, tags: [] };
      tagCategories.push(category);
    }
    if (t.tag !== null) category.tags.push(t.tag);
  }
  return {
    ...(summary as SupercurationSummary),
    tagCategories,
    collaborators: jsonRowsOf(row.collaborators_json).map((c) => userCard(c.id, c.name, c.avatar_key)),
  };
}
