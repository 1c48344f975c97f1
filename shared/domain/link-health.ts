/**
 * Link health (issue 19): what one check of a saved link found, and how the checks in a row make
 * a link broken or clear it. Pure, with the time passed in, so the state machine is tested without
 * waiting days.
 */

export const DAY_MS = 24 * 3600_000;
/** Each link is checked about this often (±10 %, so the checks of a big import spread out). */
export const LINK_CHECK_INTERVAL_MS = 7 * DAY_MS;
/** Failures count only this far apart: a site down for an hour is not a dead link. */
export const LINK_CHECK_FAILURE_SPACING_MS = DAY_MS;
/** One request per host per this, for all server processes together. */
export const LINK_CHECK_HOST_SPACING_MS = 1000;
/** A Retry-After is honoured up to this; a longer one is read as this. */
export const LINK_CHECK_MAX_RETRY_AFTER_MS = DAY_MS;

export const LINK_HEALTH_MESSAGES = {
  badge: 'Broken link',
  markFine: 'Mark as fine',
  markedFine: 'Marked as fine',
  markFineFailed: 'Failed to mark the link as fine',
  filterHint: 'These links answered 404, gone or unreachable on two checks a day apart. Edit the URL, remove the link, or mark it as fine.',
  noneBroken: 'No broken links',
} as const;

/** 'Broken links (3)'. */
export const brokenLinksText = (n: number) => `Broken links (${n.toLocaleString('en-US')})`;

/**
 * What a check found:
 * - ok: the page answered (2xx, or a redirect to it);
 * - dead: 404, 410, no DNS name, a TLS failure, or a redirect to the site's home page;
 * - failing: 5xx, a timeout, a connection that failed;
 * - later: the site asked us to come back (429, or 503 with Retry-After);
 * - unknown: nothing to learn (401, 403, another 4xx, an address we may not fetch).
 */
export type CheckOutcome =
  | { kind: 'ok' }
  | { kind: 'dead' | 'failing' | 'unknown'; result: string }
  | { kind: 'later'; result: string; retryAfterMs: number };

export interface LinkHealth {
  failures: number;
  lastFailureAt: string | null;
  markedFine: boolean;
  brokenAt: string | null;
}

export const HEALTHY: LinkHealth = { failures: 0, lastFailureAt: null, markedFine: false, brokenAt: null };

/** Failures in a row that make a link broken: 2 when the last is a dead answer, else 3. */
function isBroken(failures: number, kind: CheckOutcome['kind']): boolean {
  return failures >= 3 || (failures >= 2 && kind === 'dead');
}

/**
 * The link's health after a check at `now`, and when to check it next. `random` ∈ [0, 1) spreads
 * the weekly checks by ±10 %.
 */
export function afterCheck(
  health: LinkHealth,
  outcome: CheckOutcome,
  now: Date,
  random: number,
): { health: LinkHealth; dueAt: Date } {
  const at = now.getTime();
  const weekly = new Date(at + LINK_CHECK_INTERVAL_MS * (0.9 + 0.2 * random));
  switch (outcome.kind) {
    case 'ok':
      return { health: HEALTHY, dueAt: weekly };
    case 'unknown':
      return { health, dueAt: weekly };
    case 'later':
      return { health, dueAt: new Date(at + Math.min(Math.max(outcome.retryAfterMs, 1000), LINK_CHECK_MAX_RETRY_AFTER_MS)) };
    default: {
      // Marked fine by the curator: failures are not counted until the link works again.
      if (health.markedFine) return { health, dueAt: weekly };
      const last = health.lastFailureAt ? Date.parse(health.lastFailureAt) : null;
      if (last !== null && at - last < LINK_CHECK_FAILURE_SPACING_MS) {
        return { health, dueAt: new Date(last + LINK_CHECK_FAILURE_SPACING_MS) };
      }
      const failures = health.failures + 1;
      const broken = health.brokenAt !== null || isBroken(failures, outcome.kind);
      return {
        health: { failures, lastFailureAt: now.toISOString(), markedFine: false, brokenAt: broken ? (health.brokenAt ?? now.toISOString()) : null },
        // A failing link is asked again a day later; a broken one weekly, to notice it is back.
        dueAt: broken ? weekly : new Date(at + LINK_CHECK_FAILURE_SPACING_MS * (1 + 0.1 * random)),
      };
    }
  }
}

/**
 * The first check of a new link: some time within the coming week (its preview was fetched just
 * now), spread so that an import's links are not all checked together.
 */
export const firstCheckAt = (now: Date, random: number) => new Date(now.getTime() + LINK_CHECK_INTERVAL_MS * random);
