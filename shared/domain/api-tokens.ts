import { z } from 'zod';
import { API_TOKEN_MESSAGES } from './messages';

/** Personal access tokens: `Authorization: Bearer <token>` on the API acts as the token's user. */
export const API_TOKEN_NAME_MAX = 100;
/** The expiry choices of the settings form, in days; the API takes any whole number from 1 to 365. */
export const API_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
/** Every token starts with this, so secret scanners and people can tell what it is. */
export const API_TOKEN_PREFIX = 'sc_';

/** `POST /api/me/tokens`: a name, and an optional expiry in days (none or null: never expires). */
export const createApiTokenSchema = z.object({
  name: z
    .string({ error: API_TOKEN_MESSAGES.nameRequired })
    .trim()
    .min(1, API_TOKEN_MESSAGES.nameRequired)
    .max(API_TOKEN_NAME_MAX, API_TOKEN_MESSAGES.nameTooLong),
  expiresInDays: z
    .number({ error: API_TOKEN_MESSAGES.expiryInvalid })
    .int(API_TOKEN_MESSAGES.expiryInvalid)
    .min(1, API_TOKEN_MESSAGES.expiryInvalid)
    .max(365, API_TOKEN_MESSAGES.expiryInvalid)
    .nullish(),
});
export type CreateApiTokenInput = z.input<typeof createApiTokenSchema>;

/** A token as listed: never its secret. Times are ISO-8601 UTC. */
export interface ApiToken {
  id: string;
  name: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** The answer to creating one: the only time the token itself is shown. */
export interface CreatedApiToken extends ApiToken {
  token: string;
}
