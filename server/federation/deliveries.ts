import { type Activity, type Context, Delete, type Federation, Follow, PUBLIC_COLLECTION, Reject, Tombstone, Update, signRequest } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import type { Selectable } from 'kysely';
import type { Db } from '../db';
import { claimDueRows } from '../db/leases';
import type { DeliveryRun } from './delivery-worker';
import type { Database } from '../db/schema';
import { backoffSeconds } from '../mail/outbox';
import type { HopPolicy } from '../preview/address-policy';
import { FetchRefusedError, safeFetch } from '../preview/safe-fetch';
import { isBlockedHost } from './blocked-hosts';
import { actorIdentifier } from './collection-actors';
import { actorKeyPairs } from './keys';
import { personIdentifier } from './person-actors';
import { noteUri, resourceAnnounce, resourceCreate, resourceNote, resourceRows } from './notes';

/**
 * Sends the activities queued in federation_deliveries (server/services/fediverse.ts):
 * each process's worker claims due rows under a lease (server/db/leases.ts, as the mail outbox), so
 * a row is sent by one process at a time; a process that dies mid-batch leaves its rows to another
 * once the lease ends. A row's activity is built when it is sent, from the current rows: a resource
 * removed before its Create went out is not announced at all. A Reject (a follower removed by the
 * owner) goes to that follower's own inbox. A row with a user_id is sent as that user's Person
 * (its Announce of a collection's Note, its Reject), any other as the collection's Group. Each POST is signed (HTTP
 * Signatures, the collection's RSA key) and made through the SSRF guard: an inbox is a URL a remote
 * server gave us. 2xx: sent. 4xx (but 408 and 429): refused for good. Anything else is retried
 * after 1 min, 2, 4… (6 h at most), 8 attempts in all.
 */

type DeliveryRow = Selectable<Database['federation_deliveries']>;

export interface DeliveryOptions {
  db: Db;
  federation: Federation<void>;
  publicUrl: string;
  /** Which addresses an inbox may have (public only, unless PREVIEW_ALLOW_PRIVATE). */
  policy: HopPolicy;
  timeoutMs: number;
  /** FEDERATION_BLOCKED_HOSTS: inboxes there are sent nothing (their rows are cancelled). */
  blockedHosts: readonly string[];
  log: { warn(obj: object, msg: string): void };
}

export const DELIVERY_MAX_ATTEMPTS = 8;
const RETRY_SECONDS = 60;
const LEASE_MS = 5 * 60_000;
const BATCH = 100;
/** POSTs in flight at once, per process. */
const CONCURRENCY = 8;


/** Who sends a row: the user's Person (an Announce, or their Reject), else the collection's Group. */
const senderOf = (row: DeliveryRow) =>
  row.user_id ? personIdentifier(row.user_id) : row.supercuration_id ? actorIdentifier(row.supercuration_id) : null;

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/** The activity a row stands for, as JSON-LD; null when there is nothing to say any more. */
async function activityOf(o: DeliveryOptions, ctx: Context<void>, row: DeliveryRow): Promise<object | null> {
  const sender = senderOf(row);
  if (!sender) return null;
  const actorUri = ctx.getActorUri(sender);
  const stamp = Date.parse(row.created_at);
  const collectionId = row.supercuration_id;
  let activity: Activity;
  if (row.activity === 'reject') {
    if (!row.follow_uri || !row.follower_uri) return null;
    activity = new Reject({
      id: new URL(`#reject-${stamp}`, actorUri),
      actor: actorUri,
      object: new Follow({ id: new URL(row.follow_uri), actor: new URL(row.follower_uri), object: actorUri }),
    });
  } else if (!collectionId) {
    return null;
  } else if (row.activity === 'create' || row.activity === 'update' || row.activity === 'announce') {
    const [resource] = await resourceRows(o.db.kysely, { supercurationId: collectionId }, { linkIds: row.link_id ? [row.link_id] : [] });
    if (!resource) return null;
    // The Note is always the collection's: a curator's Person announces it.
    const author = ctx.getActorUri(actorIdentifier(collectionId));
    const note = resourceNote(o.publicUrl, author, resource);
    if (row.activity === 'create') activity = resourceCreate(o.publicUrl, actorUri, resource);
    else if (row.activity === 'announce') activity = resourceAnnounce(actorUri, note, stamp);
    else activity = new Update({ id: new URL(`#update-${stamp}`, note.id ?? actorUri), actor: actorUri, object: note, to: PUBLIC_COLLECTION });
  } else {
    const object = row.activity === 'delete' && row.link_id ? noteUri(o.publicUrl, collectionId, row.link_id) : actorUri;
    activity = new Delete({
      id: new URL(`#delete-${stamp}`, object),
      actor: actorUri,
      object: new Tombstone({ id: object, deleted: Temporal.Instant.fromEpochMilliseconds(stamp) }),
      to: PUBLIC_COLLECTION,
    });
  }
  return activity.toJsonLd({ format: 'compact', contextLoader: ctx.contextLoader }) as Promise<object>;
}

