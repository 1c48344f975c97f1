/** Following: a signed-in user subscribes to another user as a publisher (SPEC §3 Subscription). */
import type { Link, LinkAuthor } from './links';
import { handleOf } from './names';


export const SUBSCRIPTION_MESSAGES = {
  mustLogInToSubscribe: 'You must be logged in to subscribe',
  mustLogInToUnsubscribe: 'You must be logged in to unsubscribe',
  subscribeFailed: 'Failed to subscribe',
  unsubscribeFailed: 'Failed to unsubscribe',
  fetchSubscriptionsFailed: 'Failed to fetch subscriptions',
  noSubscribers: 'No subscribers yet',
  // Not worded by the spec (decisions.md):
  cannotSubscribeToSelf: 'You cannot subscribe to yourself',
  mustLogInToSeeSubscribers: 'You must be logged in to see your subscribers',
} as const;

/** Subscribers per page of GET /api/me/subscribers (the CSV export streams them all). */
export const SUBSCRIBERS_PAGE_SIZE = 50;

/** Newest items in a user's RSS feed. */
export const USER_FEED_SIZE = 50;

/** The viewer's subscription to one publisher, with both counters as they are after the change. */
export interface SubscriptionState {
  isSubscribed: boolean;
  /** The publisher's subscribers_count. */
  subscribersCount: number;
  /** The viewer's subscriptions_count. */
  subscriptionsCount: number;
}

/** One row of the Subscriber Dashboard. */
export interface Subscriber {
  /** The subscriber's user id (their profile is /profile/{id}). */
  id: string;
  /** Display name, or the part of the e-mail before the @ when the name is blank. */
  name: string;
  email: string;
  /** When they subscribed (ISO-8601 UTC). */
  subscribedAt: string;
}

export interface SubscriberPage {
  items: Subscriber[];
  /** Opaque keyset cursor for the next page; null when there is none. */
  nextCursor: string | null;
  hasMore: boolean;
  /** The publisher's subscribers_count: every subscriber, not just this page. */
  total: number;
}

/** The file name of the CSV export, dated in UTC: subscribers-YYYY-MM-DD.csv (SPEC §7). */
export function subscribersCsvFileName(at: Date = new Date()): string {
  return `subscribers-${at.toISOString().slice(0, 10)}.csv`;
}

/** SPEC §3 subscriber_name: the display name, or the part of the e-mail before the @ when it is blank. */
export function subscriberNameOf(name: string | null | undefined, email: string): string {
  return name?.trim() || handleOf(email);
}

// The Following feed (GET /api/following): what the users I subscribe to and the public collections I follow publish.

/** shared / reposted: a followed user put a link in their main feed; added: someone added it to a followed collection. */
export type FollowingKind = 'shared' | 'reposted' | 'added';

export interface FollowingItem {
  kind: FollowingKind;
  /** When it was shared, reposted or added (ISO-8601 UTC): the feed's order, newest first. */
  at: string;
  /** Who did it. */
  actor: LinkAuthor;
  /** Where, for `added`: the public collection. */
  supercuration: { id: string; title: string; slug: string | null } | null;
  link: Link;
}

// Not worded by the spec (docs/decisions.md).
export const FOLLOWING_MESSAGES = {
  title: 'Following',
  description: 'What the curators and collections you follow publish.',
  mustLogIn: 'You must be logged in to see your Following feed',
  loadFailed: 'Failed to load your Following feed',
  loadMoreFailed: 'Failed to fetch more of your Following feed',
  empty: 'Nothing from the curators and collections you follow yet',
  emptyHint: 'Subscribe to curators and follow public supercurations to see what they publish here.',
  discover: 'Discover curators',
  noMatch: 'Nothing matches these filters',
} as const;

/** "Ada shared", "Ada reposted", "Ada added to" (the collection's title follows). */
export const FOLLOWING_VERBS: Record<FollowingKind, string> = {
  shared: 'shared',
  reposted: 'reposted',
  added: 'added to',
};

// The personal digest: one e-mail per reader per period with what the curators and collections they follow published.

export const DIGEST_FREQUENCIES = ['off', 'daily', 'weekly'] as const;
export type DigestFrequency = (typeof DIGEST_FREQUENCIES)[number];
/** A reader who never chose gets the weekly digest. */
export const DEFAULT_DIGEST_FREQUENCY: DigestFrequency = 'weekly';
/** Items listed in one digest at most; the mail says how many more there are. */
export const READER_DIGEST_MAX_ITEMS = 30;

/** GET and PUT /api/me/digest. */
export interface ReaderDigestSettings {
  frequency: DigestFrequency;
}

// Not worded by the spec (docs/decisions.md).
export const READER_DIGEST_MESSAGES = {
  title: 'E-mail digest',
  label: 'E-mail me what the people and collections I follow publish',
  choices: { off: 'Off', daily: 'Daily', weekly: 'Weekly' } satisfies Record<DigestFrequency, string>,
  hint: 'One e-mail per day or week, only when there is something new.',
  unverified: 'Digests go to verified addresses only: verify yours above to receive them.',
  saved: 'Digest setting saved',
  saveFailed: 'Failed to save the digest setting',
  loadFailed: 'Failed to load the digest setting',
  invalid: 'Choose Off, Daily or Weekly',
  mustLogIn: 'You must be logged in to change your digest',
} as const;
