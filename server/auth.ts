import { type BetterAuthOptions, betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, thumbnailUrlField } from '../shared/domain';
import type { Config } from './config';
import type { Db } from './db';
import { createProfile } from './services/profiles';

export type AuthOptions = BetterAuthOptions;
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

export function authOptions(config: Config, db: Db): AuthOptions {
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
    },
    // Extension origins may be patterns (`chrome-extension://*`), which Better Auth matches itself.
    trustedOrigins: [config.publicUrl, ...config.trustedOrigins, ...config.extensionOrigins],
    // Sign-in, sign-up and change-password are rate limited by our Fastify layer (server/http/auth-routes.ts).
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

export function createAuth(config: Config, db: Db) {
  return betterAuth(authOptions(config, db));
}
