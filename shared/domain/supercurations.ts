import { z } from 'zod';
import { FOCUS_CATEGORIES, type FocusCategory } from './constants';
import {
  DESCRIPTION_MAX_LENGTH,
  HEX_COLOR,
  LINK_SORTS,
  LINK_MESSAGES,
  type LinkAuthor,
  TIME_WINDOWS,
  TITLE_MAX_LENGTH,
  createLinkSchema,
  formatSchema,
  thumbnailUrlField,
  topicIdOf,
} from './links';
import { MSG } from './messages';
import { emailSchema } from './schemas';
import { cleanText } from './text';

/** User-facing texts of SPEC §8 (Supercurations, Resources, Collaborators) verbatim, then our own. */
export const SUPERCURATION_MESSAGES = {
  // SPEC §8 Supercurations
  fetchFailed: 'Failed to fetch supercurations',
  mustLogInToCreate: 'Must be logged in to create supercurations',
  mustLogInToUpdate: 'Must be logged in to update supercurations',
  mustLogInToRemove: 'Must be logged in to remove supercurations',
  titleRequired: 'Title is required',
  createFailed: 'Failed to create supercuration',
  notFound: 'Supercuration not found',
  loadFailed: 'Failed to load supercuration',
  isPrivate: 'This supercuration is private',
  /** What the public page shows (and its API answers) for a missing or private collection. */
  publicNotFound: "This supercuration doesn't exist or is private",
  // SPEC §5
  slugInvalid: 'Only lowercase letters, numbers, and hyphens are allowed',
  emailInvalid: MSG.emailInvalid,
  // SPEC §8 Resources
  resourceUpdated: 'Resource updated successfully',
  updateResourceFailed: 'Failed to update resource',
  duplicateLink: 'This link has already been added to this supercuration',
  addResourceFailed: 'Failed to add resource',
  removeResourceFailed: 'Failed to remove resource',
  linkNotFound: LINK_MESSAGES.linkNotFound,
  // SPEC §8 Collaborators ('Added {name} as collaborator': see addedCollaborator())
  addCollaboratorFailed: 'Failed to add collaborator',
  removedCollaborator: 'Removed collaborator',
  removeCollaboratorFailed: 'Failed to remove collaborator',
  // SPEC §2 / §4 screen texts
  subscribeThanks: "Thanks for subscribing! You'll receive updates when new resources are added.",
  noneFound: 'No supercurations found',
  noPublic: 'No public supercurations yet',
  newCategoryName: 'New Category',
  removeResourceTitle: 'Remove Resource',
  // Not worded by the spec (docs/decisions.md):
  slugRequired: 'A URL is required for public supercurations',
  slugTaken: 'This URL is already taken',
  cannotEdit: 'Only the owner and collaborators can edit this supercuration',
  ownerOnlyDelete: 'Only the owner can delete this supercuration',
  ownerOnlyRemoveCollaborator: 'Only the owner can remove other collaborators',
  ownerOnlyTopics: 'Only the owner can change the topics of this supercuration',
  updateFailed: 'Failed to update supercuration',
  deleteFailed: 'Failed to delete supercuration',
  addTagCategoryFailed: 'Failed to add tag category',
  updateTagCategoryFailed: 'Failed to update tag category',
  deleteTagCategoryFailed: 'Failed to delete tag category',
  addTagFailed: 'Failed to add tag',
  removeTagFailed: 'Failed to remove tag',
  searchUsersFailed: 'Failed to search users',
  categoryNameRequired: 'Category name is required',
  categoryNotFound: 'Tag category not found',
  tagNameRequired: 'Tag name is required',
  tagExists: 'This tag already exists in this category',
  tagNotFound: 'Tag not found',
  unknownTags: "Tags must be among this supercuration's tags",
  userNotFound: MSG.userNotFound,
  alreadyCollaborator: 'This user is already a collaborator',
  ownerIsNotCollaborator: 'The owner already edits this supercuration',
  collaboratorNotFound: 'Collaborator not found',
  invalidFocus: 'Unknown focus category',
  invalidInput: 'Invalid supercuration data',
  tooManySubscribeAttempts: MSG.tooManyRequests,
} as const;

/** 'Added {name} as collaborator' (SPEC §8). */
export const addedCollaborator = (name: string) => `Added ${name} as collaborator`;

