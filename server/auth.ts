import { type BetterAuthOptions, betterAuth } from 'better-auth';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../shared/domain';
import type { Config } from './config';
import type { Db } from './db';
import { createProfile } from './services/profiles';

export type AuthOptions = BetterAuthOptions;
export type Auth = ReturnType<typeof createAuth>;

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
    // Sign-in and sign-up are rate limited by our Fastify layer (server/http/auth-routes.ts).
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: {
      useSecureCookies: config.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await createProfile(db, user.id);
          },
        },
      },
    },
  };
}

export function createAuth(config: Config, db: Db) {
  return betterAuth(authOptions(config, db));
}
