import { z } from 'zod';
import {
  DESCRIPTION_MAX_LENGTH,
  FOCUS_CATEGORIES,
  type FocusCategory,
  HEX_COLOR,
  LINK_SORTS,
  MAX_TOPICS_PER_SUPERCURATION,
  SEARCH_QUERY_MAX_LENGTH,
  SLUG_MAX_LENGTH,
  SLUG_PATTERN,
  TAG_CATEGORY_NAME_MAX_LENGTH,
  TAG_NAME_MAX_LENGTH,
  TIME_WINDOWS,
  TITLE_MAX_LENGTH,
  URL_MAX_LENGTH,
} from './constants';
import { type LinkAuthor, brokenFilterSchema, createLinkSchema, formatSchema, thumbnailUrlField } from './links';
import { LINK_MESSAGES, SUPERCURATION_MESSAGES } from './messages';
import { emailSchema } from './schemas';
import { cleanText } from './text';

// ---------------------------------------------------------------------------------------------
// Inputs

const invalid = { error: SUPERCURATION_MESSAGES.invalidInput };

const title = cleanText({ error: SUPERCURATION_MESSAGES.titleRequired })
  .min(1, SUPERCURATION_MESSAGES.titleRequired)
  .max(TITLE_MAX_LENGTH, `Title must be at most ${TITLE_MAX_LENGTH} characters`);
const description = cleanText(invalid, { multiline: true }).max(DESCRIPTION_MAX_LENGTH, `Description must be at most ${DESCRIPTION_MAX_LENGTH} characters`);
/** A slug as typed: trimmed; '' or null means none. Validated against SLUG_PATTERN. */
const slug = z
  .union([z.string(invalid), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    const s = v === null ? '' : v.trim();
    if (s === '') return null;
    if (s.length > SLUG_MAX_LENGTH || !SLUG_PATTERN.test(s)) {
      ctx.addIssue({ code: 'custom', message: SUPERCURATION_MESSAGES.slugInvalid });
      return z.NEVER;
    }
    return s;
  });
const topics = z
  .array(z.string(invalid).min(1).max(80), invalid)
  .max(MAX_TOPICS_PER_SUPERCURATION, `At most ${MAX_TOPICS_PER_SUPERCURATION} topics`)
  .transform((ids) => [...new Set(ids)]);

const fields = {
  title,
  description: description.optional(),
  isPublic: z.boolean(invalid).optional(),
  /** Required when public; ignored (not stored) for private collections. */
  slug,
  /** The creator's topic ids. */
  topics: topics.optional(),
  thumbnailUrl: thumbnailUrlField,
};

/** SPEC §5 create form. Output: slug is null for private collections, a valid slug for public ones. */
export const createSupercurationSchema = z
  .object(fields, invalid)
  .transform((v, ctx) => {
    const isPublic = v.isPublic ?? false;
    if (isPublic && !v.slug) {
      ctx.addIssue({ code: 'custom', path: ['slug'], message: SUPERCURATION_MESSAGES.slugRequired });
      return z.NEVER;
    }
    return {
      title: v.title,
      description: v.description ?? '',
      isPublic,
      slug: isPublic ? (v.slug ?? null) : null,
      topics: v.topics ?? [],
      thumbnailUrl: v.thumbnailUrl ?? null,
    };
  });
export type CreateSupercurationInput = z.input<typeof createSupercurationSchema>;
export type CreateSupercuration = z.output<typeof createSupercurationSchema>;

/**
 * Every field optional. Making a collection private drops its slug (the URL is freed); making it
 * public needs a slug, given here or already stored. The server checks the combination.
 */
export const updateSupercurationSchema = z.object(fields, invalid).partial();
export type UpdateSupercurationInput = z.input<typeof updateSupercurationSchema>;
export type UpdateSupercuration = z.output<typeof updateSupercurationSchema>;

