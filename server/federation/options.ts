import type { Db } from '../db';
import { type HopPolicy, anyAddress, publicOnly } from '../preview/address-policy';

/**
 * What the federation (server/federation/index.ts) is made with, and the paths and rules its routes
 * need before it is loaded: this module does not load Fedify.
 */

/** Which addresses remote fetches and deliveries may reach: public ones, or any (PREVIEW_ALLOW_PRIVATE, tests on loopback). */
export const fetchPolicy = ({ allowPrivateAddress }: Pick<FederationDeps, 'allowPrivateAddress'>): HopPolicy => (allowPrivateAddress ? anyAddress : publicOnly);

export interface FederationDeps {
  db: Db;
  publicUrl: string;
  /** PREVIEW_ALLOW_PRIVATE: remote actors, keys and inboxes may be at private addresses (tests on loopback). */
  allowPrivateAddress: boolean;
  /** One delivery's deadline (PREVIEW_TIMEOUT_MS). */
  timeoutMs: number;
  /** FEDERATION_BLOCKED_HOSTS: servers whose activities are refused and who are sent nothing. */
  blockedHosts: readonly string[];
  log: { warn(obj: object, msg: string): void };
}

export const ACTOR_PATH = '/ap/actors/{identifier}';
export const SHARED_INBOX_PATH = '/ap/inbox';

const ACTIVITY_TYPES = /application\/(activity\+json|ld\+json)/;

/** Whether a client asks for ActivityStreams JSON before HTML (what Mastodon sends when it fetches an actor). */
export function wantsActivityJson(accept: string | undefined): boolean {
  if (!accept || !ACTIVITY_TYPES.test(accept)) return false;
  const first = accept.split(',')[0]?.trim() ?? '';
  return !first.startsWith('text/html') && !first.startsWith('application/xhtml+xml');
}

