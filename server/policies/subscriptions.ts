import type { Viewer } from './viewer';

/** SPEC §4/§6: a signed-in user subscribes to (and unsubscribes from) other users, never to themself. */
export function canSubscribeTo(viewer: Viewer, publisherId: string): boolean {
  return viewer.id !== publisherId;
}

/**
 * SPEC §6: a publisher sees and exports their own subscribers, nobody else's. The API has no way to
 * name another publisher (/api/me/subscribers); this rule is the one place that says so.
 */
export function canSeeSubscribers(viewer: Viewer | null, publisherId: string): boolean {
  return viewer !== null && viewer.id === publisherId;
}