export const SUPERCURATION_PAGE_SIZE = 24;
export const DIRECTORY_PAGE_SIZE = 24;
export const SLUG_MAX_LENGTH = 100;
export const TAG_NAME_MAX_LENGTH = 50;
export const TAG_CATEGORY_NAME_MAX_LENGTH = 50;
export const MAX_TOPICS_PER_SUPERCURATION = 20;
export const SEARCH_QUERY_MAX_LENGTH = 200;

/** SPEC §5: lowercase letters, digits and single inner hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * SPEC §5: the slug typed from the title: lowercase, runs of non-alphanumerics become one hyphen,
 * edge hyphens trimmed; accents are folded (é → e). Truncated to SLUG_MAX_LENGTH without a
 * trailing hyphen. May be '' (a title with no latin letter or digit): the user then types one.
 */
export function slugify(title: string): string {
  return topicIdOf(title).slice(0, SLUG_MAX_LENGTH).replace(/-+$/, '');
}

// ---------------------------------------------------------------------------------------------
// Focus categories (SPEC §2 directory). A collection belongs to a focus category when one of its
// topics has one of that category's topic ids (the ids of the 20 default topics, derived from
// their names, plus the category's own id so a user topic named like the category counts too).
// A collection with no topic of any category is 'generaliste'. A collection may be in several.

export const FOCUS_TOPIC_IDS: Record<FocusCategory, readonly string[]> = {
  generaliste: [],
  'tech-politique': ['tech-politique'],
  'tech-social': ['tech-social'],
  'tech-retail': ['tech-retail'],
  ia: ['ai', 'ia'],
  'silicon-valley': ['silicon-valley'],
  'ia-audio-video': ['ia-audio-video'],
  'strategie-innovation': ['strategie-innovation'],
  'futur-of-work': ['future-of-work', 'futur-of-work', 'productivity'],
  'creator-economy': ['creator-economy'],
  marketing: ['marketing'],
  tourisme: ['tourisme'],
  'product-management': ['product-management'],
  growth: ['growth'],
  medias: ['medias'],
  dystopie: ['dystopie'],
  culturetech: ['culturetech'],
  chine: ['chine'],
  us: ['us'],
  neuroscience: ['neuroscience'],
};

/** Every topic id that puts a collection in some focus category other than 'generaliste'. */
export const FOCUS_MAPPED_TOPIC_IDS: readonly string[] = [...new Set(Object.values(FOCUS_TOPIC_IDS).flat())];

/** The focus categories a collection with these topic ids belongs to. */
export function focusCategoriesOf(topicIds: readonly string[]): FocusCategory[] {
  const found = FOCUS_CATEGORIES.filter(
    (f) => f !== 'generaliste' && FOCUS_TOPIC_IDS[f].some((t) => topicIds.includes(t)),
  );
  return found.length > 0 ? found : ['generaliste'];
}

/** Display labels of the focus chips (the ids are the spec's; labels are ours). */
export const FOCUS_LABELS: Record<FocusCategory, string> = {
  generaliste: 'Généraliste',
  'tech-politique': 'Tech & Politique',
  'tech-social': 'Tech & Social',
  'tech-retail': 'Tech & Retail',
  ia: 'IA',
  'silicon-valley': 'Silicon Valley',
  'ia-audio-video': 'IA Audio/Video',
  'strategie-innovation': 'Stratégie & Innovation',
  'futur-of-work': 'Futur of Work',
  'creator-economy': 'Creator Economy',
  marketing: 'Marketing',
  tourisme: 'Tourisme',
  'product-management': 'Product Management',
  growth: 'Growth',
  medias: 'Médias',
  dystopie: 'Dystopie',
  culturetech: 'CultureTech',
  chine: 'Chine',
  us: 'US',
  neuroscience: 'Neuroscience',
};

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

/** The dashboard's 'E-mail subscribers': one of the owner's collections and its confirmed addresses. */
export interface EmailSubscriberGroup {
  supercurationId: string;
  title: string;
  subscribers: { email: string; confirmedAt: string }[];
}

/** The path of a public collection's RSS feed (private collections have none). */
export function collectionFeedPath(slug: string): string {
  return `/supercurations/public/${encodeURIComponent(slug)}/feed.xml`;
}
