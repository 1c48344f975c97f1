import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import {
  type CheckOutcome,
  LINK_CHECK_HOST_SPACING_MS,
  LINK_MESSAGES,
  type LinkHealth,
  afterCheck,
  firstCheckAt,
} from '../../shared/domain';
import { requireEditable } from '../access/supercurations';
import type { Db } from '../db';
import { rowsTemplate } from '../db/query-templates';
import type { Database } from '../db/schema';
import { forbidden, notFound } from '../errors';
import { canEditLink, linkVisibleTo } from '../policies/links';
import type { Viewer } from '../policies/viewer';
import { type HopPolicy, anyAddress, publicOnly } from '../preview/address-policy';
import { FetchFailedError, type FetchedPage, FetchRefusedError, type Resolver, safeFetch } from '../preview/safe-fetch';
import { userAgent } from '../preview/service';
import { type BackgroundWorker, startBackgroundWorker } from './background-worker';
import { CLAIM_WINDOW, anyJobDue, budgetLeft, dueUnclaimed, holdHosts, hostFreeAt, onePerHost, spendBudget } from './fetch-politeness';
import { membershipsOf } from './memberships';

/**
 * Link health (issue 19): every link with a URL has a check row, due about weekly. The checker of
 * each server process claims due checks under a lease (exactly once across processes, like the
 * mail outbox), at most one request per host per second and LINK_CHECK_PER_MINUTE in all
 * (server/services/fetch-politeness.ts), and records what it found (shared/domain/link-health.ts
 * decides when a link is broken). A check asks HEAD; a site that answers HEAD with anything but
 * success is asked GET instead, a second later and from then on.
 */

type Q = Kysely<Database>;

/** Checks one process claims per round (one per host). */
export const LINK_CHECK_ROUND_MAX = 16;
export const LINK_CHECK_LEASE_MS = 2 * 60_000;
export const LINK_CHECK_BUSY_MS = 250;
export const LINK_CHECK_POLL_MS = 30_000;
const LINK_CHECK_REDIRECTS = 5;

export type CheckMethod = 'HEAD' | 'GET';
/** One request of a check: HEAD or GET, redirects followed, no body read. */
export type LinkFetcher = (url: string, method: CheckMethod) => Promise<FetchedPage>;

export interface LinkFetcherOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  publicUrl: string;
  policy?: HopPolicy;
  resolve?: Resolver;
}

export function createLinkFetcher(opts: LinkFetcherOptions): LinkFetcher {
  return (url, method) =>
    safeFetch(url, {
      method,
      policy: opts.policy ?? (opts.allowPrivate ? anyAddress : publicOnly),
      resolve: opts.resolve,
      // A redirect to the same site waits its turn there: the deadline allows for those waits.
      timeoutMs: opts.timeoutMs + LINK_CHECK_REDIRECTS * LINK_CHECK_HOST_SPACING_MS,
      sameHostHopDelayMs: LINK_CHECK_HOST_SPACING_MS,
      maxBytes: 0,
      maxRedirects: LINK_CHECK_REDIRECTS,
      headers: { 'user-agent': userAgent(opts.publicUrl), accept: 'text/html,*/*;q=0.5' },
      wantBody: () => false,
    });
}

const hostOf = (url: string) => new URL(url).hostname;

/** Schedules the first check of new links with a URL (in the transaction that saves them). */
export async function scheduleLinkChecks(
  trx: Q,
  links: readonly { id: string; url: string | null }[],
  now: Date,
  random = Math.random,
): Promise<void> {
  const rows = links.flatMap((l) => (l.url ? [{ link_id: l.id, host: hostOf(l.url), due_at: firstCheckAt(now, random()).toISOString() }] : []));
  if (rows.length > 0) await insertChecks(trx, rows);
}

const insertChecks = rowsTemplate<{ link_id: string; host: string; due_at: string }>(['link_id', 'host', 'due_at'], (db, rows) =>
  db.insertInto('link_checks').values(rows).onConflict((oc) => oc.column('link_id').doNothing()),
);

/**
 * A link's URL changed: what was learnt of the old one goes, and the new one is checked at once
 * (politely, by the worker). The caller clears links.broken_at in the same update.
 */
