import { z } from 'zod';
import { type Link, createLinkSchema, formatSchema } from './links';
import { IMPORT_MESSAGES, LINK_MESSAGES } from './messages';
import { BOOKMARKS_MAX_COUNT, BOOKMARK_MESSAGES, FEED_IMPORT_MESSAGES } from './bookmarks';
import { BATCH_SHARE_MAX, type FormatId, URL_MAX_LENGTH } from './constants';
import { normalizeUrl } from './url';

/**
 * One found URL to share: its (edited or previewed) title and description and a thumbnail. The
 * same field rules as a single link (createLinkSchema); the URL is required here.
 */
export const batchItemSchema = z.object(
  {
    url: z.string({ error: LINK_MESSAGES.onlyHttpUrls }).min(1, LINK_MESSAGES.onlyHttpUrls),
    title: z.unknown(),
    description: z.unknown(),
    thumbnailUrl: z.unknown().optional(),
  },
  { error: LINK_MESSAGES.invalidLinkData },
);
export type BatchItemInput = { url: string; title: string; description: string; thumbnailUrl?: string | null };

/**
 * POST /api/links/batch. Items are checked one by one (so a bad one is reported by its index);
 * the settings apply to every item.
 */
export const batchShareSchema = z.object(
  {
    items: z
      .array(z.unknown(), { error: IMPORT_MESSAGES.invalidBatch })
      .min(1, IMPORT_MESSAGES.noneSelected)
      .max(BATCH_SHARE_MAX, IMPORT_MESSAGES.tooMany),
    supercurationIds: z
      .array(z.string({ error: IMPORT_MESSAGES.invalidBatch }).min(1), { error: IMPORT_MESSAGES.invalidBatch })
      .max(50, IMPORT_MESSAGES.invalidBatch)
      .optional(),
    format: formatSchema.nullable().optional(),
    /** false = "Don't add to main feed": the links show only in their collections. Default true. */
    inMainFeed: z.boolean({ error: IMPORT_MESSAGES.invalidBatch }).optional(),
  },
  { error: IMPORT_MESSAGES.invalidBatch },
);

export type BatchShare = z.output<typeof batchShareSchema>;

export interface BatchShareInput {
  items: BatchItemInput[];
  supercurationIds?: string[];
  format?: FormatId | null;
  inMainFeed?: boolean;
}

export interface BatchShareResult {
  links: Link[];
}

/** The error body of a refused item: 400 INVALID_ITEM (or 409 DUPLICATE_LINK) with its index. */
export interface BatchItemErrorBody {
  error: string;
  code: 'INVALID_ITEM' | 'DUPLICATE_LINK';
  index: number;
}

/**
 * SPEC §5: a batch share needs a collection or a format unless the links go to the main feed
 * (the "Don't add to main feed" box left unchecked).
 */
export function batchRuleSatisfied(settings: {
  supercurationIds?: readonly string[];
  format?: FormatId | null;
  inMainFeed?: boolean;
}): boolean {
  return (settings.inMainFeed ?? true) || (settings.supercurationIds?.length ?? 0) > 0 || Boolean(settings.format);
}

/** The single-link input of one batch item with the batch's settings, validated by createLinkSchema. */
export function batchItemLink(
  item: unknown,
  settings: { supercurationIds?: string[]; format?: FormatId | null; inMainFeed?: boolean },
) {
  const shape = batchItemSchema.safeParse(item);
  if (!shape.success) return shape;
  return createLinkSchema.safeParse({
    url: shape.data.url,
    title: shape.data.title,
    description: shape.data.description,
    thumbnailUrl: shape.data.thumbnailUrl,
    format: settings.format ?? null,
    inMainFeed: settings.inMainFeed ?? true,
    supercurationIds: settings.supercurationIds,
  });
}

// ---------------------------------------------------------------------------------------------
// Bookmark files: folders → collections

/** Where a folder's bookmarks go: a new private collection (the default), one of the user's, or none. */
export const folderTargetSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('new') }).strict(),
  z.object({ type: z.literal('none') }).strict(),
  z.object({ type: z.literal('collection'), id: z.string().min(1).max(64) }).strict(),
]);

export type FolderTarget = z.infer<typeof folderTargetSchema>;

/**
 * The multipart field 'mapping' of POST /api/import/bookmarks (sent before the file): folder
 * title (as the preview lists it, 'Parent / Child') → target. Folders not in it get { type: 'new' }.
 */
export const folderMappingSchema = z.record(z.string().min(1).max(2000), folderTargetSchema).refine(
  (m) => Object.keys(m).length <= BOOKMARKS_MAX_COUNT,
  { message: 'Too many folders' },
);

export type FolderMapping = z.infer<typeof folderMappingSchema>;

/**
 * The multipart field 'inMainFeed' of POST /api/import/bookmarks: 'true' when the user ticked
 * "Also share these on my main feed". Absent: false, imported links stay private.
 */
export const importMainFeedFieldSchema = z
  .enum(['true', 'false'], { error: BOOKMARK_MESSAGES.invalidMainFeed })
  .optional()
  .transform((v) => v === 'true');

/**
 * POST /api/import/feed: the feed's address (http(s), normalised as a shared link's). Its links go
 * to a new private supercuration, so never to the main feed (as with Preview & Share).
 */
export const importFeedSchema = z.object(
  {
    url: z.string({ error: FEED_IMPORT_MESSAGES.invalidUrl }).transform((v, ctx) => {
      const url = v.length <= URL_MAX_LENGTH ? normalizeUrl(v) : null;
      if (!url) {
        ctx.addIssue({ code: 'custom', message: FEED_IMPORT_MESSAGES.invalidUrl });
        return z.NEVER;
      }
      return url;
    }),
  },
  { error: FEED_IMPORT_MESSAGES.invalidUrl },
);

export type ImportFeedInput = z.input<typeof importFeedSchema>;
