import type { Kysely } from 'kysely';

/**
 * Collection memberships written by a file import are marked: e-mail digests leave them out, so
 * an import never mails a collection's subscribers (server/mail/digest.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('supercuration_links')
    .addColumn('imported', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('supercuration_links').dropColumn('imported').execute();
}