/** My Supercurations: own + collaborating (mine), or those plus others' public ones (all). */
export const supercurationListQuerySchema = z.object({
  scope: z.enum(['all', 'mine']).default('all'),
  topic: z.string().min(1).max(80).optional(),
  cursor: z.string().max(500).optional(),
});
export type SupercurationListQuery = z.input<typeof supercurationListQuerySchema>;

/** /directory: public collections only, newest first, 24 a page. */
export const directoryQuerySchema = z.object({
  q: z
    .string()
    .max(SEARCH_QUERY_MAX_LENGTH)
    .transform((v) => v.trim() || undefined)
    .optional(),
  focus: z.enum(FOCUS_CATEGORIES, { error: SUPERCURATION_MESSAGES.invalidFocus }).optional(),
  cursor: z.string().max(500).optional(),
});
export type DirectoryQuery = z.input<typeof directoryQuerySchema>;

/**
 * A collection's resources. tag = a tag name of the collection; window on the time the link was
 * added to the collection; newest/oldest by that time, most_liked by likes then that time.
 */
export const resourceListQuerySchema = z.object({
  tag: z.string().min(1).max(TAG_NAME_MAX_LENGTH).optional(),
  window: z.enum(TIME_WINDOWS).default('all'),
  format: formatSchema.optional(),
  sort: z.enum(LINK_SORTS).default('newest'),
  /** Only the broken links, for the collection's editors. */
  broken: brokenFilterSchema,
  cursor: z.string().max(500).optional(),
});
export type ResourceListQuery = z.input<typeof resourceListQuerySchema>;

/** Add New Resource: one of the viewer's saved links ({ linkId }), or a new link ({ link }), in one transaction. */
export const addResourceSchema = z
  .object(
    {
      linkId: z.string(invalid).min(1).max(100).optional(),
      link: createLinkSchema.optional(),
    },
    { error: LINK_MESSAGES.invalidLinkData },
  )
  .refine((v) => (v.linkId === undefined) !== (v.link === undefined), { error: LINK_MESSAGES.invalidLinkData });
export type AddResourceInput = { linkId: string } | { link: z.input<typeof createLinkSchema> };
export type AddResource = z.output<typeof addResourceSchema>;

const tagName = cleanText({ error: SUPERCURATION_MESSAGES.tagNameRequired })
  .min(1, SUPERCURATION_MESSAGES.tagNameRequired)
  .max(TAG_NAME_MAX_LENGTH, `Tag names are at most ${TAG_NAME_MAX_LENGTH} characters`);

/** Replaces a resource's tags in this collection; each must be a tag of one of its categories. */
export const setResourceTagsSchema = z.object(
  { tags: z.array(tagName, invalid).max(100, invalid).transform((t) => [...new Set(t)]) },
  invalid,
);
export type SetResourceTagsInput = z.input<typeof setResourceTagsSchema>;

export const updateTagCategorySchema = z.object(
  {
    name: cleanText({ error: SUPERCURATION_MESSAGES.categoryNameRequired })
      .min(1, SUPERCURATION_MESSAGES.categoryNameRequired)
      .max(TAG_CATEGORY_NAME_MAX_LENGTH, `Category names are at most ${TAG_CATEGORY_NAME_MAX_LENGTH} characters`)
      .optional(),
    color: z
      .string()
      .regex(HEX_COLOR, LINK_MESSAGES.invalidColor)
      .transform((c) => c.toLowerCase())
      .optional(),
  },
  invalid,
);
export type UpdateTagCategoryInput = z.input<typeof updateTagCategorySchema>;

export const tagInputSchema = z.object({ name: tagName }, { error: SUPERCURATION_MESSAGES.tagNameRequired });
export type TagInput = z.input<typeof tagInputSchema>;

export const collaboratorSearchQuerySchema = z.object({
  q: z.string().max(100).default('').transform((v) => v.trim()),
});
export const addCollaboratorSchema = z.object({ userId: z.string(invalid).min(1).max(100) }, invalid);

