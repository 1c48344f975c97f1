import { Accept, Endpoints, type Federation, Follow, Group, Image, Note, Undo, createFederation, isActor, parseSemVer } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import type { Db } from '../db';
import { escapeHtml } from '../mail/render';
import { type HopPolicy, anyAddress, publicOnly } from '../preview/address-policy';
import { APP_VERSION } from '../version';
import { absoluteImageUrl, isHttpUrl, paths } from '../../shared/domain';
import { addRemoteFollower, removeRemoteFollower } from '../services/fediverse';
import { actorIdentifier, actorOfSlug, collectionActor, collectionExists, collectionIdOf } from './collection-actors';
import { decodeKeyset, encodeKeyset } from '../db/keyset';
import { isBlockedHost } from './blocked-hosts';
import { guardedAuthenticatedLoader, guardedDocumentLoader } from './document-loader';
import { collectionKeyPairs } from './keys';
import { NOTES_PATH, resourceCreate, resourceNote, resourceRows } from './notes';
import { sqlKvStore } from './kv-store';

/**
 * ActivityPub (issue 21), on when FEDERATION is set; this module (and Fedify, ~45 MB of memory) is
 * loaded only then, by server/http/federation-routes.ts. Each public collection is a `Group` actor at /ap/actors/c-{id}, found by
 * WebFinger as @{slug}@{host}; the collection's public page answers with the same actor to a
 * client asking for ActivityStreams JSON. Remote servers follow it through its inbox (signatures
 * checked by Fedify), and are sent an Accept. Moderation choices: docs/decisions.md ("Fediverse").
 */

/** Which addresses remote fetches and deliveries may reach: public ones, or any (PREVIEW_ALLOW_PRIVATE, tests on loopback). */
export const fetchPolicy = ({ allowPrivateAddress }: Pick<FederationDeps, 'allowPrivateAddress'>): HopPolicy => (allowPrivateAddress ? anyAddress : publicOnly);

export interface FederationDeps {
  db: Db;
  publicUrl: string;
  /** PREVIEW_ALLOW_PRIVATE: remote actors, keys and inboxes may be at private addresses (tests on loopback). */
  allowPrivateAddress: boolean;
  /** One delivery's deadline (PREVIEW_TIMEOUT_MS). */
  timeoutMs: number;
  /** FEDERATION_BLOCKED_HOSTS: servers whose activities are refused and who are sent nothing. */
  blockedHosts: readonly string[];
  log: { warn(obj: object, msg: string): void };
}

export const ACTOR_PATH = '/ap/actors/{identifier}';
export const SHARED_INBOX_PATH = '/ap/inbox';

const ACTIVITY_TYPES = /application\/(activity\+json|ld\+json)/;

/** Whether a client asks for ActivityStreams JSON before HTML (what Mastodon sends when it fetches an actor). */
export function wantsActivityJson(accept: string | undefined): boolean {
  if (!accept || !ACTIVITY_TYPES.test(accept)) return false;
  const first = accept.split(',')[0]?.trim() ?? '';
  return !first.startsWith('text/html') && !first.startsWith('application/xhtml+xml');
}

/** Activities per page of an actor's outbox. */
const OUTBOX_PAGE = 20;
/** Expired cache entries are deleted this often (each process; the delete is idempotent). */
const KV_PURGE_MS = 60 * 60_000;

