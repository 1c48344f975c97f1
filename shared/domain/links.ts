import { z } from 'zod';
import { DEFAULT_LINK_TEXT, FORMATS, type FormatId } from './constants';
import { cleanText } from './text';
import { isHttpUrl } from './url';

export const LINK_MESSAGES = {
  invalidLinkData: 'Invalid link data',
  mustLogInToShare: 'Must be logged in to share links',
  mustLogInToLike: 'Must be logged in to like links',
  mustLogInToDelete: 'Must be logged in to delete links',
  onlyOwnLinksDeleted: 'You can only delete your own links',
  linkNotFound: 'Link not found',
  loadLinkFailed: 'Failed to load link details',
  fetchLinksFailed: 'Failed to fetch links',
  fetchMoreLinksFailed: 'Failed to fetch more links',
  loadLinksFailed: 'Failed to load links',
  shareLinkFailed: 'Failed to share link',
  previewFailed: 'Failed to fetch link preview',
  noPreview: 'No preview available',
  deleteConfirm: 'Are you sure you want to delete this link? This action cannot be undone.',
  linkCopied: 'Link copied to clipboard',
  copyFailed: 'Failed to copy link',
  // Not worded by the spec (decisions.md):
  onlyHttpUrls: 'Only http(s) links can be shared',
  previewRefused: 'This address cannot be previewed',
  cannotEditLink: 'You can only edit your own links or links in your supercurations',
  onlyAuthorPlacesLink: "Only the link's author can change its main feed setting or add it to other supercurations",
  cannotRepostOwn: 'You cannot repost your own link',
  alreadyReposted: 'You have already reposted this link',
  topicNameRequired: 'Topic name is required',
  topicExists: 'A topic with this name already exists',
  topicNotFound: 'Topic not found',
  invalidColor: 'Colour must be a hex colour like #2563eb',
  mustLogInToUpdate: 'Must be logged in to update links',
  mustLogInToRepost: 'Must be logged in to repost links',
  updateLinkFailed: 'Failed to update link',
  deleteLinkFailed: 'Failed to delete link',
  likeFailed: 'Failed to like link',
  repostFailed: 'Failed to repost link',
  uploadImageFailed: 'Failed to upload image',
  loadTopicsFailed: 'Failed to load topics',
  addTopicFailed: 'Failed to add topic',
  updateTopicFailed: 'Failed to update topic',
  deleteTopicFailed: 'Failed to delete topic',
  invalidCursor: 'Invalid page cursor',
  /** SPEC §8 (Supercurations), also given when a link is shared into a collection the user may not edit. */
  supercurationNotFound: 'Supercuration not found',
  /** Under "Don't add to main feed" when every chosen collection is private (issue 14). */
  staysPrivate: "This link stays private: only you and the collections' editors can see it.",
} as const;

/**
 * Issue 14, private by default where it is private: a link shared only into private collections
 * (at least one) stays out of the main feed unless its author asks otherwise, so nobody else
 * sees it. Preview & Share, the extension and batch sharing start from this.
 */
export function privateByDefault(collections: readonly { isPublic: boolean }[]): boolean {
  return collections.length > 0 && collections.every((c) => !c.isPublic);
}

/** SPEC §3: the author name shown when the user is missing. */
export const UNKNOWN_USER_NAME = 'Unknown User';

export const TITLE_MAX_LENGTH = 300;
export const DESCRIPTION_MAX_LENGTH = 5000;
export const LINK_TEXT_MAX_LENGTH = 50;
export const URL_MAX_LENGTH = 2048;
export const TOPIC_NAME_MAX_LENGTH = 50;
export const MAX_TOPICS_PER_LINK = 20;

/**
 * SPEC §5 URL normalisation: trim, drop leading @ and slashes, prefix https:// when there is no
 * scheme. Returns null unless the result is an http(s) URL (javascript:, data:, ftp: ... refused).
 */
export function normalizeUrl(raw: string): string | null {
  const trimmed = raw.trim().replace(/^[@/]+/, '');
  if (!trimmed) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/^[^:/]+:\d+(\/|$)/.test(trimmed)
    ? trimmed
    : `https://${trimmed}`;
  if (!isHttpUrl(withScheme)) return null;
  const url = new URL(withScheme);
  if (!url.hostname.includes('.') && url.hostname !== 'localhost') return null;
  return url.toString();
}

/** The topic id of SPEC §3: the lowercase name with runs of non-alphanumerics as one hyphen. */
export function topicIdOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export const FORMAT_IDS = FORMATS.map((f) => f.id) as [FormatId, ...FormatId[]];
export const formatSchema = z.enum(FORMAT_IDS);

const invalid = { error: LINK_MESSAGES.invalidLinkData };

/** An optional http(s) URL field: '' or null clears it; anything else must normalise. */
const optionalUrl = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    if (v === null || v.trim() === '') return null;
    const url = v.length <= URL_MAX_LENGTH ? normalizeUrl(v) : null;
    if (!url) {
      ctx.addIssue({ code: 'custom', message: LINK_MESSAGES.onlyHttpUrls });
      return z.NEVER;
    }
    return url;
  });

/** The path of an image uploaded to our server (POST /api/uploads/images answers one). */
export const UPLOADED_IMAGE_PATH = /^\/api\/uploads\/[a-z0-9/_-]+\.webp$/i;