/** SPEC §5: the collection subscribe e-mail. */
export const emailSubscribeSchema = z.object(
  { email: emailSchema },
  { error: SUPERCURATION_MESSAGES.emailInvalid },
);
export type EmailSubscribeInput = z.input<typeof emailSubscribeSchema>;

// ---------------------------------------------------------------------------------------------
// Responses

/** A topic of the collection's owner (topics are per user), for chips on cards. */
export interface SupercurationTopic {
  id: string;
  name: string;
  color: string;
}

export interface SupercurationSummary {
  id: string;
  title: string;
  description: string;
  thumbnailUrl: string | null;
  /** Topic ids (the owner's topics). */
  topics: string[];
  /** The same topics with their owner's names and colours, in the order of `topics`. */
  topicDetails: SupercurationTopic[];
  /** Focus categories of the directory this collection is in (FOCUS_TOPIC_IDS). */
  focus: FocusCategory[];
  isPublic: boolean;
  /** Set only for public collections. */
  slug: string | null;
  createdAt: string;
  updatedAt: string;
  linksCount: number;
  /** Signed-in users who follow it (public collections; see SupercurationFollowState). */
  followersCount: number;
  /** Accounts on other servers (Mastodon and the fediverse) who follow it (issue 21). */
  fediverseFollowersCount: number;
  /** Whether the viewer follows it. */
  isFollowing: boolean;
  /** The owner (created_by). */
  user: LinkAuthor;
  /** Owner or collaborator: may edit, tag, add and remove resources, add collaborators. */
  canEdit: boolean;
  /** The owner: may also delete the collection and remove other collaborators. */
  isOwner: boolean;
}

export interface TagCategory {
  id: string;
  name: string;
  color: string;
  /** Tag names, unique within the category, alphabetical. */
  tags: string[];
}

export interface Collaborator {
  id: string;
  name: string;
  avatarUrl: string;
}

export type CollaboratorCandidate = Collaborator;

export interface Supercuration extends SupercurationSummary {
  tagCategories: TagCategory[];
  collaborators: Collaborator[];
}

/** The answer of following or unfollowing a collection. */
export interface SupercurationFollowState {
  isFollowing: boolean;
  followersCount: number;
}

/** A collection the viewer may add links to (own + collaborating), for 'Add to Supercurations'. */
export interface SupercurationChoice {
  id: string;
  title: string;
  isPublic: boolean;
  isOwner: boolean;
}

export interface EmailSubscribeResult {
  /** Always SUPERCURATION_MESSAGES.subscribeThanks; never tells whether the address was already there. */
  message: string;
}

/** The public page's collection: as Supercuration, with its fediverse handle when the server federates. */
export interface PublicSupercuration extends Supercuration {
  /** `@slug@host`, to follow it from Mastodon; null when this server does not federate (FEDERATION). */
  fediverseHandle: string | null;
}

/** A follower on another (fediverse) server: its actor URI, its server, since when. */
export interface FediverseFollower {
  actorUri: string;
  host: string;
  followedAt: string;
}

/** The dashboard's 'Fediverse followers': one of the owner's collections and its remote followers. */
export interface FediverseFollowerGroup {
  supercurationId: string;
  title: string;
  followers: FediverseFollower[];
}

/** The dashboard's 'Fediverse followers': the curator's own (their Person actor's), then their collections'. */
export interface FediverseFollowers {
  profile: FediverseFollower[];
  collections: FediverseFollowerGroup[];
}

/** Which follower to remove (its actor URI, as listed). */
export const fediverseFollowerQuerySchema = z.object({ actor: z.string(invalid).min(1, invalid).max(URL_MAX_LENGTH, invalid) }, invalid);

/** The dashboard's 'E-mail subscribers': one of the owner's collections and its confirmed addresses. */
export interface EmailSubscriberGroup {
  supercurationId: string;
  title: string;
  subscribers: { email: string; confirmedAt: string }[];
}