export async function restartLinkCheck(trx: Q, linkId: string, url: string | null, now: Date): Promise<void> {
  await trx.deleteFrom('link_checks').where('link_id', '=', linkId).execute();
  if (url) await insertChecks(trx, [{ link_id: linkId, host: hostOf(url), due_at: now.toISOString() }]);
}

export interface ClaimedCheck {
  link_id: string;
  host: string;
  url: string;
  method: CheckMethod;
  failures: number;
  last_failure_at: string | null;
  marked_fine: number;
  broken_at: string | null;
}

/**
 * Claims up to LINK_CHECK_ROUND_MAX due checks within the minute's budget, one per host free now,
 * among the CLAIM_WINDOW oldest, and books the budget and their hosts (for the lease: each check
 * frees its host LINK_CHECK_HOST_SPACING_MS after its request has ended), in one transaction.
 */
export async function claimLinkChecks(db: Db, perMinute: number, now: Date): Promise<{ token: string; checks: ClaimedCheck[] }> {
  const token = randomBytes(12).toString('hex');
  if (perMinute <= 0) return { token, checks: [] };
  const nowIso = now.toISOString();
  const checks = await db.kysely.transaction().execute(async (trx) => {
    const room = await budgetLeft(trx, db, 'checks', perMinute, LINK_CHECK_ROUND_MAX, now);
    if (room <= 0) return [];
    const head = trx
      .selectFrom('link_checks')
      .select(['link_id', 'host', 'due_at', 'method', 'failures', 'last_failure_at', 'marked_fine', 'last_result'])
      .where(dueUnclaimed(nowIso))
      .orderBy('due_at')
      .orderBy('link_id')
      .limit(CLAIM_WINDOW);
    const window = await trx
      .selectFrom(head.as('c'))
      .innerJoin('links as l', 'l.id', 'c.link_id')
      .leftJoin('fetch_hosts as h', 'h.host', 'c.host')
      .select(['c.link_id', 'c.host', 'l.url', 'c.method', 'c.failures', 'c.last_failure_at', 'c.marked_fine', 'l.broken_at', 'c.last_result', 'h.next_at', 'h.queued_until'])
      .where('l.url', 'is not', null)
      .orderBy('c.due_at')
      .orderBy('c.link_id')
      .execute();
    const free = window.filter((c) => c.next_at === null || c.next_at <= nowIso);
    const picked = onePerHost(free, room).map((c) => ({ ...c, url: c.url as string, method: c.method as CheckMethod }));
    if (picked.length > 0) {
      await trx
        .updateTable('link_checks')
        .set({ claimed_until: new Date(now.getTime() + LINK_CHECK_LEASE_MS).toISOString(), claim_token: token })
        .where('link_id', 'in', picked.map((p) => p.link_id))
        .execute();
      await holdHosts(trx, picked.map((p) => p.host), new Date(now.getTime() + LINK_CHECK_LEASE_MS));
      await spendBudget(trx, 'checks', picked.length, now);
    }
    await queueBehindHosts(trx, window, new Set(picked.map((p) => p.link_id)), room > picked.length, now);
    return picked;
  });
  return { token, checks };
}

type WindowRow = { link_id: string; host: string; last_result: string | null; next_at: string | null; queued_until: string | null };

/** What a HEAD answered that is to be asked again with GET ('HEAD 405'): that GET goes first at its host. */
const HEAD_ANSWERED = 'HEAD ';

/**
 * Lays out the window's checks on hosts busy now (or just claimed) one host turn apart, after what
 * each host already has laid out (fetch_hosts.queued_until). A backlog of one big site then leaves
 * the head of the queue to the other sites instead of filling it, and a GET asked after a HEAD
 * waits behind its own host only. A check moves when it reaches the head on a busy host. Only when
 * the round had room for more hosts (so none of the window is free): a round short of budget or of
 * LINK_CHECK_ROUND_MAX moves nothing.
 */
