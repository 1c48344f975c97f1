/** The Following feed's query (its items and texts are in ./subscriptions.ts, which the client imports without zod). */
import { z } from 'zod';
import { TIME_WINDOWS } from './constants';
import { formatSchema } from './links';

/** GET /api/following: My Feed's time window and format filters, and the page cursor. */
export const followingQuerySchema = z.object({
  window: z.enum(TIME_WINDOWS).default('all'),
  format: formatSchema.optional(),
  cursor: z.string().max(500).optional(),
});
export type FollowingQuery = z.input<typeof followingQuerySchema>;