/** Claims one batch of due rows and sends it. */
export async function deliverDueOnce(o: DeliveryOptions, now = new Date()): Promise<DeliveryRun> {
  const db = o.db.kysely;
  const { token, rows } = await claimDueRows(o.db, 'federation_deliveries', BATCH, LEASE_MS, now);
  const run: DeliveryRun = { claimed: rows.length, sent: 0, retrying: 0, failed: 0, cancelled: 0 };
  const ctx = o.federation.createContext(new URL(o.publicUrl), undefined);
  const mine = (id: string) => db.updateTable('federation_deliveries').where('id', '=', id).where('claim_token', '=', token);
  const finish = (id: string, status: 'sent' | 'failed' | 'cancelled', lastError: string | null = null) =>
    mine(id)
      .set({ status, claimed_until: null, claim_token: null, last_error: lastError, ...(status === 'sent' ? { sent_at: new Date().toISOString() } : {}) })
      .execute();

  // One body per event (an activity about one resource, queued at one time), whatever its inboxes.
  const bodies = new Map<string, Promise<Buffer | null>>();
  const bodyOf = (row: DeliveryRow) => {
    const key = `${row.activity} ${row.supercuration_id} ${row.user_id} ${row.link_id} ${row.created_at}`;
    let body = bodies.get(key);
    if (!body) {
      body = activityOf(o, ctx, row).then((json) => (json ? Buffer.from(JSON.stringify(json)) : null));
      bodies.set(key, body);
    }
    return body;
  };
  const keys = new Map<string, Promise<CryptoKeyPair | undefined>>();
  const keyOf = (sender: string) => {
    let key = keys.get(sender);
    if (!key) {
      key = actorKeyPairs(db, sender).then((pairs) => pairs[0]);
      keys.set(sender, key);
    }
    return key;
  };

  const sendOne = async (row: DeliveryRow) => {
    if (isBlockedHost(new URL(row.inbox_uri).hostname, o.blockedHosts)) {
      await finish(row.id, 'cancelled', 'Blocked host');
      run.cancelled += 1;
      return;
    }
    const sender = senderOf(row);
    const body = await bodyOf(row);
    const key = sender ? await keyOf(sender) : undefined;
    if (!sender || !body || !key) {
      await finish(row.id, 'cancelled', 'Nothing to send any more');
      run.cancelled += 1;
      return;
    }
    const keyId = new URL('#main-key', ctx.getActorUri(sender));
    let error: string;
    let retry = true;
    try {
      const signed = await signRequest(
        new Request(row.inbox_uri, {
          method: 'POST',
          headers: { 'content-type': 'application/activity+json', accept: 'application/activity+json' },
          body: new Uint8Array(body),
        }),
        key.privateKey,
        keyId,
      );
      const res = await safeFetch(row.inbox_uri, {
        method: 'POST',
        body,
        headers: Object.fromEntries(signed.headers),
        policy: o.policy,
        timeoutMs: o.timeoutMs,
        maxBytes: 0,
        maxRedirects: 0,
        wantBody: () => false,
      });
      if (res.status >= 200 && res.status < 300) {
        await finish(row.id, 'sent');
        run.sent += 1;
        return;
      }
      error = `HTTP ${res.status}`;
      retry = res.status >= 500 || res.status === 408 || res.status === 429 || (res.status >= 300 && res.status < 400);
    } catch (err) {
      error = errorText(err);
      retry = !(err instanceof FetchRefusedError);
    }
    if (retry && row.attempts < DELIVERY_MAX_ATTEMPTS) {
      const retryAt = new Date(now.getTime() + backoffSeconds(RETRY_SECONDS, row.attempts) * 1000).toISOString();
      await mine(row.id).set({ next_attempt_at: retryAt, claimed_until: null, claim_token: null, last_error: error }).execute();
      run.retrying += 1;
    } else {
      await finish(row.id, 'failed', error);
      run.failed += 1;
      o.log.warn({ delivery: row.id, inbox: row.inbox_uri, attempts: row.attempts, err: error }, 'ActivityPub delivery failed; giving up');
    }
  };

  let next = 0;
  const lane = async () => {
    for (let row = rows[next++]; row; row = rows[next++]) await sendOne(row);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return run;
}
