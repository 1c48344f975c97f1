import type { Generated } from 'kysely';

/** A remote (fediverse) actor following one of ours, with the inboxes to deliver to. */
interface RemoteFollowerColumns {
  actor_uri: string;
  host: string;
  inbox_uri: string;
  shared_inbox_uri: string | null;
  follow_uri: string;
  created_at: string;
}

/** The columns of an outbox whose rows are claimed under a lease (server/db/leases.ts). */
interface OutboxColumns {
  status: 'queued' | 'sent' | 'failed' | 'cancelled';
  attempts: number;
  next_attempt_at: string;
  claimed_until: string | null;
  claim_token: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

/**
 * Tables of SPEC §3. Times are ISO-8601 UTC strings (same text in both dialects, sorts
 * correctly); booleans are 0/1 integers so one migration set fits SQLite and PostgreSQL.
 * Better Auth owns "user", "session", "account" and "verification" (camelCase columns).
 */
export interface Database {
  user: {
    id: string;
    name: string;
    email: string;
    emailVerified: number | boolean;
    image: string | null;
    createdAt: string | Date;
    updatedAt: string | Date;
  };
  session: {
    id: string;
    userId: string;
    token: string;
    expiresAt: string | Date;
  };
  /** Better Auth's sign-in methods of a user (ours: the password, "credential"). */
  account: {
    id: string;
    userId: string;
  };
  /** Better Auth's pending tokens (password reset: `value` is the user id). */
  verification: {
    id: string;
    identifier: string;
    value: string;
    expiresAt: string | Date;
  };
  profiles: {
    user_id: string;
    bio: string | null;
    location: string | null;
    website: string | null;
    avatar_key: string | null;
    subscriptions_count: Generated<number>;
    subscribers_count: Generated<number>;
    updated_at: string;
    /** The user's handle as a fediverse actor (migration 0025); never a public collection's slug. */
    fediverse_username: string | null;
    /** Rows of federation_user_followers. */
    fediverse_followers_count: Generated<number>;
  };
  topics: {
    user_id: string;
    id: string;
    name: string;
    color: string;
    created_at: string;
  };
  links: {
    id: string;
    user_id: string;
    url: string | null;
    title: string;
    description: string;
    thumbnail_url: string | null;
    link_text: string;
    format: string | null;
    is_original_content: Generated<number>;
    original_post_id: string | null;
    in_main_feed: Generated<number>;
    likes_count: Generated<number>;
    reposts_count: Generated<number>;
    created_at: string;
    updated_at: string;
    /** When the link checker found it broken; null while it works (server/services/link-checks.ts). */
    broken_at: string | null;
    /** What the page says about itself (shared/domain LinkFacts; server/services/link-facts.ts). */
    site_name: string | null;
    favicon_url: string | null;
    author: string | null;
    published_at: string | null;
    lang: string | null;
    /** Its topics' ids, comma-separated, in no particular order; null for none (server/services/link-topics.ts). */
    topic_ids: string | null;
  };
  link_topics: {
    link_id: string;
    user_id: string;
    topic_id: string;
  };
  likes: {
    link_id: string;
    user_id: string;
    created_at: string;
  };
  supercurations: {
    id: string;
    user_id: string;
    title: string;
    description: string;
    thumbnail_url: string | null;
    is_public: Generated<number>;
    slug: string | null;
    links_count: Generated<number>;
    followers_count: Generated<number>;
    /** Remote (fediverse) followers: rows of federation_followers (migration 0024). */
    fediverse_followers_count: Generated<number>;
    created_at: string;
    updated_at: string;
    /** The collection's topics as a JSON array (server/services/collection-topics.ts). */
    topics_json: Generated<string>;
  };
  supercuration_followers: {
    supercuration_id: string;
    user_id: string;
    created_at: string;
  };
  supercuration_topics: {
    supercuration_id: string;
    user_id: string;
    topic_id: string;
  };
  supercuration_links: {
    supercuration_id: string;
    link_id: string;
    added_by: string | null;
    created_at: string;
    /** 1 when a file import added it: no digest lists it. */
    imported: Generated<number>;
  };
  tag_categories: {
    id: string;
    supercuration_id: string;
    name: string;
    color: string;
    position: number;
  };
  tags: {
    id: string;
    category_id: string;
    name: string;
  };
  supercuration_link_tags: {
    supercuration_id: string;
    link_id: string;
    tag_id: string;
  };
  collaborators: {
    supercuration_id: string;
    user_id: string;
    created_at: string;
  };
  email_subscribers: {
    id: string;
    supercuration_id: string;
    email: string;
    confirmed_at: string | null;
    token_hash: string;
    created_at: string;
    confirm_sent_at: string | null;
  };
  email_send_limits: {
    email: string;
    window_start: string;
    count: number;
  };
  digest_state: {
    supercuration_id: string;
    last_sent_at: string;
  };
  /** An imported link whose preview is still to fetch (server/services/import-previews.ts). */
  link_preview_jobs: {
    link_id: string;
    host: string;
    /** 1: the file gave no title (the link's is its host), so the page's may replace it. */
    fill_title: number;
    /** 1: only the page's facts are filled in (a link shared without a cached preview; migration 0017). */
    facts_only: Generated<number>;
    due_at: string;
    attempts: Generated<number>;
    claimed_until: string | null;
    claim_token: string | null;
  };
  /** When each host may next be asked by a background fetcher (server/services/fetch-politeness.ts). */
  fetch_hosts: {
    host: string;
    next_at: string;
    /** The last time a check of this host's backlog was laid out for (link-checks.ts, queueBehindHosts). */
    queued_until: string | null;
  };
  /** Requests of a background fetcher ('previews', 'checks') in each minute ('2026-11-28T10:15'), all processes together. */
  fetch_budget: {
    kind: string;
    minute: string;
    used: number;
  };
  /** The health check of a link with a URL (server/services/link-checks.ts). */
  link_checks: {
    link_id: string;
    host: string;
    due_at: string;
    /** HEAD, or GET for a site that answers HEAD with anything but success. */
    method: Generated<string>;
    /** Consecutive failed checks counted so far (each at least a day after the one before). */
    failures: Generated<number>;
    last_failure_at: string | null;
    /** What the last check found: 'ok', an HTTP status, or a failure kind ('dns', 'tls', 'timeout'...). */
    last_result: string | null;
    checked_at: string | null;
    /** 1: the curator marked it fine; failures are not counted until it works again. */
    marked_fine: Generated<number>;
    claimed_until: string | null;
    claim_token: string | null;
  };
  mail_outbox: {
    id: string;
    message_id: string;
    kind: string;
    recipient: string;
    subject: string;
    text_body: string;
    html_body: string;
    unsubscribe_url: string | null;
    subscriber_id: string | null;
  } & OutboxColumns;
  /** A new link whose check, readable copy and facts are still to be queued (migration 0028, server/services/new-link-jobs.ts). */
  new_link_jobs: {
    link_id: string;
    /** 1: no cached preview gave the link its facts: the preview worker fetches them. */
    needs_facts: number;
  };
  /** A link's readable copy and, while due_at is set, the job that makes it (migration 0020). */
  link_copies: {
    link_id: string;
    host: string;
    /** 0: a new link; 1: the backfill, which waits behind new links. */
    queue: Generated<number>;
    due_at: string | null;
    attempts: Generated<number>;
    claimed_until: string | null;
    claim_token: string | null;
    /** Who made the copy: 'server' (fetched) or 'extension' (what the user saw); null until kept. */
    source: string | null;
    /** Why there is no copy, once given up. */
    failure: string | null;
    html_gz: Buffer | null;
    text_gz: Buffer | null;
    word_count: number | null;
    lang: string | null;
    captured_at: string | null;
  };
  /** A public collection's ActivityPub key pairs, as JWK (migration 0024; server/federation/keys.ts). */
  federation_collection_keys: {
    supercuration_id: string;
    keys_json: string;
    created_at: string;
  };
  /** A remote (fediverse) actor following a public collection (migration 0024). */
  federation_followers: { supercuration_id: string } & RemoteFollowerColumns;
  federation_user_keys: {
    user_id: string;
    keys_json: string;
    created_at: string;
  };
  /** A curator's remote followers (migration 0025), as federation_followers. */
  federation_user_followers: { user_id: string } & RemoteFollowerColumns;
  /** An activity to send to one remote inbox (migration 0024; server/federation/deliveries.ts). */
  federation_deliveries: {
    id: string;
    /** The collection it is about (its actor sends it, unless user_id says otherwise). */
    supercuration_id: string | null;
    /** Sent as this user's Person actor (migration 0025): an Announce, or a Reject. */
    user_id: string | null;
    /** The resource it is about; null for the collection itself. */
    link_id: string | null;
    activity: 'create' | 'update' | 'delete' | 'delete-actor' | 'reject' | 'announce';
    inbox_uri: string;
    /** A Reject: the Follow it answers, and who sent it. */
    follow_uri: string | null;
    follower_uri: string | null;
  } & OutboxColumns;
  /** Fedify's key-value store (server/federation/kv-store.ts): JSON values, expiry as ISO time. */
  federation_kv: {
    key: string;
    value: string;
    expires_at: string | null;
  };
  readable_copy_opt_outs: {
    user_id: string;
    created_at: string;
  };
  reader_digests: {
    user_id: string;
    frequency: string;
    sent_up_to: string;
  };
  user_subscriptions: {
    id: string;
    subscriber_id: string;
    publisher_id: string;
    created_at: string;
  };
  rate_limits: {
    key: string;
    count: number;
    /** When the current window ends (ISO-8601). */
    reset_at: string;
  };
  /** Personal access tokens (migration 0012): only the token's SHA-256 (hex) is kept. */
  api_tokens: {
    id: string;
    user_id: string;
    name: string;
    token_hash: string;
    created_at: string;
    /** ISO-8601; null: never expires. */
    expires_at: string | null;
    /** ISO-8601, kept to the minute (server/services/api-tokens.ts); null: never used. */
    last_used_at: string | null;
  };
}
