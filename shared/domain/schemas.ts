import { z } from 'zod';
import {
  BIO_MAX_LENGTH,
  FEDIVERSE_USERNAME,
  FEDIVERSE_USERNAME_MAX_LENGTH,
  LOCATION_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  WEBSITE_MAX_LENGTH,
} from './constants';
import { MSG } from './messages';
import { cleanText } from './text';
import { isHttpUrl } from './url';

const name = cleanText({ error: MSG.nameRequired })
  .min(1, MSG.nameRequired)
  .max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`);

export const emailSchema = z.string({ error: MSG.emailInvalid }).trim().toLowerCase().pipe(z.email(MSG.emailInvalid));

/**
 * A password someone chooses (sign-up, change, reset). The server also refuses the most common
 * passwords (server/services/passwords.ts): that list is too large for the web bundle.
 */
export const newPasswordSchema = z
  .string({ error: MSG.passwordTooShort })
  .min(PASSWORD_MIN_LENGTH, MSG.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, MSG.passwordTooLong)
  .refine((v) => v.trim() !== '', MSG.passwordBlank);

export const registerSchema = z.object({
  name,
  email: emailSchema,
  password: newPasswordSchema,
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** Better Auth's change-password body. */
export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: MSG.currentPasswordWrong })
    .min(1, MSG.currentPasswordWrong)
    .max(PASSWORD_MAX_LENGTH, MSG.currentPasswordWrong),
  newPassword: newPasswordSchema,
  revokeOtherSessions: z.boolean().optional(),
});

export const loginSchema = z.object({
  email: z.string({ error: MSG.invalidCredentials }).trim().min(1, MSG.invalidCredentials),
  password: z.string({ error: MSG.invalidCredentials }).min(1, MSG.invalidCredentials),
});

/** Optional free text (cleanText): an empty string means "cleared" (stored as null). */
const optionalText = (max: number, label: string, multiline = false) =>
  cleanText(undefined, { multiline })
    .max(max, `${label} must be at most ${max} characters`)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

export const profileUpdateSchema = z.object({
  name,
  bio: optionalText(BIO_MAX_LENGTH, 'Bio', true),
  location: optionalText(LOCATION_MAX_LENGTH, 'Location'),
  website: cleanText()
    .max(WEBSITE_MAX_LENGTH, MSG.websiteInvalid)
    .refine((v) => v === '' || isHttpUrl(v), MSG.websiteInvalid)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  /** The handle others follow on the fediverse (@username@host); the server makes one when it is first needed. */
  fediverseUsername: cleanText()
    .toLowerCase()
    .max(FEDIVERSE_USERNAME_MAX_LENGTH, MSG.fediverseUsernameTooLong)
    .regex(FEDIVERSE_USERNAME, MSG.fediverseUsernameInvalid)
    .optional(),
});
export type ProfileUpdate = z.input<typeof profileUpdateSchema>;
export type ProfileChanges = z.output<typeof profileUpdateSchema>;

/** A user as the API returns it. `email` is present only for the user themself (decisions.md). */
export interface UserProfile {
  id: string;
  name: string;
  email?: string;
  /** Whether the e-mail address is verified; present with `email` (the user themself). */
  emailVerified?: boolean;
  avatarUrl: string;
  bio: string | null;
  location: string | null;
  website: string | null;
  createdAt: string;
  subscriptionsCount: number;
  subscribersCount: number;
  /** The user's fediverse username (they follow them as @username@host); null until one is set or made. */
  fediverseUsername: string | null;
  /** @username@host when the server federates and the user has a public collection (they are then a fediverse actor). */
  fediverseHandle?: string | null;
  /** Whether the signed-in viewer subscribes to this user; present only for a signed-in viewer on someone else's profile. */
  isSubscribed?: boolean;
}

/** The error body every API failure answers with. */
export interface ApiErrorBody {
  error: string;
  code?: string;
  issues?: { path: string; message: string }[];
}
