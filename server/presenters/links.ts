import type { FormatId, Link } from '../../shared/domain';
import { canDeleteLink, canEditLink } from '../policies/links';
import { canSeeSupercuration } from '../policies/supercurations';
import type { Viewer } from '../policies/viewer';
import { factsOfRow } from '../services/link-facts';
import { topicIdsOf } from '../services/link-topics';
import type { LinkRow } from '../services/links';
import type { Membership } from '../services/memberships';
import { userCard } from './users';

/** A link as the viewer sees it, from its row and every collection containing it (membershipsOf). */
export function linkOf(r: LinkRow, collections: readonly Membership[], viewer: Viewer | null): Link {
  const visible = collections.filter((c) => canSeeSupercuration(viewer, c));
  return {
    id: r.id,
    url: r.url,
    title: r.title,
    description: r.description,
    thumbnailUrl: r.thumbnail_url,
    linkText: r.link_text,
    format: r.format as FormatId | null,
    topicIds: topicIdsOf(r.topic_ids),
    isOriginalContent: Number(r.is_original_content) === 1,
    originalPostId: r.original_post_id,
    inMainFeed: Number(r.in_main_feed) === 1,
    likes: r.likes_count,
    repostsCount: r.reposts_count,
    liked: Boolean(r.liked),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    user: userCard(r.user_id, r.author_name, r.author_avatar_key),
    supercurationIds: visible.map((c) => c.supercurationId),
    supercurationTags: Object.fromEntries(visible.map((c) => [c.supercurationId, c.tags])),
    broken: r.broken_at !== null,
    ...factsOfRow(r),
    canEdit: canEditLink(viewer, { userId: r.user_id }, [...collections]),
    canDelete: canDeleteLink(viewer, { userId: r.user_id }),
  };
}
