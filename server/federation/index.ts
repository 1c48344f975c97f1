import { Accept, Endpoints, type Federation, Follow, Group, Image, Note, Person, Undo, createFederation, isActor, parseSemVer } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import type { Db } from '../db';
import { escapeHtml } from '../mail/render';
import { APP_VERSION } from '../version';
import { absoluteImageUrl, isHttpUrl, paths } from '../../shared/domain';
import { type Followed, addRemoteFollower, removeRemoteFollower } from '../services/fediverse';
import { avatarUrl } from '../presenters/users';
import { actorIdentifier, actorOfSlug, collectionActor, collectionExists, collectionIdOf } from './collection-actors';
import { actorOfUsername, personActor, publicResourcesCount, userExists, userIdOf } from './person-actors';
import { decodeKeyset, encodeKeyset } from '../db/keyset';
import { isBlockedHost } from './blocked-hosts';
import { guardedAuthenticatedLoader, guardedDocumentLoader } from './document-loader';
import { actorKeyPairs } from './keys';
import { NOTES_PATH, type ResourceKeyset, type ResourceScope, resourceAnnounce, resourceCreate, resourceNote, resourceRows } from './notes';
import { sqlKvStore } from './kv-store';
import { ACTOR_PATH, type FederationDeps, SHARED_INBOX_PATH, fetchPolicy } from './options';
import { deliverDueOnce } from './deliveries';
import type { DeliveryRun } from './delivery-worker';

/**
 * ActivityPub (issue 21), on with FEDERATION; this module (and Fedify, ~45 MB of memory) is loaded by
 * server/http/federation-routes.ts on first use: the first fediverse request, or delivery due.
 * - Each public collection is a `Group` actor at /ap/actors/c-{id}, found by WebFinger as
 *   @{slug}@{host}; its public page answers with the actor to a client asking for ActivityStreams JSON.
 * - Each curator with a public collection is a `Person` at /ap/actors/u-{user id}, found as
 *   @{fediverse username}@{host}; their profile page answers with it the same way. It announces
 *   the resources added to their public collections.
 * Remote servers follow either through its inbox (signatures checked by Fedify), and are sent an
 * Accept. Moderation choices: docs/decisions.md ("Fediverse").
 */

/** Activities per page of an actor's outbox. */
const OUTBOX_PAGE = 20;
/** Expired cache entries are deleted this often (each process; the delete is idempotent). */
const KV_PURGE_MS = 60 * 60_000;

/** Who an actor identifier stands for: a collection or a user (live or not), or nothing of ours. */
function followedOf(identifier: string): Followed | null {
  const collection = collectionIdOf(identifier);
  if (collection) return { collection };
  const user = userIdOf(identifier);
  return user ? { user } : null;
}

/** Whether the collection or user still exists (actor or not): their keys still sign what they send. */
async function actorExists(db: Db['kysely'], identifier: string): Promise<boolean> {
  const followed = followedOf(identifier);
  if (!followed) return false;
  return 'collection' in followed ? collectionExists(db, followed.collection) : userExists(db, followed.user);
}

export interface LoadedFederation {
  federation: Federation<void>;
  /** Claims one batch of due deliveries and sends it. */
  deliver(): Promise<DeliveryRun>;
  stop(): void;
}