async function queueBehindHosts(trx: Q, window: readonly WindowRow[], picked: ReadonlySet<string>, hadRoom: boolean, now: Date): Promise<void> {
  if (!hadRoom) return;
  const nowMs = now.getTime();
  const laidOut = new Map<string, number>();
  const moves: { id: string; dueAt: string }[] = [];
  for (const c of window) {
    if (picked.has(c.link_id)) {
      laidOut.set(c.host, Math.max(laidOut.get(c.host) ?? 0, nowMs));
      continue;
    }
    const time = (iso: string | null) => (iso ? Date.parse(iso) : 0);
    if (c.last_result?.startsWith(HEAD_ANSWERED)) {
      // A check half done (its HEAD asked) takes the host's next turn, ahead of its backlog.
      moves.push({ id: c.link_id, dueAt: new Date(Math.max(nowMs + LINK_CHECK_HOST_SPACING_MS, time(c.next_at))).toISOString() });
      continue;
    }
    const after = laidOut.get(c.host) ?? Math.max(nowMs, time(c.queued_until));
    const at = after + LINK_CHECK_HOST_SPACING_MS;
    laidOut.set(c.host, at);
    moves.push({ id: c.link_id, dueAt: new Date(at).toISOString() });
  }
  if (moves.length === 0) return;
  await trx
    .updateTable('link_checks')
    .set({ due_at: sql<string>`case link_id ${sql.join(moves.map((m) => sql`when ${m.id} then ${m.dueAt}`), sql` `)} end` })
    .where('link_id', 'in', moves.map((m) => m.id))
    .execute();
  if (laidOut.size === 0) return;
  const nowIso = now.toISOString();
  await trx
    .insertInto('fetch_hosts')
    .values([...laidOut].map(([host, until]) => ({ host, next_at: nowIso, queued_until: new Date(until).toISOString() })))
    .onConflict((oc) => oc.column('host').doUpdateSet((eb) => ({ queued_until: eb.ref('excluded.queued_until') })))
    .execute();
}

/** Seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: Date): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/** A redirect from a page to the site's home page: what many sites answer for a page they removed. */
function redirectedHome(from: URL, page: FetchedPage): boolean {
  const home = page.url.pathname === '/' && page.url.search === '';
  return page.redirects > 0 && home && (from.pathname !== '/' || from.search !== '');
}

/** What one answer says of the link; 'try-get' when a HEAD answer is not to be trusted. */
export function outcomeOf(url: string, method: CheckMethod, page: FetchedPage, now: Date): CheckOutcome | 'try-get' {
  const { status } = page;
  const retry = retryAfterMs(page.headers['retry-after'], now);
  if (status === 429 || (status === 503 && retry !== null)) return { kind: 'later', result: String(status), retryAfterMs: retry ?? 60_000 };
  if (status >= 200 && status < 400) {
    return redirectedHome(new URL(url), page) ? { kind: 'dead', result: 'home' } : { kind: 'ok' };
  }
  if (method === 'HEAD') return 'try-get';
  if (status === 404 || status === 410) return { kind: 'dead', result: String(status) };
  if (status >= 500) return { kind: 'failing', result: String(status) };
  return { kind: 'unknown', result: String(status) };
}

/** What a fetch that threw says of the link. */
export function outcomeOfError(err: unknown): CheckOutcome {
  if (err instanceof FetchRefusedError) return { kind: 'unknown', result: 'refused' };
  if (err instanceof FetchFailedError) {
    return err.kind === 'dns' || err.kind === 'tls' ? { kind: 'dead', result: err.kind } : { kind: 'failing', result: err.kind };
  }
  throw err;
}