export function collectionFederation({ db, publicUrl, allowPrivateAddress, timeoutMs, blockedHosts, log }: FederationDeps): { federation: Federation<void>; stop(): void } {
  const kysely = db.kysely;
  const kv = sqlKvStore(kysely);
  const purge = setInterval(() => kv.purgeExpired().catch((err) => log.warn({ err }, 'ActivityPub: the cache purge failed')), KV_PURGE_MS);
  purge.unref();
  const loaderOptions = { policy: fetchPolicy({ allowPrivateAddress }), timeoutMs };
  const federation = createFederation<void>({
    kv,
    origin: publicUrl,
    documentLoaderFactory: guardedDocumentLoader(loaderOptions),
    authenticatedDocumentLoaderFactory: guardedAuthenticatedLoader(loaderOptions),
  });

  federation
    .setActorDispatcher(ACTOR_PATH, async (ctx, identifier) => {
      const c = await collectionActor(kysely, identifier);
      if (!c) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      const icon = absoluteImageUrl(publicUrl, c.thumbnail_url);
      return new Group({
        id: ctx.getActorUri(identifier),
        preferredUsername: c.slug,
        name: c.title,
        summary: c.description ? `<p>${escapeHtml(c.description)}</p>` : null,
        icon: icon ? new Image({ url: new URL(icon) }) : null,
        url: new URL(paths.publicSupercuration(c.slug), publicUrl),
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: keys[0]?.cryptographicKey ?? null,
        assertionMethods: keys.map((k) => k.multikey),
        manuallyApprovesFollowers: false,
        discoverable: true,
        published: Temporal.Instant.from(c.created_at),
      });
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      const id = collectionIdOf(identifier);
      return id && (await collectionExists(kysely, id)) ? collectionKeyPairs(kysely, id) : [];
    })
    .mapHandle(async (_ctx, username) => actorOfSlug(kysely, username));

  // Followers are counted (in-app and remote together), not listed: they did not ask to be shown.
  federation
    .setFollowersDispatcher(`${ACTOR_PATH}/followers`, async (_ctx, identifier) =>
      (await collectionActor(kysely, identifier)) ? { items: [] } : null,
    )
    .setCounter(async (_ctx, identifier) => (await collectionActor(kysely, identifier))?.followers ?? null);

  // The outbox: a Create per resource, newest first, OUTBOX_PAGE a page.
  const OUTBOX_TAG = 'ap-outbox';
  federation
    .setOutboxDispatcher(`${ACTOR_PATH}/outbox`, async (ctx, identifier, cursor) => {
      if (cursor === null) return null;
      const c = await collectionActor(kysely, identifier);
      if (!c) return null;
      let before: [string, string] | null = null;
      if (cursor !== '') {
        try {
          before = decodeKeyset(OUTBOX_TAG, ['string', 'string'], cursor) as [string, string];
        } catch {
          return null;
        }
      }
      const rows = await resourceRows(kysely, c.id, { before, limit: OUTBOX_PAGE + 1 });
      const page = rows.slice(0, OUTBOX_PAGE);
      const last = page[page.length - 1];
      const actor = ctx.getActorUri(identifier);
      return {
        items: page.map((r) => resourceCreate(publicUrl, actor, r)),
        nextCursor: rows.length > OUTBOX_PAGE && last ? encodeKeyset(OUTBOX_TAG, [last.added_at, last.link_id]) : null,
      };
    })
    .setCounter(async (_ctx, identifier) => (await collectionActor(kysely, identifier))?.links_count ?? null)
    .setFirstCursor(() => '');

  federation.setObjectDispatcher(Note, NOTES_PATH, async (ctx, { collection, link }) => {
    const [row] = await resourceRows(kysely, collection, { linkIds: [link] });
    return row ? resourceNote(publicUrl, ctx.getActorUri(actorIdentifier(collection)), row) : null;
  });

  federation
    .setInboxListeners(`${ACTOR_PATH}/inbox`, SHARED_INBOX_PATH)
    .on(Follow, async (ctx, follow) => {
      if (follow.id === null || follow.objectId === null) return;
      const target = ctx.parseUri(follow.objectId);
      if (target?.type !== 'actor') return;
      const collection = await collectionActor(kysely, target.identifier);
      if (!collection) return;
      const follower = await follow.getActor(ctx);
      // Fedify checked that the signature is the actor's: its key, on its host.
      if (!isActor(follower) || follower.id === null || follower.inboxId === null || isBlockedHost(follower.id.hostname, blockedHosts)) return;
      const sharedInbox = follower.endpoints?.sharedInbox ?? null;
      // Only http(s) addresses are stored (they are shown as links, and posted to).
      if (![follower.id, follower.inboxId, sharedInbox].every((u) => u === null || isHttpUrl(u.href))) return;
      await addRemoteFollower(kysely, collection.id, {
        actorUri: follower.id.href,
        inboxUri: follower.inboxId.href,
        sharedInboxUri: sharedInbox?.href ?? null,
        followUri: follow.id.href,
      });
      const actor = ctx.getActorUri(target.identifier);
      await ctx.sendActivity(
        { identifier: target.identifier },
        follower,
        new Accept({ id: new URL(`#accepts/${crypto.randomUUID()}`, actor), actor, object: follow }),
      );
    })
    .on(Undo, async (ctx, undo) => {
      const follow = await undo.getObject(ctx);
      if (!(follow instanceof Follow) || follow.objectId === null || undo.actorId === null) return;
      // Only the follower undoes its own follow.
      if (follow.actorId?.href !== undo.actorId.href) return;
      const target = ctx.parseUri(follow.objectId);
      const id = target?.type === 'actor' ? collectionIdOf(target.identifier) : null;
      const actor = undo.actorId.href;
      if (id) await kysely.transaction().execute((trx) => removeRemoteFollower(trx, id, actor));
    })
    .onError((_ctx, err) => log.warn({ err }, 'ActivityPub inbox: an activity failed'));

  federation.setNodeInfoDispatcher('/nodeinfo/2.1', async () => {
    const [users, posts] = await Promise.all([
      kysely.selectFrom('user').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      kysely.selectFrom('links').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      software: { name: 'supercurate', version: parseSemVer(APP_VERSION), homepage: new URL(publicUrl) },
      protocols: ['activitypub'],
      openRegistrations: true,
      usage: { users: { total: Number(users.n) }, localPosts: Number(posts.n), localComments: 0 },
    };
  });
  return { federation, stop: () => clearInterval(purge) };
}
