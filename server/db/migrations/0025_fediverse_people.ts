import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { numberedUsername, usernameFromName } from '../../../shared/domain/names';

/**
 * Curators as ActivityPub actors (issue 21): a user with a public collection is a `Person`,
 * `@{fediverse_username}@{host}`, that remote servers follow to get the resources added to that
 * user's public collections (server/federation/person-actors.ts).
 * - profiles.fediverse_username: the handle, unique, and never a public collection's slug (both
 *   answer WebFinger); owners of public collections get one made from their name here;
 * - profiles.fediverse_followers_count: their remote followers, counted as a collection's;
 * - federation_user_keys, federation_user_followers: as the collections' tables;
 * - federation_deliveries.user_id: a row sent as that user's Person (an Announce of a collection's
 *   Note, a Reject); supercuration_id becomes optional (a Person's Reject is about no collection).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('profiles').addColumn('fediverse_username', 'text').execute();
  await db.schema.alterTable('profiles').addColumn('fediverse_followers_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('profiles_fediverse_username').unique().on('profiles').column('fediverse_username').execute();
  await db.schema
    .createTable('federation_user_keys')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('keys_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('federation_user_followers')
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('actor_uri', 'text', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('inbox_uri', 'text', (c) => c.notNull())
    .addColumn('shared_inbox_uri', 'text')
    .addColumn('follow_uri', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('federation_user_followers_pk', ['user_id', 'actor_uri'])
    .execute();
  await db.schema.createIndex('federation_user_followers_created').on('federation_user_followers').columns(['user_id', 'created_at']).execute();

  if (postgres) {
    await sql`alter table federation_deliveries alter column supercuration_id drop not null`.execute(db);
    await sql`alter table federation_deliveries add column user_id text references "user" (id) on delete cascade`.execute(db);
  } else {
    // SQLite cannot drop a NOT NULL: the table is made again (it holds a week of deliveries at most).
    await sql`create table federation_deliveries_next (
      id text primary key,
      supercuration_id text references supercurations (id) on delete cascade,
      user_id text references "user" (id) on delete cascade,
      link_id text,
      activity text not null,
      inbox_uri text not null,
      follow_uri text,
      follower_uri text,
      status text not null,
      attempts integer not null default 0,
      next_attempt_at text not null,
      claimed_until text,
      claim_token text,
      last_error text,
      created_at text not null,
      sent_at text
    )`.execute(db);
    await sql`insert into federation_deliveries_next
      (id, supercuration_id, link_id, activity, inbox_uri, follow_uri, follower_uri, status, attempts, next_attempt_at, claimed_until, claim_token, last_error, created_at, sent_at)
      select id, supercuration_id, link_id, activity, inbox_uri, follow_uri, follower_uri, status, attempts, next_attempt_at, claimed_until, claim_token, last_error, created_at, sent_at
      from federation_deliveries`.execute(db);
    await sql`drop table federation_deliveries`.execute(db);
    await sql`alter table federation_deliveries_next rename to federation_deliveries`.execute(db);
    await db.schema
      .createIndex('federation_deliveries_due')
      .on('federation_deliveries')
      .column('next_attempt_at')
      .where(sql.ref('status'), '=', sql.lit('queued'))
      .execute();
  }

  await nameCurators(db);
}

/**
 * Owners of public collections become actors now: each without a username gets one made from their
 * name, in sign-up order (the first "Ada" is ada, the next ada2), never a slug or another's.
 */
export async function nameCurators(db: Kysely<unknown>): Promise<void> {
  const owners = await sql<{ user_id: string; name: string }>`
    select p.user_id, u.name from profiles p join "user" u on u.id = p.user_id
    where p.fediverse_username is null
      and exists (select 1 from supercurations s where s.user_id = p.user_id and s.is_public = 1)
    order by u."createdAt", p.user_id`.execute(db);
  const names = await sql<{ name: string }>`
    select slug as name from supercurations where slug is not null
    union select fediverse_username from profiles where fediverse_username is not null`.execute(db);
  const taken = new Set(names.rows.map((r) => r.name));
  for (const owner of owners.rows) {
    const base = usernameFromName(owner.name);
    let username = base;
    for (let n = 2; taken.has(username); n += 1) username = numberedUsername(base, n);
    taken.add(username);
    await sql`update profiles set fediverse_username = ${username} where user_id = ${owner.user_id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('federation_user_followers').ifExists().execute();
  await db.schema.dropTable('federation_user_keys').ifExists().execute();
  await db.schema.dropIndex('profiles_fediverse_username').ifExists().execute();
  await db.schema.alterTable('profiles').dropColumn('fediverse_followers_count').execute();
  await db.schema.alterTable('profiles').dropColumn('fediverse_username').execute();
}
