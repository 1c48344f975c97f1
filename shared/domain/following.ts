/** The Following feed's query and the personal digest's setting (their items and texts are in ./subscriptions.ts, which the client imports without zod). */
import { z } from 'zod';
import { TIME_WINDOWS } from './constants';
import { formatSchema } from './links';
import { DIGEST_FREQUENCIES, READER_DIGEST_MESSAGES } from './subscriptions';

/** GET /api/following: My Feed's time window and format filters, and the page cursor. */
export const followingQuerySchema = z.object({
  window: z.enum(TIME_WINDOWS).default('all'),
  format: formatSchema.optional(),
  cursor: z.string().max(500).optional(),
});
export type FollowingQuery = z.input<typeof followingQuerySchema>;

/** PUT /api/me/digest: how often the reader's digest e-mail goes out. */
export const readerDigestSchema = z.object({
  frequency: z.enum(DIGEST_FREQUENCIES, { error: READER_DIGEST_MESSAGES.invalid }),
});
export type ReaderDigestInput = z.input<typeof readerDigestSchema>;
