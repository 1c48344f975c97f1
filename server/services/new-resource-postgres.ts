import { type Kysely, sql } from 'kysely';
import { type CreateLink, SUPERCURATION_MESSAGES } from '../../shared/domain';
import type { Authorized, LoadedAccess } from '../access/supercurations';
import { SEARCH_ROW_COLUMNS, newDocumentRow, searchUpsert } from '../db/link-search';
import { queryTemplate } from '../db/query-templates';
import type { Database } from '../db/schema';
import { notFound } from '../errors';
import type { Viewer } from '../policies/viewer';
import { type AudienceRow, followedRemotely, queueDeliveries } from './fediverse';
import type { FactColumns } from './link-facts';
import { LINK_COLUMNS, type NewLink, insertTopics, newLinkColumns, newLinkOf, withNewLinkRow } from './links';
import { countAddedQuery, duplicateLink, insertMembersQuery } from './memberships';
import { assertOwnTopics } from './topics';

type Q = Kysely<Database>;

const docArg = (column: string) => `doc_${column}`;

/**
 * The link's row and its jobs row (withNewLinkRow), the collection's links_count + 1 (countAddedQuery,
 * id0), the membership (insertMembersQuery, with its duplicate check) and the search document
 * (searchUpsert, doc_ arguments), as one statement; answers the collection's audience row. A link with
 * that URL in the collection already makes the statement fail (`added`: 1 / 0, DUPLICATE_URL), so
 * that nothing of it is written and the transaction can't commit, whether or not its answer was read.
 */
const insertWithMembership = queryTemplate<string, AudienceRow>((db, a) =>
  withNewLinkRow(db, a)
    .with('c', () => countAddedQuery(db, a, '1'))
    .with('m', () => insertMembersQuery(db, a, '1 url'))
    // A raw query goes into a WITH as it is: the parentheses are ours.
    .with('d', () => sql`(${searchUpsert([Object.fromEntries(SEARCH_ROW_COLUMNS.map((c) => [c, a[docArg(c)] ?? ''])) as Record<(typeof SEARCH_ROW_COLUMNS)[number], string>])})`)
    .selectFrom('c')
    .selectAll('c')
    .select(sql<number>`1 / (select count(*) from m)`.as('added')),
);

/** PostgreSQL's division_by_zero: insertWithMembership's duplicate URL. */
const DUPLICATE_URL = '22012';

/** Settles when the new resource's statement has answered; fails as the add does (409 on a duplicate URL). */
export type Written = Promise<void>;

/**
 * Add New Resource of a new link to one collection on PostgreSQL, inside the caller's transaction,
 * which has locked the collection's row (addContext in services/resources.ts), so that the
 * duplicate check, in a statement that starts after it, sees every membership committed before. What
 * insertLink, addToCollections and indexNewLinks write, in one statement where they take five:
 * each statement is a round trip, ~85 µs of our CPU and ~20 µs of the database's beside its work
 * (docs/decisions.md). Topics, when given, are two statements more, as in insertLink; so are the
 * deliveries of a collection someone remote hears of (`heard`).
 *
 * Without either, nothing waits for the statement's answer: pg (pipeline mode) writes it when it is
 * called, so the caller's `commit`, written after it, follows it in the same round trip. The caller
 * awaits `written` after the commit: should the statement fail, PostgreSQL answers that `commit`
 * with a rollback, and `written` fails with the add's error (409 on a duplicate URL).
 */
export async function insertNewResource(
  trx: Q,
  viewer: Viewer,
  collection: Authorized<LoadedAccess, 'edit'>,
  id: string,
  input: CreateLink & { url: string },
  known: { avatarKey: string | null; facts: FactColumns | null; heard: boolean },
): Promise<{ link: NewLink; written: Written }> {
  const names = await assertOwnTopics(trx, viewer.id, input.topicIds);
  const row = newLinkColumns(viewer, id, input, known.facts);
  const link = newLinkOf(row, viewer, known.avatarKey, names, null);
  const document = { ...link.document, collectionIds: [collection.id] };
  const args: Record<string, unknown> = Object.fromEntries(LINK_COLUMNS.map((c) => [c, row[c]]));
  Object.assign(args, { needs_facts: known.facts === null ? 1 : 0, id0: collection.id, link: id, user: viewer.id, at: row.created_at });
  for (const [column, value] of Object.entries(newDocumentRow(document))) args[docArg(column)] = value;
  const counted = insertWithMembership(trx, args).then(
    ([audience]) => {
      if (!audience) throw notFound(SUPERCURATION_MESSAGES.notFound);
      return audience;
    },
    (err: unknown) => {
      throw (err as { code?: unknown }).code === DUPLICATE_URL ? duplicateLink() : err;
    },
  );
  const added = { ...link, document };
  if (!known.heard && input.topicIds.length === 0) {
    const written = counted.then(() => undefined);
    // Awaited by the caller once the transaction is over; until then its failure is not unhandled.
    written.catch(() => undefined);
    return { link: added, written };
  }
  await queueDeliveries(trx, 'create', followedRemotely([await counted]), id);
  await insertTopics(trx, id, viewer.id, input.topicIds);
  return { link: added, written: Promise.resolve() };
}
