import { type BetterAuthOptions, betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, thumbnailUrlField } from '../shared/domain';
import type { Config } from './config';
import type { Db } from './db';
import { RESET_LINK_SECONDS, queuePasswordResetMail, queueVerificationMail } from './mail/account-mail';
import { deleteAccountData } from './services/account-deletion';
import { createProfile } from './services/profiles';
import { diskStorage } from './storage/uploads';

export type AuthOptions = BetterAuthOptions;
/** How passwords are hashed and checked: Better Auth's scrypt unless given (tests/support/passwords.ts). */
export type PasswordHashing = NonNullable<NonNullable<BetterAuthOptions['emailAndPassword']>['password']>;
export type Auth = ReturnType<typeof createAuth>;

/**
 * The "user" row's image, whoever writes it: only an http(s) URL or an image uploaded to our
 * server, the rule of a link's thumbnail (`javascript:` and `data:` URLs never reach the table).
 */
function storableImage<T extends { image?: string | null }>(user: T): { data: T } {
  if (user.image === undefined) return { data: user };
  const image = thumbnailUrlField.safeParse(user.image);
  if (!image.success) throw new APIError('BAD_REQUEST', { message: image.error.issues[0]?.message });
  return { data: { ...user, image: image.data ?? null } };
}

/** Whether a verification token (Better Auth's JWT) is for an e-mail change rather than a new account. */
function isEmailChange(token: string): boolean {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { updateTo?: unknown };
    return typeof payload.updateTo === 'string';
  } catch {
    return false;
  }
}

/**
 * `wakeOutbox` nudges this process's outbox worker after an account mail is queued; without it
 * (migrations, tests listing endpoints) the worker's poll sends it.
 */
export function authOptions(config: Config, db: Db, wakeOutbox: () => void = () => {}, password?: PasswordHashing): AuthOptions {
  const mail = { db, publicUrl: config.publicUrl, wakeOutbox };
  const uploads = diskStorage(config.uploadsDir);
  return {
    appName: 'Supercurate',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    database: { db: db.kysely, type: db.dialect },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      autoSignIn: true,
      // The reset link (to our /reset-password page) works once, for an hour, and ends every session.
      sendResetPassword: ({ user, token }) => queuePasswordResetMail(mail, user.email, token),
      resetPasswordTokenExpiresIn: RESET_LINK_SECONDS,
      revokeSessionsOnPasswordReset: true,
      ...(password ? { password } : {}),
    },
    emailVerification: {
      sendOnSignUp: true,
      // A verification link confirms an address; it does not sign anyone in (it may be opened on another device).
      autoSignInAfterVerification: false,
      sendVerificationEmail: ({ user, token }) => queueVerificationMail(mail, user.email, token, isEmailChange(token)),
    },
    user: {
      // With no confirmation mail to the old address, Better Auth sends the change's link to the new one.
      changeEmail: { enabled: true },
      // Our data goes in one transaction with the user, sessions and accounts; Better Auth then finds nothing left.
      deleteUser: {
        enabled: true,
        beforeDelete: async (user) => {
          const { avatarKey } = await deleteAccountData(db, user.id);
          if (avatarKey) await uploads.delete(avatarKey);
        },
      },
    },
    // Sensitive actions ask for the password instead (change-password, delete-user); listing
    // sessions must not stop working a day after signing in (Better Auth's "fresh" age).
    session: { freshAge: 0 },
    // Extension origins may be patterns (`chrome-extension://*`), which Better Auth matches itself.
    trustedOrigins: [config.publicUrl, ...config.trustedOrigins, ...config.extensionOrigins],
    // Our Fastify layer limits the endpoints we mount (server/http/auth-routes.ts), counting where
    // every process shares the count; Better Auth's own limiter would count in each process's memory.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: {
      useSecureCookies: config.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => storableImage(user),
          after: async (user) => {
            await createProfile(db, user.id);
          },
        },
        update: { before: async (user) => storableImage(user) },
      },
    },
  };
}

export function createAuth(config: Config, db: Db, wakeOutbox?: () => void, password?: PasswordHashing) {
  return betterAuth(authOptions(config, db, wakeOutbox, password));
}
