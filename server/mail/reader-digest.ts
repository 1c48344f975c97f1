import { type DigestFrequency, READER_DIGEST_MAX_ITEMS, cap, paths } from '../../shared/domain';
import type { Db } from '../db';
import { httpUrlOrNull } from '../feeds/rss';
import { userCard } from '../presenters/users';
import type { MailDeps } from '../services/email-subscriptions';
import { type ItemRow, followedItems } from '../services/following-feed';
import { digestUnsubscribeUrl } from '../services/reader-digests';
import { DIGEST_SETTLE_MS } from './digest';
import { type QueuedMail, enqueueMails } from './outbox';
import { type EmailSection, renderEmail } from './render';

/**
 * The personal digest (issue 20): one e-mail per reader per day or week with what the curators and
 * collections they follow published since the last one: the Following feed's items of the period
 * (server/services/following-feed.ts), as that reader may see them, file imports left out. Only to verified addresses.
 *
 * Exactly once, as collection digests (./digest.ts): reader_digests.sent_up_to is the time up to
 * which the reader's items have been considered. A reader is due one period after it; a process
 * claims them by a compare-and-set UPDATE of sent_up_to (and of the frequency it read), and the
 * claim and the mail commit in one transaction. A reader with nothing new is claimed all the same,
 * with no mail. The outbox (./outbox.ts) sends, with retries.
 */

const PERIOD_MS: Record<Exclude<DigestFrequency, 'off'>, number> = { daily: 86_400_000, weekly: 7 * 86_400_000 };
/** Readers claimed per pass; the timer runs passes until none is due. */
export const READER_DIGEST_BATCH = 200;
/** A description in the mail is cut to this many characters. */
const DESCRIPTION_MAX = 200;

export interface ReaderDigestRun {
  /** Readers claimed (with or without news). */
  readers: number;
  /** Mails queued in the outbox. */
  mails: number;
}

interface DueReader {
  user_id: string;
  frequency: string;
  sent_up_to: string;
}

/** One pass: claims up to READER_DIGEST_BATCH due readers and queues the digests of those with news. `now` is injectable for tests. */
export async function runReaderDigestsOnce(deps: MailDeps, now = new Date()): Promise<ReaderDigestRun> {
  const { db } = deps;
  const upTo = new Date(now.getTime() - DIGEST_SETTLE_MS).toISOString();
  const due = await db.kysely
    .selectFrom('reader_digests')
    .select(['user_id', 'frequency', 'sent_up_to'])
    .where((eb) =>
      eb.or(
        Object.entries(PERIOD_MS).map(([frequency, ms]) =>
          eb.and([eb('frequency', '=', frequency), eb('sent_up_to', '<=', new Date(now.getTime() - ms).toISOString())]),
        ),
      ),
    )
    .orderBy('sent_up_to')
    .limit(READER_DIGEST_BATCH)
    .execute();
  const run: ReaderDigestRun = { readers: 0, mails: 0 };
  for (const reader of due) {
    // Built before the write transaction (SQLite has one writer at a time): the items are fixed by (sent_up_to, upTo].
    const mail = await readerDigestMail(db, deps, reader, upTo);
    const queued = await db.kysely.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('reader_digests')
        .set({ sent_up_to: upTo })
        .where('user_id', '=', reader.user_id)
        .where('sent_up_to', '=', reader.sent_up_to)
        .where('frequency', '=', reader.frequency)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return null; // another process has it, or the setting changed
      return mail ? enqueueMails(trx, deps.publicUrl, [mail]) : 0;
    });
    if (queued === null) continue;
    run.readers += 1;
    run.mails += queued;
  }
  if (run.mails > 0) deps.wakeOutbox();
  return run;
}

/** Passes until no reader is due, or until `shouldStop` (server shutdown): a server's timer tick. */
export async function drainReaderDigests(deps: MailDeps, now = new Date(), shouldStop: () => boolean = () => false): Promise<ReaderDigestRun> {
  const total: ReaderDigestRun = { readers: 0, mails: 0 };
  for (;;) {
    const run = await runReaderDigestsOnce(deps, now);
    total.readers += run.readers;
    total.mails += run.mails;
    if (run.readers < READER_DIGEST_BATCH || shouldStop()) return total;
  }
}

