import { z } from 'zod';

/**
 * Readable copies of saved pages (issue 23): what the reader view at /links/:id/read shows, the
 * setting, and the copy the extension sends with a share.
 */

/** The extension sends at most this much of the article's HTML (it cuts at a tag); the server cuts its copy to 2 MB. */
export const READABLE_UPLOAD_MAX_CHARS = 2_000_000;
/** Words read a minute, for "n min read". */
const WORDS_PER_MINUTE = 230;

export const READABLE_MESSAGES = {
  tooLarge: `The readable copy is too large (at most ${READABLE_UPLOAD_MAX_CHARS.toLocaleString('en-US')} characters)`,
  invalidSetting: 'Choose whether to keep readable copies',
  readSavedCopy: 'Read the saved copy',
  pending: 'The readable copy is being made. Check again in a minute.',
  unavailable: 'No readable copy could be made of this page.',
  off: 'Readable copies are turned off for this link’s author.',
  loadFailed: 'Failed to load the readable copy',
  title: 'Readable copies',
  label: 'Keep readable copies',
  hint: 'A copy of the text of each page you save, to read here if the page changes or goes away.',
  saved: 'Readable copy setting saved',
  saveFailed: 'Failed to save the readable copy setting',
  settingLoadFailed: 'Failed to load the readable copy setting',
  confirmOffTitle: 'Turn off readable copies?',
  confirmOff: 'The readable copies of all your links will be deleted. Turning them on again makes them anew, from the pages as they are then.',
  turnOff: 'Turn off',
  turningOff: 'Turning off...',
  fromExtension: 'As you saw it, from the extension',
  readableCopy: 'Readable copy',
} as const;

/** 'Readable copies: 1,234 of 5,000', and how many wait for theirs. */
export function readableProgressText({ kept, total, waiting }: Pick<ReadableCopySettings, 'kept' | 'total' | 'waiting'>): string {
  const text = `Readable copies: ${kept.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
  return waiting > 0 ? `${text}, ${waiting.toLocaleString('en-US')} waiting` : text;
}

/** '4 min read'. */
export const readingTimeText = (minutes: number) => `${minutes} min read`;

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
