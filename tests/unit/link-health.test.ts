import { describe, expect, it } from 'vitest';
import {
  type CheckOutcome,
  DAY_MS,
  HEALTHY,
  LINK_CHECK_INTERVAL_MS,
  type LinkHealth,
  afterCheck,
  firstCheckAt,
} from '../../shared/domain';

/** The broken-link state machine, checks in a row at set times (no waiting). */

const t0 = Date.parse('2030-03-01T08:00:00.000Z');
const at = (days: number) => new Date(t0 + days * DAY_MS);
const dead: CheckOutcome = { kind: 'dead', result: '404' };
const failing: CheckOutcome = { kind: 'failing', result: '503' };
const ok: CheckOutcome = { kind: 'ok' };

/** Runs the checks in order, each at its day; answers the health after each. */
function run(checks: [number, CheckOutcome][], start: LinkHealth = HEALTHY): LinkHealth[] {
  let health = start;
  return checks.map(([day, outcome]) => {
    health = afterCheck(health, outcome, at(day), 0.5).health;
    return health;
  });
}
const broken = (states: LinkHealth[]) => states.map((s) => s.brokenAt !== null);

describe('a link turns broken', () => {
  it('after two dead answers (404, 410, DNS, TLS, redirect home) a day apart', () => {
    const states = run([
      [0, dead],
      [1, { kind: 'dead', result: 'dns' }],
    ]);
    expect(broken(states)).toEqual([false, true]);
    expect(states[1]).toEqual({ failures: 2, lastFailureAt: at(1).toISOString(), markedFine: false, brokenAt: at(1).toISOString() });
  });

  it('not when the second dead answer comes less than a day after the first: that one does not count', () => {
    const states = run([
      [0, dead],
      [0.5, dead],
      [1.01, dead],
    ]);
    expect(states.map((s) => s.failures)).toEqual([1, 1, 2]);
    expect(broken(states)).toEqual([false, false, true]);
  });

  it('after three 5xx or timeouts, each a day apart; two are not enough', () => {
    const states = run([
      [0, failing],
      [1, { kind: 'failing', result: 'timeout' }],
      [2, failing],
    ]);
    expect(broken(states)).toEqual([false, false, true]);
  });

  it('after a failure and then a dead answer (two failures, the last dead)', () => {
    expect(broken(run([[0, failing], [1, dead]]))).toEqual([false, true]);
    expect(broken(run([[0, dead], [1, failing]]))).toEqual([false, false]);
  });

  it('and stays broken, found at the same time, while it keeps failing', () => {
    const states = run([
      [0, dead],
      [1, dead],
      [8, failing],
    ]);
    expect(states[2]?.brokenAt).toBe(at(1).toISOString());
  });
});

describe('a link recovers', () => {
  it('at the first check that finds it working: broken, failures and "marked fine" all clear', () => {
    const states = run([
      [0, dead],
      [1, dead],
      [8, ok],
    ]);
    expect(states[2]).toEqual(HEALTHY);
    expect(broken(run([[0, failing], [1, ok], [2, failing], [3, failing]]))).toEqual([false, false, false, false]);
  });

  it('marked fine, its failures are not counted until it has worked once more', () => {
    const fine: LinkHealth = { ...HEALTHY, markedFine: true };
    const states = run([
      [0, dead],
      [1, dead],
      [2, dead],
      [3, ok],
      [4, dead],
      [5, dead],
    ], fine);
    expect(broken(states)).toEqual([false, false, false, false, false, true]);
    expect(states[2]).toEqual(fine);
    expect(states[3]).toEqual(HEALTHY);
  });
});

describe('the next check', () => {
  const due = (health: LinkHealth, outcome: CheckOutcome, random = 0.5) => afterCheck(health, outcome, at(0), random).dueAt.getTime() - t0;

  it('comes about a week later when the link works, spread by ±10 %', () => {
    expect(due(HEALTHY, ok, 0)).toBe(0.9 * LINK_CHECK_INTERVAL_MS);
    expect(due(HEALTHY, ok, 0.999999)).toBeCloseTo(1.1 * LINK_CHECK_INTERVAL_MS, -3);
  });

  it('a day later after a failure, so that the next one can count; weekly once broken', () => {
    expect(due(HEALTHY, dead, 0)).toBe(DAY_MS);
    const brokenOnce = run([[0, dead], [1, dead]])[1] as LinkHealth;
    expect(afterCheck(brokenOnce, dead, at(2), 0).dueAt.getTime() - at(2).getTime()).toBe(0.9 * LINK_CHECK_INTERVAL_MS);
  });

  it('honours Retry-After (at least a second, at most a day), and counts nothing', () => {
    expect(due(HEALTHY, { kind: 'later', result: '429', retryAfterMs: 120_000 })).toBe(120_000);
    expect(due(HEALTHY, { kind: 'later', result: '429', retryAfterMs: 0 })).toBe(1000);
    expect(due(HEALTHY, { kind: 'later', result: '503', retryAfterMs: 30 * DAY_MS })).toBe(DAY_MS);
    const failingOnce = run([[-1, dead]])[0] as LinkHealth;
    expect(afterCheck(failingOnce, { kind: 'later', result: '429', retryAfterMs: 5000 }, at(0), 0).health).toEqual(failingOnce);
  });

  it('after an answer that says nothing (401, 403, an address we may not fetch), keeps the health and waits a week', () => {
    const failingOnce = run([[-1, dead]])[0] as LinkHealth;
    const next = afterCheck(failingOnce, { kind: 'unknown', result: '403' }, at(0), 0);
    expect(next.health).toEqual(failingOnce);
    expect(next.dueAt.getTime() - t0).toBe(0.9 * LINK_CHECK_INTERVAL_MS);
  });

  it('of a new link comes within the coming week, spread', () => {
    expect(firstCheckAt(at(0), 0).getTime()).toBe(t0);
    expect(firstCheckAt(at(0), 0.5).getTime()).toBe(t0 + LINK_CHECK_INTERVAL_MS / 2);
  });
});