/** The reader's digest of (sent_up_to, upTo], or null when there is nothing new. */
async function readerDigestMail(db: Db, deps: MailDeps, reader: DueReader, upTo: string): Promise<QueuedMail | null> {
  // Items strictly after sent_up_to: the previous digest had those at it (times are whole milliseconds).
  const since = new Date(new Date(reader.sent_up_to).getTime() + 1).toISOString();
  const recipient = await db.kysely.selectFrom('user').select(['email', 'emailVerified']).where('id', '=', reader.user_id).executeTakeFirst();
  // Only to a verified address: signing up with someone else's must not subscribe them to anything.
  if (!recipient || Number(recipient.emailVerified) !== 1) return null;
  const rows = await followedItems(
    db,
    { viewer: reader.user_id, since, until: upTo, format: undefined, cursor: [], imports: false },
    { sources: null, floor: since, limit: READER_DIGEST_MAX_ITEMS, total: true },
  );
  if (rows.length === 0) return null;
  const links = await db.kysely
    .selectFrom('links')
    .select(['id', 'title', 'url', 'description'])
    .where('id', 'in', [...new Set(rows.map((r) => r.link_id))])
    .execute();
  const byId = new Map(links.map((l) => [l.id, l]));
  const total = Number(rows[0]?.total ?? rows.length);
  const more = total - rows.length;
  const period = reader.frequency === 'daily' ? 'daily' : 'weekly';
  const following = `${deps.publicUrl}${paths.following}`;
  const unsubscribe = digestUnsubscribeUrl(deps, reader.user_id);
  const count = `${total} new link${total === 1 ? '' : 's'}`;
  const bodies = renderEmail({
    heading: `Your ${period} digest`,
    paragraphs: [`${count} from the curators and collections you follow on Supercurate.`],
    sections: sectionsOf(deps.publicUrl, rows, byId),
    action: { label: more > 0 ? `And ${more} more in your Following feed` : 'Open your Following feed', url: following },
    footer: `You receive this e-mail because you follow curators and collections on Supercurate and chose a ${period} digest. Change it in your settings: ${deps.publicUrl}${paths.settings}`,
    unsubscribeUrl: unsubscribe,
  });
  return { kind: 'reader-digest', to: recipient.email, subject: `Your ${period} digest: ${count} from who you follow`, ...bodies, unsubscribeUrl: unsubscribe };
}

type DigestLink = { id: string; title: string; url: string | null; description: string };

/** Items grouped by where they come from: a collection for additions, else the curator; groups in order of their newest item. */
function sectionsOf(publicUrl: string, rows: ItemRow[], links: Map<string, DigestLink>): EmailSection[] {
  const sections = new Map<string, EmailSection>();
  for (const r of rows) {
    const link = links.get(r.link_id);
    if (!link) continue;
    const actor = userCard(r.actor_id, r.actor_name, null).name;
    const inCollection = r.kind === 'added' && r.supercuration_id !== null;
    const key = inCollection ? `c:${r.supercuration_id}` : `u:${r.actor_id}`;
    let section = sections.get(key);
    if (!section) {
      section = inCollection
        ? { heading: r.supercuration_title ?? '', ...(r.supercuration_slug ? { url: `${publicUrl}${paths.publicSupercuration(r.supercuration_slug)}` } : {}), items: [] }
        : { heading: actor, url: `${publicUrl}${paths.profile(r.actor_id)}`, items: [] };
      sections.set(key, section);
    }
    const description = link.description.trim();
    section.items.push({
      title: link.title,
      url: httpUrlOrNull(link.url) ?? `${publicUrl}${paths.link(link.id)}`,
      note: inCollection ? `Added by ${actor}` : r.kind === 'reposted' ? 'Reposted' : undefined,
      ...(description ? { description: cap(description, DESCRIPTION_MAX) } : {}),
    });
  }
  return [...sections.values()];
}
