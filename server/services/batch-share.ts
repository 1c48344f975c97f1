import {
  type BatchShare,
  type CreateLink,
  IMPORT_MESSAGES,
  LINK_MESSAGES,
  type Link,
  batchItemLink,
  batchRuleSatisfied,
  privateByDefault,
} from '../../shared/domain';
import { requireEditableCollections } from '../access/supercurations';
import type { Db } from '../db';
import { newId } from '../db/ids';
import { HttpError, badRequest } from '../errors';
import type { Viewer } from '../policies/viewer';
import { type DocumentSource, indexNewLinks } from '../db/link-search';
import { insertLink, linksInOrder } from './links';
import { addToCollections, lockCollections } from './memberships';

/** A refused item of a batch: its index goes into the error body. */
const itemError = (err: HttpError, index: number) =>
  new HttpError(err.status, err.message, err.code === 'DUPLICATE_LINK' ? err.code : 'INVALID_ITEM', {
    ...err.details,
    index,
  });

/**
 * POST /api/links/batch: up to 100 links with the batch's format, collections and main
 * feed setting (by default in the main feed, unless every collection is private), in one transaction: the links, their memberships and the collections' links_count
 * are all written or none is. Each item is checked with the single-link rules; the first bad one
 * is reported by index (400 INVALID_ITEM; 409 DUPLICATE_LINK when a collection already has its URL).
 */
export async function shareLinks(db: Db, viewer: Viewer, batch: BatchShare): Promise<Link[]> {
  const settings = {
    supercurationIds: batch.supercurationIds,
    format: batch.format ?? null,
    inMainFeed: batch.inMainFeed ?? true,
  };
  // SPEC §5: hidden from the main feed, a link needs a collection or a format.
  if (!batchRuleSatisfied(settings)) throw badRequest(IMPORT_MESSAGES.batchRule, 'BATCH_RULE');

  const inputs: CreateLink[] = batch.items.map((item, index) => {
    const parsed = batchItemLink(item, settings);
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? LINK_MESSAGES.invalidLinkData;
      throw badRequest(message, 'INVALID_ITEM', { index });
    }
    return parsed.data;
  });

  const ids = inputs.map(() => newId());
  const collections = [...new Set(settings.supercurationIds ?? [])];
  await db.kysely.transaction().execute(async (trx) => {
    await lockCollections(trx, db.dialect, collections);
    const targets = await requireEditableCollections(trx, viewer, collections);
    // Unless the batch says, links shared only into private collections stay out of the main feed.
    const inMainFeed = batch.inMainFeed ?? !privateByDefault(targets);
    const documents: DocumentSource[] = [];
    for (const [index, input] of inputs.entries()) {
      const id = ids[index] as string;
      try {
        const { document } = await insertLink(trx, viewer, id, { ...input, inMainFeed });
        await addToCollections(trx, id, viewer, targets);
        documents.push({ ...document, collectionIds: targets.map((t) => t.id) });
      } catch (err) {
        throw err instanceof HttpError ? itemError(err, index) : err;
      }
    }
    await indexNewLinks(trx, documents);
  });

  return linksInOrder(db.kysely, ids, viewer);
}
