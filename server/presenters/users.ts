import { type LinkAuthor, UNKNOWN_USER_NAME, type UserProfile } from '../../shared/domain';
import type { ProfileRow } from '../services/profiles';

/** The avatar URL changes whenever the avatar does, so browsers may cache it for good. */
export function avatarUrl(userId: string, avatarKey: string | null): string {
  const version = avatarKey ? avatarKey.slice(avatarKey.lastIndexOf('/') + 1, avatarKey.lastIndexOf('.')) : 'generated';
  return `/api/users/${encodeURIComponent(userId)}/avatar?v=${version}`;
}

/** A user as cards show them (authors, owners, collaborators): 'Unknown User' when the name is empty. */
export function userCard(id: string, name: string | null | undefined, avatarKey: string | null | undefined): LinkAuthor {
  return { id, name: name || UNKNOWN_USER_NAME, avatarUrl: avatarUrl(id, avatarKey ?? null) };
}

/**
 * A user's profile as `viewerId` may see it: the e-mail only to the user themself; whether the
 * viewer subscribes to them (`viewerSubscribes`) only to another signed-in user; the fediverse
 * handle when `fediverseHost` is given (FEDERATION on).
 */
export function profileOf(row: ProfileRow, viewerId: string | null, viewerSubscribes: boolean | undefined, fediverseHost: string | null): UserProfile {
  return {
    id: row.id,
    name: row.name,
    ...(viewerId === row.id ? { email: row.email, emailVerified: Boolean(row.emailVerified) } : {}),
    avatarUrl: avatarUrl(row.id, row.avatar_key),
    bio: row.bio,
    location: row.location,
    website: row.website,
    createdAt: new Date(row.createdAt).toISOString(),
    subscriptionsCount: row.subscriptions_count ?? 0,
    subscribersCount: row.subscribers_count ?? 0,
    fediverseUsername: row.fediverse_username ?? null,
    // A Person actor: a user with a public collection, on a federating server.
    fediverseHandle: fediverseHost && row.fediverse_username && row.is_fediverse_actor ? `@${row.fediverse_username}@${fediverseHost}` : null,
    ...(viewerSubscribes !== undefined ? { isSubscribed: viewerSubscribes } : {}),
  };
}
