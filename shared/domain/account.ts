import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './constants';
import { ACCOUNT_MESSAGES, MSG } from './messages';
import { emailSchema, newPasswordSchema } from './schemas';
import { paths } from './paths';
import type { LinkFacts } from './links';
import type { ReaderDigestSettings } from './subscriptions';

const token = z.string({ error: ACCOUNT_MESSAGES.resetInvalid }).min(1, ACCOUNT_MESSAGES.resetInvalid).max(2000, ACCOUNT_MESSAGES.resetInvalid);
const password = z
  .string({ error: ACCOUNT_MESSAGES.passwordRequired })
  .min(1, ACCOUNT_MESSAGES.passwordRequired)
  .max(PASSWORD_MAX_LENGTH, MSG.currentPasswordWrong);

/** "Forgot password?": Better Auth's request-password-reset body (no redirectTo: the link's target is ours). */
export const forgotPasswordSchema = z.object({ email: emailSchema });
/** Setting a new password from the reset link. */
export const resetPasswordSchema = z.object({ token, newPassword: newPasswordSchema });
/** "Resend the verification e-mail". */
export const resendVerificationSchema = z.object({ email: emailSchema });
/** The verification link's query; where it ends is fixed here, never taken from the link. */
export const verifyEmailQuerySchema = z
  .object({ token: z.string().min(1).max(4000) })
  .transform(({ token }) => ({ token, callbackURL: paths.emailVerified }));
/** A new e-mail address, confirmed from that address; the link ends on the same page as a verification. */
export const changeEmailSchema = z
  .object({ newEmail: emailSchema })
  .transform(({ newEmail }) => ({ newEmail, callbackURL: paths.emailVerified }));
/** One of my sessions, by its token as list-sessions gives it. */
export const revokeSessionSchema = z.object({ token: z.string().min(1).max(500) });
/** Deleting the account: the password, and the e-mail typed to confirm. */
export const deleteAccountSchema = z.object({ password, email: emailSchema });

/** A session as Better Auth's list-sessions answers (the fields the settings use). */
export interface AccountSession {
  id: string;
  token: string;
  userAgent?: string | null;
  ipAddress?: string | null;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  /** The session of the request that listed them. */
  current: boolean;
}

/** The JSON file of "Export my data". */
export interface AccountExport {
  exportedAt: string;
  profile: {
    id: string;
    name: string;
    email: string;
    emailVerified: boolean;
    createdAt: string;
    bio: string | null;
    location: string | null;
    website: string | null;
    fediverseUsername: string | null;
  };
  topics: { id: string; name: string; color: string; createdAt: string }[];
  links: ({
    id: string;
    url: string | null;
    title: string;
    description: string;
    thumbnailUrl: string | null;
    buttonText: string;
    format: string | null;
    isOriginalContent: boolean;
    inMainFeed: boolean;
    repostOf: string | null;
    topics: string[];
    likes: number;
    createdAt: string;
    updatedAt: string;
  } & LinkFacts)[];
  collections: {
    id: string;
    title: string;
    description: string;
    thumbnailUrl: string | null;
    isPublic: boolean;
    slug: string | null;
    role: 'owner' | 'collaborator';
    createdAt: string;
    tagCategories: { id: string; name: string; color: string; tags: { id: string; name: string }[] }[];
    resources: { linkId: string; title: string; url: string | null; addedAt: string; tags: string[] }[];
    emailSubscribers: { email: string; confirmedAt: string | null; createdAt: string }[];
  }[];
  likes: { linkId: string; title: string; url: string | null; likedAt: string }[];
  subscriptions: { userId: string; name: string; since: string }[];
  /** Public collections the user follows. */
  followedCollections: { id: string; title: string; since: string }[];
  subscribers: { userId: string; name: string; since: string }[];
  /** The personal digest's setting. */
  digest: ReaderDigestSettings;
  /** Whether readable copies are kept; the copies themselves follow, last in the file. */
  keepReadableCopies: boolean;
  /** Every readable copy of the user's links (sanitised HTML), in link id order. */
  readableCopies: ExportedReadableCopy[];
}

export interface ExportedReadableCopy {
  linkId: string;
  capturedAt: string;
  source: 'server' | 'extension';
  wordCount: number;
  lang: string | null;
  html: string;
}

/** A session's device as the settings name it, from its user agent: "Chrome on Linux". */
export function deviceOf(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const browser =
    /Edg\//.test(userAgent) ? 'Edge'
    : /OPR\/|Opera/.test(userAgent) ? 'Opera'
    : /Firefox\//.test(userAgent) ? 'Firefox'
    : /Chrome\/|Chromium\//.test(userAgent) ? 'Chrome'
    : /Safari\//.test(userAgent) ? 'Safari'
    : /curl\//i.test(userAgent) ? 'curl'
    : null;
  const os =
    /iPhone|iPad|iPod/.test(userAgent) ? 'iOS'
    : /Android/.test(userAgent) ? 'Android'
    : /Windows/.test(userAgent) ? 'Windows'
    : /Mac OS X|Macintosh/.test(userAgent) ? 'macOS'
    : /CrOS/.test(userAgent) ? 'ChromeOS'
    : /Linux/.test(userAgent) ? 'Linux'
    : null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? 'Unknown device';
}
