import { z } from 'zod';
import { READABLE_UPLOAD_MAX_CHARS } from './constants';
import { READABLE_MESSAGES } from './readable-texts';

/**
 * Readable copies of saved pages (issue 23): what the reader view at /links/:id/read shows, the
 * setting, and the copy the extension sends with a share.
 */

/** Words read a minute, for "n min read". */
const WORDS_PER_MINUTE = 230;

export const readableUploadSchema = z.object({
  html: z.string({ error: READABLE_MESSAGES.tooLarge }).max(READABLE_UPLOAD_MAX_CHARS, READABLE_MESSAGES.tooLarge),
  lang: z.string().max(35).nullable().optional(),
});
export type ReadableUpload = z.infer<typeof readableUploadSchema>;

export const readableCopySettingSchema = z.object({ keep: z.boolean({ error: READABLE_MESSAGES.invalidSetting }) });
export type ReadableCopySettingInput = z.input<typeof readableCopySettingSchema>;

/** 'kept': there is a copy; 'pending': it is being made; 'unavailable': none could be made; 'off': its author turned copies off. */
export type ReadableCopyState = 'kept' | 'pending' | 'unavailable' | 'off';

export interface ReadableCopyView {
  linkId: string;
  title: string;
  url: string | null;
  brokenAt: string | null;
  state: ReadableCopyState;
  /** Sanitised on the server when it was kept: safe to render as it is. */
  html: string | null;
  wordCount: number;
  readingMinutes: number;
  lang: string | null;
  capturedAt: string | null;
  /** 'extension': the page as the user saw it; 'server': fetched by our server. */
  source: 'server' | 'extension' | null;
  failure: string | null;
}

export interface ReadableCopySettings {
  keep: boolean;
  /** The viewer's links with a URL, those with a copy, and those still waiting for theirs. */
  total: number;
  kept: number;
  waiting: number;
}

export const readingMinutes = (words: number) => (words === 0 ? 0 : Math.max(1, Math.round(words / WORDS_PER_MINUTE)));