export function supercurateFederation({ db, publicUrl, allowPrivateAddress, timeoutMs, blockedHosts, log }: FederationDeps): LoadedFederation {
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
      const p = c ? null : await personActor(kysely, identifier);
      if (!c && !p) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      const common = {
        id: ctx.getActorUri(identifier),
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: keys[0]?.cryptographicKey ?? null,
        assertionMethods: keys.map((k) => k.multikey),
        manuallyApprovesFollowers: false,
        discoverable: true,
      };
      if (c) {
        const icon = absoluteImageUrl(publicUrl, c.thumbnail_url);
        return new Group({
          ...common,
          preferredUsername: c.slug,
          name: c.title,
          summary: c.description ? `<p>${escapeHtml(c.description)}</p>` : null,
          icon: icon ? new Image({ url: new URL(icon) }) : null,
          url: new URL(paths.publicSupercuration(c.slug), publicUrl),
          published: Temporal.Instant.from(c.created_at),
        });
      }
      return p
        ? new Person({
            ...common,
            preferredUsername: p.username,
            name: p.name,
            summary: p.bio ? `<p>${escapeHtml(p.bio)}</p>` : null,
            icon: new Image({ url: new URL(avatarUrl(p.id, p.avatar_key), publicUrl) }),
            url: new URL(paths.profile(p.id), publicUrl),
            published: Temporal.Instant.from(p.created_at),
          })
        : null;
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => ((await actorExists(kysely, identifier)) ? actorKeyPairs(kysely, identifier) : []))
    // A collection's slug and a user's username never clash (server/services/fediverse-usernames.ts).
    .mapHandle(async (_ctx, username) => (await actorOfSlug(kysely, username)) ?? actorOfUsername(kysely, username));

  /** The collection or curator an identifier names, while it is an actor, else null. */
  const liveActor = async (identifier: string) => (await collectionActor(kysely, identifier)) ?? (await personActor(kysely, identifier));
  /** A live actor's followers in all (in-app and remote), or null when it is no actor. */
  const followersOf = async (identifier: string) => (await liveActor(identifier))?.followers ?? null;

  // Followers are counted (in-app and remote together), not listed: they did not ask to be shown.
  federation
    .setFollowersDispatcher(`${ACTOR_PATH}/followers`, async (_ctx, identifier) => ((await followersOf(identifier)) === null ? null : { items: [] }))
    .setCounter(async (_ctx, identifier) => followersOf(identifier));

  // The outbox, newest first, OUTBOX_PAGE a page: a collection's Create per resource; a curator's
  // Announce of each resource of their public collections.
  const OUTBOX_TAG = 'ap-outbox';
  const outboxScope = async (identifier: string): Promise<{ scope: ResourceScope; total: number } | null> => {
    const c = await collectionActor(kysely, identifier);
    if (c) return { scope: { supercurationId: c.id }, total: c.links_count };
    const p = await personActor(kysely, identifier);
    return p ? { scope: { ownerId: p.id }, total: await publicResourcesCount(kysely, p.id) } : null;
  };
  federation
    .setOutboxDispatcher(`${ACTOR_PATH}/outbox`, async (ctx, identifier, cursor) => {
      if (cursor === null) return null;
      const found = await outboxScope(identifier);
      if (!found) return null;
      let before: ResourceKeyset | null = null;
      if (cursor !== '') {
        try {
          before = decodeKeyset(OUTBOX_TAG, ['string', 'string', 'string'], cursor) as ResourceKeyset;
        } catch {
          return null;
        }
      }
      const rows = await resourceRows(kysely, found.scope, { before, limit: OUTBOX_PAGE + 1 });
      const page = rows.slice(0, OUTBOX_PAGE);
      const last = page[page.length - 1];
      const actor = ctx.getActorUri(identifier);
      const byPerson = 'ownerId' in found.scope;
      return {
        items: page.map((r) => {
          if (!byPerson) return resourceCreate(publicUrl, actor, r);
          const note = resourceNote(publicUrl, ctx.getActorUri(actorIdentifier(r.supercuration_id)), r);
          return resourceAnnounce(actor, note, Date.parse(r.added_at));
        }),
        nextCursor: rows.length > OUTBOX_PAGE && last ? encodeKeyset(OUTBOX_TAG, [last.added_at, last.link_id, last.supercuration_id]) : null,
      };
    })
    .setCounter(async (_ctx, identifier) => (await outboxScope(identifier))?.total ?? null)
    .setFirstCursor(() => '');

  federation.setObjectDispatcher(Note, NOTES_PATH, async (ctx, { collection, link }) => {
    const [row] = await resourceRows(kysely, { supercurationId: collection }, { linkIds: [link] });
    return row ? resourceNote(publicUrl, ctx.getActorUri(actorIdentifier(collection)), row) : null;
  });

  federation
    .setInboxListeners(`${ACTOR_PATH}/inbox`, SHARED_INBOX_PATH)
    .on(Follow, async (ctx, follow) => {
      if (follow.id === null || follow.objectId === null) return;
      const target = ctx.parseUri(follow.objectId);
      if (target?.type !== 'actor') return;
      const followed = followedOf(target.identifier);
      if (!followed || !(await liveActor(target.identifier))) return;
      const follower = await follow.getActor(ctx);
      // Fedify checked that the signature is the actor's: its key, on its host.
      if (!isActor(follower) || follower.id === null || follower.inboxId === null || isBlockedHost(follower.id.hostname, blockedHosts)) return;
      const sharedInbox = follower.endpoints?.sharedInbox ?? null;
      // Only http(s) addresses are stored (they are shown as links, and posted to).
      if (![follower.id, follower.inboxId, sharedInbox].every((u) => u === null || isHttpUrl(u.href))) return;
      await addRemoteFollower(kysely, followed, {
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
      const followed = target?.type === 'actor' ? followedOf(target.identifier) : null;
      const actor = undo.actorId.href;
      if (followed) await kysely.transaction().execute((trx) => removeRemoteFollower(trx, followed, actor));
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
  const policy = fetchPolicy({ allowPrivateAddress });
  return {
    federation,
    deliver: () => deliverDueOnce({ db, federation, publicUrl, policy, timeoutMs, blockedHosts, log }),
    stop: () => clearInterval(purge),
  };
}
