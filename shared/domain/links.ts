import { z } from 'zod';
import {
  DEFAULT_LINK_TEXT,
  DESCRIPTION_MAX_LENGTH,
  FORMAT_IDS,
  type FormatId,
  HEX_COLOR,
  LINK_SORTS,
  LINK_TEXT_MAX_LENGTH,
  MAX_TOPICS_PER_LINK,
  TIME_WINDOWS,
  TITLE_MAX_LENGTH,
  TOPIC_NAME_MAX_LENGTH,
  UPLOADED_IMAGE_PATH,
  URL_MAX_LENGTH,
} from './constants';
import { cleanText } from './text';
import { normalizeUrl } from './url';
import { readableUploadSchema } from './readable';
import { LINK_MESSAGES } from './messages';

/**
 * Private by default where it is private: a link shared only into private collections
 * (at least one) stays out of the main feed unless its author asks otherwise, so nobody else
 * sees it. Preview & Share, the extension and batch sharing start from this.
 */
export function privateByDefault(collections: readonly { isPublic: boolean }[]): boolean {
  return collections.length > 0 && collections.every((c) => !c.isPublic);
}

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

const withDefaults = <T extends { linkText?: string; topicIds?: string[] }>(v: T) => ({
  ...v,
  linkText: v.linkText ?? DEFAULT_LINK_TEXT,
  topicIds: [...new Set(v.topicIds ?? [])],
});
export const createLinkSchema = z.object(fields, invalid).transform(withDefaults);
export type CreateLinkInput = z.input<typeof createLinkSchema>;
export type CreateLink = z.output<typeof createLinkSchema>;

/** POST /api/links: a link, with the readable copy the extension made of the page as the user saw it. */
export const shareLinkSchema = z.object({ ...fields, readable: readableUploadSchema.optional() }, invalid).transform(withDefaults);
export type ShareLinkInput = z.input<typeof shareLinkSchema>;
export type ShareLink = z.output<typeof shareLinkSchema>;

/** Every field optional; a present field is validated as on creation. */
export const updateLinkSchema = z.object(fields, invalid).partial();
export type UpdateLinkInput = z.input<typeof updateLinkSchema>;
export type UpdateLink = z.output<typeof updateLinkSchema>;

/** ?broken=1: a list narrowed to broken links. */
export const brokenFilterSchema = z
  .enum(['1'])
  .transform(() => true)
  .optional();

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
  /** 'Broken links (n)': only the viewer's links the checker found broken, in either tab. */
  broken: brokenFilterSchema,
  cursor: z.string().max(500).optional(),
});
export type LinkListQuery = z.input<typeof linkListQuerySchema>;

export interface LinkAuthor {
  id: string;
  /** 'Unknown User' when the account is gone. */
  name: string;
  avatarUrl: string;
}

export interface Link extends LinkFacts {
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
  /** The link checker found it broken (shared/domain/link-health.ts). */
  broken: boolean;
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

/**
 * What a page says about itself beyond its preview (issue 19), read by the server from the page
 * (server/preview/metadata.ts) and stored with links to it; never taken from a client.
 */
export interface LinkFacts {
  /** og:site_name, application-name or the JSON-LD publisher: shown instead of the domain. */
  siteName: string | null;
  /** A raster icon or logo the site declares (absolute http(s)), shown beside the site's name. */
  faviconUrl: string | null;
  author: string | null;
  /** When the page says it was published: an ISO 8601 instant. */
  publishedAt: string | null;
  /** The page's language, a BCP 47 tag ('en', 'pt-BR'). */
  lang: string | null;
}

export const NO_LINK_FACTS: LinkFacts = { siteName: null, faviconUrl: null, author: null, publishedAt: null, lang: null };

export interface LinkPreview extends LinkFacts {
  url: string;
  title: string;
  description: string;
  thumbnailUrl: string | null;
  /** The format the page suggests (oEmbed video or podcast players, og:type video), or null. */
  format: FormatId | null;
}

export interface Topic {
  id: string;
  name: string;
  color: string;
  createdAt: string;
}

export const topicInputSchema = z.object({
  name: cleanText({ error: LINK_MESSAGES.topicNameRequired })
    .min(1, LINK_MESSAGES.topicNameRequired)
    .max(TOPIC_NAME_MAX_LENGTH, `Topic names are at most ${TOPIC_NAME_MAX_LENGTH} characters`),
  color: z.string().regex(HEX_COLOR, LINK_MESSAGES.invalidColor).transform((c) => c.toLowerCase()),
});
export const topicUpdateSchema = topicInputSchema.partial();
export type TopicInput = z.input<typeof topicInputSchema>;
