import { type Kysely, sql } from 'kysely';

/** Every entity of SPEC §3, normalised. "user" is created by Better Auth's own migration first. */
export async function up(db: Kysely<unknown>): Promise<void> {

  await db.schema
    .createTable('profiles')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('bio', 'text')
    .addColumn('location', 'text')
    .addColumn('website', 'text')
    .addColumn('avatar_key', 'text')
    .addColumn('subscriptions_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('subscribers_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('profiles_counts_non_negative', sql`subscriptions_count >= 0 and subscribers_count >= 0`)
    .execute();

  await db.schema
    .createTable('topics')
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('topics_pk', ['user_id', 'id'])
    .execute();

  await db.schema
    .createTable('links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('url', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('thumbnail_url', 'text')
    .addColumn('link_text', 'text', (c) => c.notNull())
    .addColumn('format', 'text')
    .addColumn('is_original_content', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('original_post_id', 'text', (c) => c.references('links.id').onDelete('set null'))
    .addColumn('in_main_feed', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('likes_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reposts_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('links_counts_non_negative', sql`likes_count >= 0 and reposts_count >= 0`)
    .execute();
  await db.schema.createIndex('links_user_created').on('links').columns(['user_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('links_created').on('links').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('links_user_url').on('links').columns(['user_id', 'url']).execute();
  await db.schema.createIndex('links_original_post').on('links').column('original_post_id').execute();

  await db.schema
    .createTable('link_topics')
    .addColumn('link_id', 'text', (c) => c.notNull().references('links.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('topic_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('link_topics_pk', ['link_id', 'topic_id'])
    .addForeignKeyConstraint('link_topics_topic_fk', ['user_id', 'topic_id'], 'topics', ['user_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('link_topics_topic').on('link_topics').columns(['user_id', 'topic_id']).execute();

  await db.schema
    .createTable('likes')
    .addColumn('link_id', 'text', (c) => c.notNull().references('links.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('likes_pk', ['link_id', 'user_id'])
    .execute();
  await db.schema.createIndex('likes_user').on('likes').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('supercurations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('thumbnail_url', 'text')
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('slug', 'text', (c) => c.unique())
    .addColumn('links_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('supercurations_links_count_non_negative', sql`links_count >= 0`)
    .addCheckConstraint('supercurations_public_needs_slug', sql`is_public = 0 or slug is not null`)
    .execute();
  await db.schema
    .createIndex('supercurations_user_created')
    .on('supercurations')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('supercurations_public_created')
    .on('supercurations')
    .columns(['is_public', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('supercuration_topics')
    .addColumn('supercuration_id', 'text', (c) => c.notNull().references('supercurations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('topic_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('supercuration_topics_pk', ['supercuration_id', 'topic_id'])
    .addForeignKeyConstraint(
      'supercuration_topics_topic_fk',
      ['user_id', 'topic_id'],
      'topics',
      ['user_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();

  await db.schema
    .createTable('supercuration_links')
    .addColumn('supercuration_id', 'text', (c) => c.notNull().references('supercurations.id').onDelete('cascade'))
    .addColumn('link_id', 'text', (c) => c.notNull().references('links.id').onDelete('cascade'))
    .addColumn('added_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('supercuration_links_pk', ['supercuration_id', 'link_id'])
    .execute();
  await db.schema
    .createIndex('supercuration_links_collection_created')
    .on('supercuration_links')
    .columns(['supercuration_id', 'created_at', 'link_id'])
    .execute();
  await db.schema.createIndex('supercuration_links_link').on('supercuration_links').column('link_id').execute();

  await db.schema
    .createTable('tag_categories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('supercuration_id', 'text', (c) => c.notNull().references('supercurations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('tag_categories_collection')
    .on('tag_categories')
    .columns(['supercuration_id', 'position'])
    .execute();

  await db.schema
    .createTable('tags')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('category_id', 'text', (c) => c.notNull().references('tag_categories.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addUniqueConstraint('tags_category_name', ['category_id', 'name'])
    .execute();

  await db.schema
    .createTable('supercuration_link_tags')
    .addColumn('supercuration_id', 'text', (c) => c.notNull())
    .addColumn('link_id', 'text', (c) => c.notNull())
    .addColumn('tag_id', 'text', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('supercuration_link_tags_pk', ['supercuration_id', 'link_id', 'tag_id'])
    .addForeignKeyConstraint(
      'supercuration_link_tags_membership_fk',
      ['supercuration_id', 'link_id'],
      'supercuration_links',
      ['supercuration_id', 'link_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('supercuration_link_tags_tag').on('supercuration_link_tags').column('tag_id').execute();

  await db.schema
    .createTable('collaborators')
    .addColumn('supercuration_id', 'text', (c) => c.notNull().references('supercurations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('collaborators_pk', ['supercuration_id', 'user_id'])
    .execute();
  await db.schema.createIndex('collaborators_user').on('collaborators').column('user_id').execute();

  await db.schema
    .createTable('email_subscribers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('supercuration_id', 'text', (c) => c.notNull().references('supercurations.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text')
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('email_subscribers_collection_email', ['supercuration_id', 'email'])
    .execute();

  await db.schema
    .createTable('user_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscriber_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('publisher_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('user_subscriptions_pair', ['subscriber_id', 'publisher_id'])
    .addCheckConstraint('user_subscriptions_not_self', sql`subscriber_id <> publisher_id`)
    .execute();
  await db.schema
    .createIndex('user_subscriptions_publisher')
    .on('user_subscriptions')
    .columns(['publisher_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'user_subscriptions',
    'email_subscribers',
    'collaborators',
    'supercuration_link_tags',
    'tags',
    'tag_categories',
    'supercuration_links',
    'supercuration_topics',
    'supercurations',
    'likes',
    'link_topics',
    'links',
    'topics',
    'profiles',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
