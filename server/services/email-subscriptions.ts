import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type EmailSubscribeResult,
  type EmailSubscriberGroup,
  paths,
  SUPERCURATION_MESSAGES,
} from '../../shared/domain';
import { collectionAccess, toAccess } from '../access/supercurations';
import type { Db } from '../db';
import { newId } from '../db/ids';
import { notFound } from '../errors';
import { enqueueMails } from '../mail/outbox';
import { renderEmail } from '../mail/render';
import { canSubscribeByEmail } from '../policies/supercurations';
import { perCollection } from '../presenters/per-collection';

/**
 * Collection e-mail subscriptions with double opt-in (SPEC §4). A subscription is
 * stored unconfirmed with the sha256 of a random 32-byte confirmation token, which is only ever in
 * the confirmation mail; the link confirms it. Only confirmed addresses get digests.
 *
 * Unsubscribe links carry `{subscriber id}.{HMAC-SHA256(AUTH_SECRET, id)}` instead: digests go out
 * long after the confirmation token is gone (only its hash is stored), and the signature needs no
 * stored secret per row. Deleting the row makes the link void.
 */

export interface MailDeps {
  db: Db;
  /** Nudges the outbox worker (server/mail/outbox.ts) once queued mail is committed. */
  wakeOutbox(): void;
  publicUrl: string;
  /** AUTH_SECRET: the key of unsubscribe tokens. */
  secret: string;
  log?: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** Re-subscribing an unconfirmed address re-sends the confirmation at most this often. */
export const CONFIRMATION_RESEND_MINUTES = 10;
/** Confirmation mails per address (all collections together) per 24 hours. */
export const CONFIRMATIONS_PER_ADDRESS_PER_DAY = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What an unsubscribe token stops: a collection e-mail subscription (by subscriber id) or a reader's digest (by user id). */
export type UnsubscribePurpose = 'email-unsubscribe' | 'reader-digest-unsubscribe';

function signature(secret: string, purpose: UnsubscribePurpose, id: string): Buffer {
  return createHmac('sha256', secret).update(`${purpose}:${id}`).digest();
}

export function unsubscribeToken(secret: string, id: string, purpose: UnsubscribePurpose = 'email-unsubscribe'): string {
  return `${id}.${signature(secret, purpose, id).toString('base64url')}`;
}

/** The id of a well-signed unsubscribe token for this purpose, else null. */
export function verifyUnsubscribeToken(secret: string, token: string, purpose: UnsubscribePurpose = 'email-unsubscribe'): string | null {
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const id = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = signature(secret, purpose, id);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

export const unsubscribeUrl = (deps: Pick<MailDeps, 'publicUrl' | 'secret'>, subscriberId: string) =>
  `${deps.publicUrl}/subscriptions/unsubscribe?token=${encodeURIComponent(unsubscribeToken(deps.secret, subscriberId))}`;

export const publicPageUrl = (publicUrl: string, slug: string) => `${publicUrl}${paths.publicSupercuration(slug)}`;

/**
 * Takes one confirmation mail from the address's daily quota; false when it is used up. Each step is
 * one conditional statement, so concurrent requests cannot both take the last one.
 */
async function takeAddressQuota(db: Db, email: string, at: Date): Promise<boolean> {
  const key = sha256(email);
  const iso = at.toISOString();
  const windowOpen = new Date(at.getTime() - DAY_MS).toISOString();
  const within = await db.kysely
    .updateTable('email_send_limits')
    .set((eb) => ({ count: eb('count', '+', 1) }))
    .where('email', '=', key)
    .where('window_start', '>', windowOpen)
    .where('count', '<', CONFIRMATIONS_PER_ADDRESS_PER_DAY)
    .executeTakeFirst();
  if (Number(within.numUpdatedRows) > 0) return true;
  const renewed = await db.kysely
    .updateTable('email_send_limits')
    .set({ window_start: iso, count: 1 })
    .where('email', '=', key)
    .where('window_start', '<=', windowOpen)
    .executeTakeFirst();
  if (Number(renewed.numUpdatedRows) > 0) return true;
  const inserted = await db.kysely
    .insertInto('email_send_limits')
    .values({ email: key, window_start: iso, count: 1 })
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Subscribe by e-mail: public collections only. A new address is stored unconfirmed and gets a
 * confirmation mail; an unconfirmed one gets a new one (new token) at most every
 * CONFIRMATION_RESEND_MINUTES and within the address's daily quota; a confirmed one gets nothing.
 * Rows are never duplicated, and the answer is the same in every case (no address enumeration).
 * The mail goes through the outbox: the answer never waits for (nor reports) the SMTP server.
 */
export async function subscribeByEmail(deps: MailDeps, id: string, email: string, at = new Date()): Promise<EmailSubscribeResult> {
  const { db } = deps;
  const thanks = { message: SUPERCURATION_MESSAGES.subscribeThanks };
  const collection = await collectionAccess(db.kysely, null)
    .innerJoin('supercurations as sc', 'sc.id', 's.id')
    .select(['sc.title', 'sc.slug'])
    .where('s.id', '=', id)
    .executeTakeFirst();
  if (!collection || !canSubscribeByEmail(toAccess(collection))) throw notFound(SUPERCURATION_MESSAGES.notFound);
  const iso = at.toISOString();
  await db.kysely
    .insertInto('email_subscribers')
    .values({
      id: newId(),
      supercuration_id: id,
      email,
      confirmed_at: null,
      // Replaced when the confirmation mail is sent: nobody knows this one.
      token_hash: sha256(randomBytes(32).toString('base64url')),
      created_at: iso,
      confirm_sent_at: null,
    })
    .onConflict((oc) => oc.columns(['supercuration_id', 'email']).doNothing())
    .execute();
  const row = await db.kysely
    .selectFrom('email_subscribers')
    .select(['id', 'confirmed_at', 'confirm_sent_at'])
    .where('supercuration_id', '=', id)
    .where('email', '=', email)
    .executeTakeFirst();
  if (!row || row.confirmed_at) return thanks;
  const resendAfter = new Date(at.getTime() - CONFIRMATION_RESEND_MINUTES * 60_000).toISOString();
  if (row.confirm_sent_at && row.confirm_sent_at > resendAfter) return thanks;
  if (!(await takeAddressQuota(db, email, at))) return thanks;
  const token = randomBytes(32).toString('base64url');
  const confirmUrl = `${deps.publicUrl}/subscriptions/confirm?token=${encodeURIComponent(token)}`;
  const unsubscribe = unsubscribeUrl(deps, row.id);
  const bodies = renderEmail({
    heading: `Confirm your subscription to ${collection.title}`,
    paragraphs: [
      `Someone, hopefully you, asked to receive e-mail updates when new resources are added to "${collection.title}" on Supercurate.`,
      'Please confirm your subscription with the button below. If you did not ask for it, ignore this e-mail: you will not receive anything else.',
    ],
    action: { label: 'Confirm subscription', url: confirmUrl },
    footer: `This e-mail was sent to ${email} because the address was entered on a Supercurate collection page.`,
    unsubscribeUrl: unsubscribe,
  });
  // The new token and its mail commit together; the worker sends it (the response doesn't wait for SMTP).
  const queued = await db.kysely.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('email_subscribers')
      .set({ token_hash: sha256(token), confirm_sent_at: iso })
      .where('id', '=', row.id)
      .where('confirmed_at', 'is', null)
      .where((eb) => eb.or([eb('confirm_sent_at', 'is', null), eb('confirm_sent_at', '<=', resendAfter)]))
      .executeTakeFirst();
    // A concurrent request of the same address queued it.
    if (Number(claimed.numUpdatedRows) === 0) return false;
    const subject = `Confirm your subscription to ${collection.title}`;
    await enqueueMails(trx, deps.publicUrl, [
      { kind: 'confirmation', subscriberId: row.id, to: email, subject, ...bodies, unsubscribeUrl: unsubscribe },
    ]);
    return true;
  });
  if (queued) deps.wakeOutbox();
  return thanks;
}

/** The collection of a confirmed subscription, or null when the token is unknown. Idempotent. */
export async function confirmSubscription(db: Db, token: string, at = new Date()) {
  if (!token || token.length > 200) return null;
  const hash = sha256(token);
  const row = await db.kysely
    .selectFrom('email_subscribers as e')
    .innerJoin('supercurations as s', 's.id', 'e.supercuration_id')
    .select(['e.id', 'e.confirmed_at', 's.id as supercuration_id', 's.title', 's.slug', 's.is_public'])
    .where('e.token_hash', '=', hash)
    .executeTakeFirst();
  if (!row) return null;
  if (!row.confirmed_at) {
    const iso = at.toISOString();
    await db.kysely.updateTable('email_subscribers').set({ confirmed_at: iso }).where('id', '=', row.id).where('confirmed_at', 'is', null).execute();
    // The digest window starts now for a collection nobody followed yet (older resources aren't news).
    await db.kysely
      .insertInto('digest_state')
      .values({ supercuration_id: row.supercuration_id, last_sent_at: iso })
      .onConflict((oc) => oc.column('supercuration_id').doNothing())
      .execute();
  }
  return { title: row.title, slug: Number(row.is_public) === 1 ? row.slug : null };
}

/** The collection an unsubscribe token is about, or null (bad signature, or already unsubscribed). */
export async function subscriptionOfToken(db: Db, secret: string, token: string) {
  const id = verifyUnsubscribeToken(secret, token);
  if (!id) return null;
  const row = await db.kysely
    .selectFrom('email_subscribers as e')
    .innerJoin('supercurations as s', 's.id', 'e.supercuration_id')
    .select(['e.id', 's.title'])
    .where('e.id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

/** Deletes the subscription at once. 'invalid' for a bad signature; 'gone' when already deleted. */
export async function unsubscribe(db: Db, secret: string, token: string): Promise<'unsubscribed' | 'gone' | 'invalid'> {
  const id = verifyUnsubscribeToken(secret, token);
  if (!id) return 'invalid';
  const deleted = await db.kysely.deleteFrom('email_subscribers').where('id', '=', id).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0 ? 'unsubscribed' : 'gone';
}

/** The owner's collections' confirmed e-mail subscribers, per collection (dashboard). */
export async function ownerEmailSubscribers(db: Db, ownerId: string): Promise<EmailSubscriberGroup[]> {
  const rows = await db.kysely
    .selectFrom('email_subscribers as e')
    .innerJoin('supercurations as s', 's.id', 'e.supercuration_id')
    .select(['s.id as supercuration_id', 's.title', 'e.email', 'e.confirmed_at'])
    .where('s.user_id', '=', ownerId)
    .where('e.confirmed_at', 'is not', null)
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id')
    .orderBy('e.confirmed_at', 'desc')
    .limit(10_000)
    .execute();
  return perCollection(rows).map(({ supercurationId, title, rows: subscribers }) => ({
    supercurationId,
    title,
    subscribers: subscribers.map((r) => ({ email: r.email, confirmedAt: r.confirmed_at ?? '' })),
  }));
}
