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
 * (searchUpsert, doc_ arguments), as one statement; answers the collection's audience row and how
 * many memberships went in (0: a link with that URL is in it already).
 */
const insertWithMembership = queryTemplate<string, AudienceRow & { added: number | string }>((db, a) =>
  withNewLinkRow(db, a)
    .with('c', () => countAddedQuery(db, a, '1'))
    .with('m', () => insertMembersQuery(db, a, '1 url'))
    // A raw query goes into a WITH as it is: the parentheses are ours.
    .with('d', () => sql`(${searchUpsert([Object.fromEntries(SEARCH_ROW_COLUMNS.map((c) => [c, a[docArg(c)] ?? ''])) as Record<(typeof SEARCH_ROW_COLUMNS)[number], string>])})`)
    .selectFrom('c')
    .selectAll('c')
    .select(sql<number | string>`(select count(*) from m)`.as('added')),
);

/**
 * Add New Resource of a new link to one collection on PostgreSQL, inside the caller's transaction,
 * which has locked the collection's row (addContext in services/resources.ts), so that the
 * duplicate check, in a statement that starts after it, sees every membership committed before. What
 * insertLink, addToCollections and indexNewLinks write, in one statement where they take five:
 * each statement is a round trip, ~85 µs of our CPU and ~20 µs of the database's beside its work
 * (docs/decisions.md). Topics, when given, are two statements more, as in insertLink. A link with
 * the URL already in the collection is refused (409), and the caller's transaction rolls back.
 */
export async function insertNewResource(
  trx: Q,
  viewer: Viewer,
  collection: Authorized<LoadedAccess, 'edit'>,
  id: string,
  input: CreateLink & { url: string },
  known: { avatarKey: string | null; facts: FactColumns | null },
): Promise<NewLink> {
  const names = await assertOwnTopics(trx, viewer.id, input.topicIds);
  const row = newLinkColumns(viewer, id, input, known.facts);
  const link = newLinkOf(row, viewer, known.avatarKey, names, null);
  const document = { ...link.document, collectionIds: [collection.id] };
  const args: Record<string, unknown> = Object.fromEntries(LINK_COLUMNS.map((c) => [c, row[c]]));
  Object.assign(args, { needs_facts: known.facts === null ? 1 : 0, id0: collection.id, link: id, user: viewer.id, at: row.created_at });
  for (const [column, value] of Object.entries(newDocumentRow(document))) args[docArg(column)] = value;
  const [counted] = await insertWithMembership(trx, args);
  if (!counted) throw notFound(SUPERCURATION_MESSAGES.notFound);
  if (Number(counted.added) !== 1) throw duplicateLink();
  await queueDeliveries(trx, 'create', followedRemotely([counted]), id);
  await insertTopics(trx, id, viewer.id, input.topicIds);
  return { ...link, document };
}