/** A thumbnail is an http(s) URL or an image uploaded to our server (/api/uploads/...). */
export const thumbnailUrlField = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    if (v === null || v.trim() === '') return null;
    if (UPLOADED_IMAGE_PATH.test(v.trim())) return v.trim();
    const url = v.length <= URL_MAX_LENGTH ? normalizeUrl(v) : null;
    if (!url) {
      ctx.addIssue({ code: 'custom', message: LINK_MESSAGES.onlyHttpUrls });
      return z.NEVER;
    }
    return url;
  });

const fields = {
  url: optionalUrl,
  title: cleanText(invalid).min(1, LINK_MESSAGES.invalidLinkData).max(TITLE_MAX_LENGTH, invalid),
  description: cleanText(invalid, { multiline: true })
    .min(1, LINK_MESSAGES.invalidLinkData)
    .max(DESCRIPTION_MAX_LENGTH, invalid),
  thumbnailUrl: thumbnailUrlField,
  linkText: cleanText(invalid)
    .max(LINK_TEXT_MAX_LENGTH, invalid)
    .optional()
    .transform((v) => (v ? v : undefined)),
  format: formatSchema.nullable().optional(),
  topicIds: z.array(z.string(invalid).min(1).max(80), invalid).max(MAX_TOPICS_PER_LINK, invalid).optional(),
  isOriginalContent: z.boolean(invalid).optional(),
  /** Collections to add the new link to, in the same transaction (supercurations issue). */
  supercurationIds: z.array(z.string(invalid).min(1), invalid).max(50, invalid).optional(),
  /** false = "Don't add to main feed": the link shows only in its collections. */
  inMainFeed: z.boolean(invalid).optional(),
};

export const createLinkSchema = z.object(fields, invalid).transform((v) => ({
  ...v,
  linkText: v.linkText ?? DEFAULT_LINK_TEXT,
  topicIds: [...new Set(v.topicIds ?? [])],
}));
export type CreateLinkInput = z.input<typeof createLinkSchema>;
export type CreateLink = z.output<typeof createLinkSchema>;

/** Every field optional; a present field is validated as on creation. */
export const updateLinkSchema = z.object(fields, invalid).partial();
export type UpdateLinkInput = z.input<typeof updateLinkSchema>;
export type UpdateLink = z.output<typeof updateLinkSchema>;

export const TIME_WINDOWS = ['all', 'today', 'week', 'month'] as const;
export const LINK_SORTS = ['newest', 'oldest', 'most_liked'] as const;

export const linkListQuerySchema = z.object({
  /**
   * mine = 'Shared by me' (links I created, reposts included, except those shared with "Don't add
   * to main feed"), reposts = 'My Reposts' (links I created with original_post_id set).
   */
  scope: z.enum(['mine', 'reposts']).default('mine'),
  window: z.enum(TIME_WINDOWS).default('all'),
  format: formatSchema.optional(),
  topic: z.string().min(1).max(80).optional(),
  sort: z.enum(LINK_SORTS).default('newest'),
  /** Words that must all occur in the title or description (case-insensitive), e.g. 'Add New Resource'. */
  q: z
    .string()
    .max(200)
    .transform((v) => v.trim() || undefined)
    .optional(),
  cursor: z.string().max(500).optional(),
});
export type LinkListQuery = z.input<typeof linkListQuerySchema>;

export interface LinkAuthor {
  id: string;
  /** 'Unknown User' when the account is gone. */
  name: string;
  avatarUrl: string;
}

export interface Link {
  id: string;
  url: string | null;
  title: string;
  description: string;
  thumbnailUrl: string | null;
  linkText: string;
  format: FormatId | null;
  topicIds: string[];
  isOriginalContent: boolean;
  originalPostId: string | null;
  inMainFeed: boolean;
  likes: number;
  repostsCount: number;
  /** Whether the viewer likes it (false for visitors). */
  liked: boolean;
  createdAt: string;
  updatedAt: string;
  user: LinkAuthor;
  /** Collections the viewer may see that contain this link, with their tags (supercurations issue). */
  supercurationIds: string[];
  supercurationTags: Record<string, string[]>;
  /** What the viewer may do (computed by server/policies). */
  canEdit: boolean;
  canDelete: boolean;
}

export interface Page<T> {
  items: T[];
  /** Opaque keyset cursor for the next page; null when there is none. */
  nextCursor: string | null;
  hasMore: boolean;
}

export interface LikeState {
  liked: boolean;
  likes: number;
}

export interface LinkPreview {
  url: string;
  title: string;
  description: string;
  thumbnailUrl: string | null;
}

export interface Topic {
  id: string;
  name: string;
  color: string;
  createdAt: string;
}

export const HEX_COLOR = /^#[0-9a-f]{6}$/i;

export const topicInputSchema = z.object({
  name: cleanText({ error: LINK_MESSAGES.topicNameRequired })
    .min(1, LINK_MESSAGES.topicNameRequired)
    .max(TOPIC_NAME_MAX_LENGTH, `Topic names are at most ${TOPIC_NAME_MAX_LENGTH} characters`),
  color: z.string().regex(HEX_COLOR, LINK_MESSAGES.invalidColor).transform((c) => c.toLowerCase()),
});
export const topicUpdateSchema = topicInputSchema.partial();
export type TopicInput = z.input<typeof topicInputSchema>;