export interface LinkCheckDeps {
  db: Db;
  fetcher: LinkFetcher;
  perMinute: number;
  random?: () => number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** Asks the link's site once and records what it said (only while the claim is still ours). */
async function check(deps: LinkCheckDeps, token: string, job: ClaimedCheck, now: Date, started: number): Promise<void> {
  let outcome: CheckOutcome | 'try-get';
  let headStatus = 0;
  try {
    const page = await deps.fetcher(job.url, job.method);
    headStatus = page.status;
    outcome = outcomeOf(job.url, job.method, page, now);
  } catch (err) {
    outcome = outcomeOfError(err);
  }
  const ours = (q: Q) => q.updateTable('link_checks').where('link_id', '=', job.link_id).where('claim_token', '=', token);
  const released = { claimed_until: null, claim_token: null };
  // The host's next turn is a spacing after this request ended, on the round's clock (`now` is when
  // the round began, `started` too on the monotonic clock: the claim's time counts).
  const nextTurn = new Date(now.getTime() + (performance.now() - started) + LINK_CHECK_HOST_SPACING_MS);
  if (outcome === 'try-get') {
    // The GET waits for the host's next turn; still due since its own turn came, it goes ahead of
    // the host's backlog.
    await deps.db.kysely.transaction().execute(async (trx) => {
      await ours(trx)
        .set({ ...released, method: 'GET', last_result: `${HEAD_ANSWERED}${headStatus}` })
        .execute();
      await hostFreeAt(trx, job.host, nextTurn);
    });
    return;
  }
  const before: LinkHealth = {
    failures: job.failures,
    lastFailureAt: job.last_failure_at,
    markedFine: job.marked_fine === 1,
    brokenAt: job.broken_at,
  };
  const found = outcome;
  const { health, dueAt } = afterCheck(before, found, now, (deps.random ?? Math.random)());
  await deps.db.kysely.transaction().execute(async (trx) => {
    const updated = await ours(trx)
      .set({
        ...released,
        failures: health.failures,
        last_failure_at: health.lastFailureAt,
        marked_fine: health.markedFine ? 1 : 0,
        last_result: found.kind === 'ok' ? 'ok' : found.result,
        checked_at: now.toISOString(),
        due_at: dueAt.toISOString(),
      })
      .executeTakeFirst();
    await hostFreeAt(trx, job.host, found.kind === 'later' && dueAt > nextTurn ? dueAt : nextTurn);
    if (Number(updated.numUpdatedRows) === 0) return;
    if (health.brokenAt !== job.broken_at) {
      await trx.updateTable('links').set({ broken_at: health.brokenAt }).where('id', '=', job.link_id).execute();
    }
  });
}

/** One round: claim, then check the claimed links side by side. Answers how many were claimed. */
export async function runLinkCheckRound(deps: LinkCheckDeps, now = new Date()): Promise<number> {
  const started = performance.now();
  const { token, checks } = await claimLinkChecks(deps.db, deps.perMinute, now);
  await Promise.all(
    checks.map((job) =>
      check(deps, token, job, now, started).catch((err: unknown) => deps.log?.warn({ err, url: job.url }, 'link check failed')),
    ),
  );
  return checks.length;
}

/** The checker of a server process; nothing runs when LINK_CHECK_PER_MINUTE is 0. */
export function startLinkChecker(deps: LinkCheckDeps): BackgroundWorker {
  return startBackgroundWorker({
    name: 'link checks',
    enabled: deps.perMinute > 0,
    busyMs: LINK_CHECK_BUSY_MS,
    idleMs: LINK_CHECK_POLL_MS,
    anyDue: (now) => anyJobDue(deps.db, 'link_checks', now),
    round: (now) => runLinkCheckRound(deps, now),
    log: deps.log,
  });
}

// ---------------------------------------------------------------------------------------------
// What curators see and do.

/** "Broken links (n)" of My Feed: the viewer's own broken links. */
export async function countBrokenLinks(db: Q, viewer: Viewer): Promise<number> {
  const row = await db
    .selectFrom('links')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', viewer.id)
    .where('broken_at', 'is not', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** "Broken links (n)" of a collection, for its editors (404 'Supercuration not found' to anyone else). */
export async function countBrokenInCollection(db: Q, viewer: Viewer, supercurationId: string): Promise<number> {
  await requireEditable(db, viewer, supercurationId);
  const row = await db
    .selectFrom('supercuration_links as sl')
    .innerJoin('links as l', 'l.id', 'sl.link_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('sl.supercuration_id', '=', supercurationId)
    .where('l.broken_at', 'is not', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * "Mark as fine", by whoever may edit the link (its author, or an editor of a collection holding
 * it): the badge goes, and the checker counts no failure until the link has worked once more.
 */
export async function markLinkFine(db: Db, viewer: Viewer, id: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const link = await trx.selectFrom('links').select(['id', 'user_id']).where('id', '=', id).where(linkVisibleTo(viewer.id)).executeTakeFirst();
    if (!link) throw notFound(LINK_MESSAGES.linkNotFound);
    if (!canEditLink(viewer, { userId: link.user_id }, await membershipsOf(trx, viewer.id, [id]))) {
      throw forbidden(LINK_MESSAGES.cannotEditLink);
    }
    await trx.updateTable('links').set({ broken_at: null }).where('id', '=', id).execute();
    await trx.updateTable('link_checks').set({ failures: 0, last_failure_at: null, marked_fine: 1 }).where('link_id', '=', id).execute();
  });
}
