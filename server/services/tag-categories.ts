import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  SUPERCURATION_MESSAGES,
  TOPIC_PALETTE,
  type TagCategory,
  type UpdateTagCategoryInput,
} from '../../shared/domain';
import { type Authorized, type LoadedAccess, requireEditable } from '../access/supercurations';
import type { Db } from '../db';
import { newId } from '../db/ids';
import type { Database } from '../db/schema';
import { conflict, notFound } from '../errors';
import type { Viewer } from '../policies/viewer';

type Q = Kysely<Database>;

/** A collection's tag categories with their tags, as the API shows them. */
async function tagCategoriesOf(db: Q, id: string): Promise<TagCategory[]> {
  const categories = await db
    .selectFrom('tag_categories')
    .select(['id', 'name', 'color'])
    .where('supercuration_id', '=', id)
    .orderBy('position')
    .orderBy('id')
    .execute();
  if (categories.length === 0) return [];
  const tags = await db
    .selectFrom('tags')
    .select(['category_id', 'name'])
    .where(
      'category_id',
      'in',
      categories.map((c) => c.id),
    )
    .orderBy('name')
    .execute();
  return categories.map((c) => ({ ...c, tags: tags.filter((t) => t.category_id === c.id).map((t) => t.name) }));
}

/** The category, which must belong to the collection, as the API shows it. */
async function categoryOf(trx: Q, collection: Authorized<LoadedAccess, 'edit'>, categoryId: string): Promise<TagCategory> {
  const found = (await tagCategoriesOf(trx, collection.id)).find((c) => c.id === categoryId);
  if (!found) throw notFound(SUPERCURATION_MESSAGES.categoryNotFound);
  return found;
}

/** SPEC §9: a new category is named 'New Category' with a random colour of the palette; it goes last. */
export async function createTagCategory(db: Db, viewer: Viewer, id: string): Promise<TagCategory> {
  return db.kysely.transaction().execute(async (trx) => {
    const collection = await requireEditable(trx, viewer, id);
    const last = await trx
      .selectFrom('tag_categories')
      .select((eb) => eb.fn.max('position').as('position'))
      .where('supercuration_id', '=', collection.id)
      .executeTakeFirst();
    const category = {
      id: newId(),
      supercuration_id: collection.id,
      name: SUPERCURATION_MESSAGES.newCategoryName,
      color: TOPIC_PALETTE[randomInt(TOPIC_PALETTE.length)] as string,
      position: last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1,
    };
    await trx.insertInto('tag_categories').values(category).execute();
    return { id: category.id, name: category.name, color: category.color, tags: [] };
  });
}

/** Rename (non-empty after trimming) and/or recolour. */
export async function updateTagCategory(
  db: Db,
  viewer: Viewer,
  id: string,
  categoryId: string,
  changes: { name?: string; color?: string } & UpdateTagCategoryInput,
): Promise<TagCategory> {
  return db.kysely.transaction().execute(async (trx) => {
    const collection = await requireEditable(trx, viewer, id);
    await categoryOf(trx, collection, categoryId);
    if (changes.name !== undefined || changes.color !== undefined) {
      await trx
        .updateTable('tag_categories')
        .set({ name: changes.name, color: changes.color })
        .where('id', '=', categoryId)
        .where('supercuration_id', '=', collection.id)
        .execute();
    }
    return categoryOf(trx, collection, categoryId);
  });
}

/** Deleting a category deletes its tags and takes them off the collection's resources (cascade). */
export async function deleteTagCategory(db: Db, viewer: Viewer, id: string, categoryId: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const collection = await requireEditable(trx, viewer, id);
    const result = await trx
      .deleteFrom('tag_categories')
      .where('id', '=', categoryId)
      .where('supercuration_id', '=', collection.id)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(SUPERCURATION_MESSAGES.categoryNotFound);
  });
}

/** Adds a tag (unique within its category). */
export async function addTag(db: Db, viewer: Viewer, id: string, categoryId: string, name: string): Promise<TagCategory> {
  return db.kysely.transaction().execute(async (trx) => {
    const collection = await requireEditable(trx, viewer, id);
    await categoryOf(trx, collection, categoryId);
    const inserted = await trx
      .insertInto('tags')
      .values({ id: newId(), category_id: categoryId, name })
      .onConflict((oc) => oc.columns(['category_id', 'name']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      throw conflict(SUPERCURATION_MESSAGES.tagExists);
    }
    return categoryOf(trx, collection, categoryId);
  });
}

/** Removes a tag, and with it every resource's use of it (cascade). */
export async function removeTag(db: Db, viewer: Viewer, id: string, categoryId: string, name: string): Promise<TagCategory> {
  return db.kysely.transaction().execute(async (trx) => {
    const collection = await requireEditable(trx, viewer, id);
    await categoryOf(trx, collection, categoryId);
    const result = await trx
      .deleteFrom('tags')
      .where('category_id', '=', categoryId)
      .where('name', '=', name)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(SUPERCURATION_MESSAGES.tagNotFound);
    return categoryOf(trx, collection, categoryId);
  });
}
