import { z } from 'zod';
import type { FormatId } from './constants';
import { LINK_MESSAGES, type Link, createLinkSchema, formatSchema } from './links';

/** Texts of SPEC §8 (Import and sharing) and §5 (batch rule) verbatim, then our own. */
export const IMPORT_MESSAGES = {
  extractFailed: 'Failed to extract text from image',
  noUrlsFound: 'No URLs found in the pasted text',
  processFailed: 'Failed to process pasted text',
  shareLinksFailed: 'Failed to share links',
  shareLinkFailed: LINK_MESSAGES.shareLinkFailed,
  batchRule: 'Please select a supercuration or format, or enable adding to main feed',
  // Not worded by the spec (docs/decisions.md):
  importToggle: 'Import multiple URLs from text or image',
  loadingOcr: 'Loading OCR engine...',
  clipboardDenied: 'Clipboard access was denied. Paste the text with Ctrl+V (Cmd+V on a Mac) instead.',
  clipboardEmpty: 'The clipboard has no text',
  notAnImage: 'Only image files can be read',
  noneSelected: 'Select at least one link to share',
  tooMany: 'You can share at most 100 links at once',
  invalidBatch: 'Invalid batch of links',
} as const;

/** 'Recognising text... n%' while OCR runs. */
export const recognisingText = (percent: number) => `Recognising text... ${Math.round(percent)}%`;
/** 'n of m selected'. */
export const selectedCount = (n: number, m: number) => `${n} of ${m} selected`;
/** 'Share Selected (n)'. */
export const shareSelectedLabel = (n: number) => `Share Selected (${n})`;
/** 'Sharing n links...' while the batch request runs. */
export const sharingLinks = (n: number) => `Sharing ${n} ${n === 1 ? 'link' : 'links'}...`;
/** The success toast. */
export const sharedLinks = (n: number) => `${n} ${n === 1 ? 'link' : 'links'} shared`;

/** One request shares at most this many links. */
export const BATCH_SHARE_MAX = 100;
/** Previews of found URLs fetched at once. */
export const IMPORT_PREVIEW_CONCURRENCY = 3;

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
