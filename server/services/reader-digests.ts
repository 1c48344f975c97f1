import { type Kysely, sql } from 'kysely';
import { DEFAULT_DIGEST_FREQUENCY, DIGEST_FREQUENCIES, type DigestFrequency, type ReaderDigestSettings } from '../../shared/domain';
import type { Db } from '../db';
import { now } from '../db/ids';
import type { Database } from '../db/schema';
import { type MailDeps, unsubscribeToken, verifyUnsubscribeToken } from './email-subscriptions';

/**
 * The reader's digest setting (reader_digests, migration 0018). The e-mail itself is built by
 * server/mail/reader-digest.ts. A reader without a row gets the default (weekly) from their first
 * follow on, when the row is made: what was published before they followed is not news to them.
 */

/** Makes the reader's row, weekly from now, unless they have one. Runs in the caller's transaction (a follow). */
export async function ensureReaderDigest(trx: Kysely<Database>, userId: string): Promise<void> {
  await trx
    .insertInto('reader_digests')
    .values({ user_id: userId, frequency: DEFAULT_DIGEST_FREQUENCY, sent_up_to: now() })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

/** The setting of a reader's row (undefined: no row yet). */
export const digestSettingsOf = (row: { frequency: string } | undefined): ReaderDigestSettings => ({
  frequency: DIGEST_FREQUENCIES.find((f) => f === row?.frequency) ?? DEFAULT_DIGEST_FREQUENCY,
});

export async function readerDigestSettings(db: Db, userId: string): Promise<ReaderDigestSettings> {
  return digestSettingsOf(await db.kysely.selectFrom('reader_digests').select('frequency').where('user_id', '=', userId).executeTakeFirst());
}

/**
 * Sets the frequency. Turned on again after Off, the digest starts from now: what was published
 * while it was off is not sent as one late pile. Between Daily and Weekly the period goes on.
 */
export async function setReaderDigest(db: Db, userId: string, frequency: DigestFrequency): Promise<ReaderDigestSettings> {
  const at = now();
  await db.kysely
    .insertInto('reader_digests')
    .values({ user_id: userId, frequency, sent_up_to: at })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        frequency,
        sent_up_to: sql<string>`case when reader_digests.frequency = 'off' then ${at} else reader_digests.sent_up_to end`,
      }),
    )
    .execute();
  return { frequency };
}

const PURPOSE = 'reader-digest-unsubscribe';

/** The one-click unsubscribe URL of a reader's digest: it turns the setting Off. */
export const digestUnsubscribeUrl = (deps: Pick<MailDeps, 'publicUrl' | 'secret'>, userId: string) =>
  `${deps.publicUrl}/digest/unsubscribe?token=${encodeURIComponent(unsubscribeToken(deps.secret, userId, PURPOSE))}`;

/** The reader of a well-signed digest unsubscribe token who still has an account, else null. */
export async function digestReaderOfToken(db: Db, secret: string, token: string): Promise<string | null> {
  const userId = verifyUnsubscribeToken(secret, token, PURPOSE);
  if (!userId) return null;
  const user = await db.kysely.selectFrom('user').select('id').where('id', '=', userId).executeTakeFirst();
  return user ? user.id : null;
}

/** One-click unsubscribe: the reader's digest turns Off (every reader who got one has a row; a deleted account has none). */
export async function unsubscribeDigest(db: Db, secret: string, token: string): Promise<'unsubscribed' | 'invalid'> {
  const userId = verifyUnsubscribeToken(secret, token, PURPOSE);
  if (!userId) return 'invalid';
  await db.kysely.updateTable('reader_digests').set({ frequency: 'off' }).where('user_id', '=', userId).execute();
  return 'unsubscribed';
}
