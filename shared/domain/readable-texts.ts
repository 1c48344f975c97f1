import { READABLE_UPLOAD_MAX_CHARS } from './constants';
import type { ReadableCopySettings } from './readable';

/**
 * The texts of readable copies (issue 23). Apart from readable.ts and its zod schemas, so that the
 * pages using them carry no zod (docs/decisions.md, first-load JavaScript).
 */

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
