import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { linkVisibleTo } from '../policies/links';
import { httpUrlOrNull } from '../feeds/rss';
import { type MailDeps, publicPageUrl, unsubscribeUrl } from '../services/email-subscriptions';
import { type QueuedMail, enqueueMails } from './outbox';
import { renderEmail } from './render';
import { paths } from '../../shared/domain/paths';

/**
 * Digests: when resources are added to a public collection (not by a file import), each confirmed
 * subscriber gets one e-mail per collection per DIGEST_INTERVAL_SECONDS listing them.
 *
 * digest_state holds, per followed collection, `last_sent_at`: resources added up to then have
 * been queued in a digest. A collection is due when that is at least one interval old and it has
 * newer resources. A process claims it by a compare-and-set UPDATE of last_sent_at (`where
 * last_sent_at = <the value it read>`): of several server processes, exactly one wins. The claim and
 * the digest's mails (one mail_outbox row per subscriber) commit in one transaction, so a crash
 * either leaves the collection due (nothing queued) or leaves every mail queued; the outbox worker
 * (server/mail/outbox.ts) sends them, with retries, exactly once barring a crash mid-send.
 */

export interface DigestDeps extends MailDeps {
  intervalSeconds: number;
}

/** Resources added in the last moments may belong to transactions not yet committed: they wait for the next run. */
export const DIGEST_SETTLE_MS = 5_000;
/** Resources listed in one digest at most (the mail says how many more there are). */
export const DIGEST_MAX_ITEMS = 50;
/** Collections handled per run. */
const DIGEST_BATCH = 100;

export interface DigestRun {
  collections: number;
  /** Mails queued in the outbox. */
  mails: number;
}

/** One pass: claims every due collection and queues its digest. `now` is injectable for tests. */
export async function runDigestOnce(deps: DigestDeps, now = new Date()): Promise<DigestRun> {
  const { db } = deps;
  const due = new Date(now.getTime() - deps.intervalSeconds * 1000).toISOString();
  const upTo = new Date(now.getTime() - DIGEST_SETTLE_MS).toISOString();
  const candidates = await db.kysely
    .selectFrom('digest_state as d')
    .innerJoin('supercurations as s', 's.id', 'd.supercuration_id')
    .select(['d.supercuration_id', 'd.last_sent_at'])
    .where('s.is_public', '=', 1)
    .where('d.last_sent_at', '<=', due)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('supercuration_links as sl')
          .select('sl.link_id')
          .whereRef('sl.supercuration_id', '=', 'd.supercuration_id')
          .where('sl.imported', '=', 0)
          .whereRef('sl.created_at', '>', 'd.last_sent_at')
          .where('sl.created_at', '<=', upTo),
      ),
    )
    .orderBy('d.last_sent_at')
    .limit(DIGEST_BATCH)
    .execute();
  const run: DigestRun = { collections: 0, mails: 0 };
  for (const c of candidates) {
    // Rendered before the write transaction (SQLite has one writer at a time): the resources are
    // fixed by (last_sent_at, upTo]; someone confirming meanwhile has nothing older as news, and
    // someone unsubscribing meanwhile has their queued mail cancelled by the worker.
    const mails = await digestMails(db.kysely, deps, c.supercuration_id, c.last_sent_at, upTo);
    const queued = await db.kysely.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('digest_state')
        .set({ last_sent_at: upTo })
        .where('supercuration_id', '=', c.supercuration_id)
        .where('last_sent_at', '=', c.last_sent_at)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return null; // another process has it
      return enqueueMails(trx, deps.publicUrl, mails);
    });
    if (queued === null) continue;
    run.collections += 1;
    run.mails += queued;
  }
  if (run.mails > 0) deps.wakeOutbox();
  return run;
}

/** The digest of one collection for each of its confirmed subscribers with news. */
async function digestMails(db: Kysely<Database>, deps: DigestDeps, id: string, since: string, upTo: string): Promise<QueuedMail[]> {
  const collection = await db
    .selectFrom('supercurations')
    .select(['title', 'slug', 'is_public'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!collection?.slug || Number(collection.is_public) !== 1) return [];
  const resources = await newResources(db, id, since, upTo);
  const subscribers = await db
    .selectFrom('email_subscribers')
    .select(['id', 'email', 'confirmed_at'])
    .where('supercuration_id', '=', id)
    .where('confirmed_at', 'is not', null)
    .orderBy('id')
    .execute();
  const page = publicPageUrl(deps.publicUrl, collection.slug);
  const mails: QueuedMail[] = [];
  for (const s of subscribers) {
    // Someone who confirmed after a resource was added doesn't get it as news.
    const items = resources.filter((r) => s.confirmed_at !== null && r.added_at > s.confirmed_at);
    if (items.length === 0) continue;
    const listed = items.slice(0, DIGEST_MAX_ITEMS);
    const more = items.length - listed.length;
    const unsubscribe = unsubscribeUrl(deps, s.id);
    const count = `${items.length} new resource${items.length === 1 ? '' : 's'}`;
    const bodies = renderEmail({
      heading: `New in ${collection.title}`,
      paragraphs: [`${count} ${items.length === 1 ? 'was' : 'were'} added to "${collection.title}" on Supercurate.`],
      items: listed.map((r) => ({
        title: r.title,
        url: httpUrlOrNull(r.url) ?? `${deps.publicUrl}${paths.link(r.id)}`,
        description: r.description || undefined,
      })),
      action: { label: more > 0 ? `See ${more} more on the collection page` : 'Open the collection', url: page },
      footer: `You receive this e-mail because you subscribed to "${collection.title}" on Supercurate.`,
      unsubscribeUrl: unsubscribe,
    });
    mails.push({ kind: 'digest', subscriberId: s.id, to: s.email, subject: `New in ${collection.title}: ${count}`, ...bodies, unsubscribeUrl: unsubscribe });
  }
  return mails;
}

function newResources(db: Kysely<Database>, id: string, since: string, upTo: string) {
  return db
    .selectFrom('supercuration_links as sl')
    .innerJoin('links', 'links.id', 'sl.link_id')
    .select(['links.id', 'links.title', 'links.url', 'links.description', 'sl.created_at as added_at'])
    .where('sl.supercuration_id', '=', id)
    // A file import's memberships are not news: an import mails no one.
    .where('sl.imported', '=', 0)
    // Subscribers are visitors: a repost of a link hidden from them stays out (canSeeLink).
    .where(linkVisibleTo(null))
    // Nor is a link found broken by the time of sending.
    .where('links.broken_at', 'is', null)
    .where('sl.created_at', '>', since)
    .where('sl.created_at', '<=', upTo)
    .orderBy('sl.created_at', 'desc')
    .orderBy('sl.link_id', 'desc')
    .limit(1000)
    .execute();
}
