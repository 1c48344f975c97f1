import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import type { Link, Supercuration, TagCategory, Topic } from '../../shared/domain';
import { sha256, unsubscribeToken } from '../../server/services/email-subscriptions';
import { newId } from '../../server/db/ids';
import { type Followed, addRemoteFollower } from '../../server/services/fediverse';
import { nestedBookmarkFile } from '../support/bookmark-files';
import { http, newUser, secondSession, sessionToken, signedInUser } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { type Route, callableRoutes } from '../support/routes';
import type { TestServer } from '../support/server';
import { type User, createCollection } from '../support/supercurations';
import { standInWebDir } from '../support/web-dir';

/**
 * Every route of the route table × visitor, signed-in stranger, collaborator and owner,
 * with the status each gets, in one table (TABLE below), sent over HTTP to the real server on a
 * real database. The route table is the server's own (buildApp's onRoute, tests/support/routes.ts),
 * so a route added without a row fails the first test.
 *
 * Which routes: every callable route (HEAD twins of GET routes are left out, see callableRoutes),
 * API and page routes alike, except the files of WEB_DIR that @fastify/static registers one route
 * each (GET /index.html here, the hashed assets of a real build): they are the same bytes for
 * everyone. A wildcard route would have no row and fail the test until someone decides.
 *
 * The roles, in the world of buildWorld: the owner has a PRIVATE collection with a collaborator
 * and a private link (in it only, out of the main feed). "Owner" is the collection's owner and the
 * link's author; on a user's own routes (/api/users/:id..., /api/me..., the account endpoints) it is
 * the user themself, and the stranger and the collaborator are other signed-in users. The roles
 * run in the order visitor, stranger, collaborator, owner. A row whose call would spend part of the
 * world (a deletion, a sign-out) makes a fresh target for each call instead, so rows don't depend
 * on each other.
 */

type Role = 'visitor' | 'stranger' | 'collaborator' | 'owner';
type SignedIn = Exclude<Role, 'visitor'>;
const ROLES: readonly Role[] = ['visitor', 'stranger', 'collaborator', 'owner'];

/** What a row sends, to its own route: the method and URL pattern of its key, `params` filled in. */
interface Call {
  params?: Record<string, string>;
  query?: Record<string, string>;
  json?: unknown;
  form?: FormData;
  /** Sent with this session cookie (null: none) instead of the role's own. */
  session?: string | null;
}

/** The status each role gets, and how to call the route (without `call`: the bare route, no body). */
type Row = Record<Role, number> & { call?: (w: World, role: Role) => Call | Promise<Call> };

interface World {
  server: TestServer;
  users: Record<SignedIn, User>;
  /** A fourth user, whom the collaborator rows add to and remove from the collection. */
  extra: User;
  /** The owner's topic. */
  topic: Topic;
  /** The owner's PRIVATE collection; `users.collaborator` collaborates on it. */
  collection: Supercuration;
  /** The owner's link, only in `collection` and out of the main feed: private. */
  link: Link;
  /** A tag category of `collection`, with the tag 'kind' on `link`. */
  category: TagCategory;
  /** The owner's public collection, for the routes that take a slug. */
  publicCollection: Supercuration;
  /** The file name of an image the owner uploaded. */
  image: string;
  /** A small PNG, for uploads. */
  png: Blob;
}

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;
const uniqueUrl = () => `https://${unique('roles')}.example.com/`;

async function buildWorld(server: TestServer): Promise<World> {
  const url = server.url;
  const owner = await signedInUser(url, 'Olive Owner');
  const collaborator = await signedInUser(url, 'Colin Collaborator');
  const stranger = await signedInUser(url, 'Stan Stranger');
  const extra = await signedInUser(url, 'Eve Extra');
  const topic = await owner.api.createTopic({ name: unique('Roles'), color: '#336699' });
  const collection = await createCollection(owner, { isPublic: false, title: 'Team notes' });
  await owner.api.addCollaborator(collection.id, collaborator.me.id);
  const category = await owner.api.createTagCategory(collection.id);
  await owner.api.addTag(collection.id, category.id, 'kind');
  const publicCollection = await createCollection(owner, { isPublic: true, title: 'Open shelf' });
  const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).png().toBuffer();
  const png = new Blob([bytes], { type: 'image/png' });
  const image = (await owner.api.uploadImage(png)).url.split('/').pop() ?? '';
  const world = { server, users: { owner, collaborator, stranger }, extra, topic, collection, category, publicCollection, image, png };
  const link = await privateLink(world);
  await owner.api.setResourceTags(collection.id, link.id, ['kind']);
  return { ...world, link };
}

// Fresh targets, for rows whose call spends what it acts on.

/** A new private link of the owner's, only in the private collection. */
const privateLink = (w: Omit<World, 'link'>) =>
  w.users.owner.api.createLink({
    title: 'Team plans',
    description: 'Only for the team',
    url: uniqueUrl(),
    supercurationIds: [w.collection.id],
    inMainFeed: false,
  });

/** Another session of the role's user (a visitor has none), for calls that end the session they are sent with. */
const otherSession = (w: World, role: SignedIn) => secondSession(w.server.url, w.users[role].input);

/** Whether `extra` collaborates on the collection, whatever they did before. */
async function setExtraCollaborating(w: World, collaborating: boolean): Promise<void> {
  const { owner } = w.users;
  const change = collaborating
    ? owner.api.addCollaborator(w.collection.id, w.extra.me.id)
    : owner.api.removeCollaborator(w.collection.id, w.extra.me.id);
  // 409: already one; 404: not one.
  await change.catch((err: { status?: number }) => {
    if (err.status !== (collaborating ? 409 : 404)) throw err;
  });
}

/** A follower on another server (of the collection, or of its owner), stored as the inbox stores one; its actor URI. */
async function remoteFollower(w: World, followed: Followed = { collection: w.collection.id }): Promise<string> {
  const actor = `https://remote.example/users/${newId()}`;
  await addRemoteFollower(w.server.db.kysely, followed, {
    actorUri: actor,
    inboxUri: `${actor}/inbox`,
    sharedInboxUri: 'https://remote.example/inbox',
    followUri: `${actor}#follow`,
  });
  return actor;
}

/** An e-mail subscription to the public collection, and the tokens its mails would carry. */
async function emailSubscription(w: World): Promise<{ confirm: string; unsubscribe: string }> {
  const id = newId();
  const confirm = randomBytes(32).toString('base64url');
  await w.server.db.kysely
    .insertInto('email_subscribers')
    .values({
      id,
      supercuration_id: w.publicCollection.id,
      email: newUser().email,
      confirmed_at: null,
      token_hash: sha256(confirm),
      created_at: new Date().toISOString(),
      confirm_sent_at: null,
    })
    .execute();
  return { confirm, unsubscribe: unsubscribeToken(w.server.config.authSecret, id) };
}

const digestToken = (w: World) => unsubscribeToken(w.server.config.authSecret, w.users.owner.me.id, 'reader-digest-unsubscribe');

const imageForm = (w: World, field: string) => {
  const form = new FormData();
  form.append(field, w.png, 'image.png');
  return form;
};

/** A bookmarks file with folder f0 holding one new URL, sent to `mapping`'s targets. */
const bookmarksForm = (mapping?: Record<string, unknown>) => {
  const form = new FormData();
  if (mapping) form.append('mapping', JSON.stringify(mapping));
  form.append('file', new Blob([nestedBookmarkFile(1, 1, unique('bookmark') + '.example.com')], { type: 'text/html' }), 'bookmarks.html');
  return form;
};

const ownerParams = (w: World) => ({ id: w.users.owner.me.id });
const collectionParams = (w: World, more: Record<string, string> = {}) => ({ id: w.collection.id, ...more });
const slugParams = (w: World) => ({ slug: w.publicCollection.slug ?? '' });

/**
 * THE TABLE: for each route, the status of a visitor, a signed-in stranger, the collaborator and
 * the owner (SPEC §6, the policies in server/policies and docs/decisions.md: writes need a session
 * (401); a private collection and a private link are 404 to those who may not see them, 403 only
 * where the viewer may see but not do).
 */
const TABLE: Record<string, Row> = {
  // Health
  'GET /api/health/live': { visitor: 200, stranger: 200, collaborator: 200, owner: 200 },
  'GET /api/health': { visitor: 200, stranger: 200, collaborator: 200, owner: 200 },

  // The API reference (server/http/api-docs.ts): open to anyone, like the API's shape. The page's
  // own routes are @fastify/swagger-ui's; /api/docs/static/index.html redirects to the page.
  'GET /api/openapi.json': { visitor: 200, stranger: 200, collaborator: 200, owner: 200 },
  'GET /api/docs': { visitor: 200, stranger: 200, collaborator: 200, owner: 200 },
  'HEAD /api/docs/': { visitor: 200, stranger: 200, collaborator: 200, owner: 200 },
  'GET /api/docs/json': { visitor: 200, stranger: 200, collaborator: 200, owner: 200 },
  'GET /api/docs/yaml': { visitor: 200, stranger: 200, collaborator: 200, owner: 200 },
  'GET /api/docs/static/index.html': { visitor: 302, stranger: 302, collaborator: 302, owner: 302 },
  'GET /api/docs/static/swagger-initializer.js': { visitor: 200, stranger: 200, collaborator: 200, owner: 200 },
  'GET /api/docs/static/*': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: () => ({ params: { '*': 'swagger-ui.css' } }) },

  // Better Auth (server/http/auth-routes.ts). Signing up or in is open to anyone, signed in or not.
  'POST /api/auth/sign-up/email': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: () => ({ json: newUser() }) },
  'POST /api/auth/sign-in/email': {
    visitor: 200, stranger: 200, collaborator: 200, owner: 200,
    call: (w) => ({ json: { email: w.users.owner.input.email, password: w.users.owner.input.password } }),
  },
  // Signing out without a session has nothing to end; each role signs out a second session of its own.
  'POST /api/auth/sign-out': {
    visitor: 200, stranger: 200, collaborator: 200, owner: 200,
    call: async (w, role) => ({ session: role === 'visitor' ? null : (await otherSession(w, role)).cookieHeader(), json: {} }),
  },
  // One's own password (to itself, so the world's passwords stay): no one else's can be named.
  'POST /api/auth/change-password': {
    visitor: 401, stranger: 200, collaborator: 200, owner: 200,
    call: (w, role) => {
      const password = w.users[role === 'visitor' ? 'owner' : role].input.password;
      return { json: { currentPassword: password, newPassword: password } };
    },
  },
  // Open to anyone, the same answer for any address (no enumeration): a visitor asks for the owner's
  // address, each signed-in user for their own (mails per address are limited).
  'POST /api/auth/request-password-reset': {
    visitor: 200, stranger: 200, collaborator: 200, owner: 200,
    call: (w, role) => ({ json: { email: w.users[role === 'visitor' ? 'owner' : role].input.email } }),
  },
  // Only the mailed token resets a password, whoever sends it.
  'POST /api/auth/reset-password': { visitor: 400, stranger: 400, collaborator: 400, owner: 400, call: () => ({ json: { token: 'not-a-token', newPassword: 'another-horse-7' } }) },
  // For an account's address: a visitor (the sign-in page's resend), or that account itself; another
  // account's session is refused (EMAIL_MISMATCH). A fresh account each time (mails per address are limited).
  'POST /api/auth/send-verification-email': {
    visitor: 200, stranger: 400, collaborator: 400, owner: 200,
    call: async (w, role) => {
      const account = await signedInUser(w.server.url);
      return { json: { email: account.input.email }, ...(role === 'owner' ? { session: account.cookieHeader() } : {}) };
    },
  },
  // The link in the mail; a wrong token ends on the web app's page with ?error=, for anyone.
  'GET /api/auth/verify-email': { visitor: 302, stranger: 302, collaborator: 302, owner: 302, call: () => ({ query: { token: 'not-a-token' } }) },
  'POST /api/auth/change-email': { visitor: 401, stranger: 200, collaborator: 200, owner: 200, call: () => ({ json: { newEmail: newUser().email } }) },
  'GET /api/auth/list-sessions': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },
  // The owner's second session: others get Better Auth's 200 and revoke nothing (accounts.test.ts checks that it stays).
  'POST /api/auth/revoke-session': {
    visitor: 401, stranger: 200, collaborator: 200, owner: 200,
    call: async (w) => ({ json: { token: sessionToken(await otherSession(w, 'owner')) } }),
  },
  'POST /api/auth/revoke-other-sessions': { visitor: 401, stranger: 200, collaborator: 200, owner: 200, call: () => ({ json: {} }) },
  // The owner's address and password from another session: refused. The owner deleting "their"
  // account is a fresh account deleting itself, so the world keeps its owner.
  'POST /api/auth/delete-user': {
    visitor: 401, stranger: 400, collaborator: 400, owner: 200,
    call: async (w, role) => {
      if (role !== 'owner') return { json: { email: w.users.owner.input.email, password: w.users.owner.input.password } };
      const account = await signedInUser(w.server.url);
      return { json: { email: account.input.email, password: account.input.password }, session: account.cookieHeader() };
    },
  },

  // Users: anyone reads a profile; only the user themself writes it.
  'GET /api/me': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },
  'GET /api/users/:id': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: (w) => ({ params: ownerParams(w) }) },
  'PATCH /api/users/:id': { visitor: 401, stranger: 403, collaborator: 403, owner: 200, call: (w) => ({ params: ownerParams(w), json: { name: 'Olive Owner', bio: 'Curating.' } }) },
  'POST /api/users/:id/avatar': { visitor: 401, stranger: 403, collaborator: 403, owner: 200, call: (w) => ({ params: ownerParams(w), form: imageForm(w, 'avatar') }) },
  'DELETE /api/users/:id/avatar': { visitor: 401, stranger: 403, collaborator: 403, owner: 200, call: (w) => ({ params: ownerParams(w) }) },
  'GET /api/users/:id/avatar': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: (w) => ({ params: ownerParams(w) }) },
  'GET /api/me/export': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },

  // Personal access tokens: each user's own; another's token is 404 (api-tokens.test.ts has the token's own refusals).
  'GET /api/me/tokens': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },
  'POST /api/me/tokens': { visitor: 401, stranger: 201, collaborator: 201, owner: 201, call: () => ({ json: { name: unique('token') } }) },
  'DELETE /api/me/tokens/:id': {
    visitor: 401, stranger: 404, collaborator: 404, owner: 204,
    call: async (w) => ({ params: { id: (await w.users.owner.api.createApiToken({ name: unique('doomed') })).id } }),
  },

  // Links: the private link is seen and edited by its author and the collection's editors, deleted by its author only.
  'GET /api/links': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },
  'GET /api/search': { visitor: 401, stranger: 200, collaborator: 200, owner: 200, call: () => ({ query: { q: 'secret' } }) },
  // One's own link with that URL: only the author has one.
  'GET /api/links/lookup': { visitor: 401, stranger: 404, collaborator: 404, owner: 200, call: (w) => ({ query: { url: w.link.url ?? '' } }) },
  'GET /api/links/:id': { visitor: 404, stranger: 404, collaborator: 200, owner: 200, call: (w) => ({ params: { id: w.link.id } }) },
  // A new link filed in the private collection.
  'POST /api/links': {
    visitor: 401, stranger: 404, collaborator: 201, owner: 201,
    call: (w) => ({ json: { title: 'New', description: 'Filed', url: uniqueUrl(), supercurationIds: [w.collection.id], inMainFeed: false } }),
  },
  'PATCH /api/links/:id': { visitor: 401, stranger: 404, collaborator: 200, owner: 200, call: (w) => ({ params: { id: w.link.id }, json: { title: 'Team plans, edited' } }) },
  'DELETE /api/links/:id': { visitor: 401, stranger: 404, collaborator: 403, owner: 204, call: async (w) => ({ params: { id: (await privateLink(w)).id } }) },
  'POST /api/links/:id/like': { visitor: 401, stranger: 404, collaborator: 200, owner: 200, call: (w) => ({ params: { id: w.link.id } }) },
  // Anyone who sees the link may repost it, except its author.
  'POST /api/links/:id/repost': { visitor: 401, stranger: 404, collaborator: 201, owner: 403, call: (w) => ({ params: { id: w.link.id } }) },
  // Link health: whoever may edit the link marks it fine; each counts their own broken links.
  'POST /api/links/:id/fine': { visitor: 401, stranger: 404, collaborator: 204, owner: 204, call: (w) => ({ params: { id: w.link.id } }) },
  'GET /api/links/broken-count': { visitor: 401, stranger: 200, collaborator: 200, owner: 200, call: () => ({}) },
  // Readable copies: the link's author and its collections' editors only; a 404 to anyone else, visitors included.
  'GET /api/links/:id/copy': { visitor: 404, stranger: 404, collaborator: 200, owner: 200, call: (w) => ({ params: { id: w.link.id } }) },
  'GET /api/me/readable-copies': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },
  'PUT /api/me/readable-copies': { visitor: 401, stranger: 200, collaborator: 200, owner: 200, call: () => ({ json: { keep: true } }) },

  // Import and export: files and batches into the private collection need its editors.
  'POST /api/links/batch': {
    visitor: 401, stranger: 404, collaborator: 201, owner: 201,
    call: (w) => ({ json: { items: [{ url: uniqueUrl(), title: 'Batch', description: 'Shared' }], supercurationIds: [w.collection.id] } }),
  },
  'POST /api/import/bookmarks': {
    visitor: 401, stranger: 404, collaborator: 200, owner: 200,
    call: (w) => ({ form: bookmarksForm({ f0: { type: 'collection', id: w.collection.id } }) }),
  },
  // Any signed-in user may import a feed: here the server's own feed of the public collection (on
  // loopback, so PREVIEW_ALLOW_PRIVATE), with a link added for each call.
  'POST /api/import/feed': {
    visitor: 401, stranger: 200, collaborator: 200, owner: 200,
    call: async (w) => {
      await w.users.owner.api.createLink({ title: 'Shelved', description: 'In the open', url: uniqueUrl(), supercurationIds: [w.publicCollection.id] });
      return { json: { url: `${w.server.url}/supercurations/public/${slugParams(w).slug}/feed.xml` } };
    },
  },
  'POST /api/import/bookmarks/preview': { visitor: 401, stranger: 200, collaborator: 200, owner: 200, call: () => ({ form: bookmarksForm() }) },
  'GET /api/export/bookmarks': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },

  // Topics are each user's own: the owner's topic doesn't exist for anyone else.
  'GET /api/topics': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },
  'POST /api/topics': { visitor: 401, stranger: 201, collaborator: 201, owner: 201, call: () => ({ json: { name: unique('Topic'), color: '#DC2626' } }) },
  'PATCH /api/topics/:id': { visitor: 401, stranger: 404, collaborator: 404, owner: 200, call: (w) => ({ params: { id: w.topic.id }, json: { color: '#DC2626' } }) },
  'DELETE /api/topics/:id': {
    visitor: 401, stranger: 404, collaborator: 404, owner: 204,
    call: async (w) => ({ params: { id: (await w.users.owner.api.createTopic({ name: unique('Gone'), color: '#DC2626' })).id } }),
  },

  // Supercurations: the private collection is 404 to those who can't see it; its editors edit it;
  // only the owner deletes it or removes another collaborator.
  'GET /api/supercurations': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },
  'GET /api/supercurations/choices': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },
  'GET /api/directory': { visitor: 200, stranger: 200, collaborator: 200, owner: 200 },
  'GET /api/users/:id/supercurations': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: (w) => ({ params: ownerParams(w) }) },
  // A private collection has no slug: the public page is the public collection's.
  'GET /api/supercurations/public/:slug': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: (w) => ({ params: slugParams(w) }) },
  'GET /api/supercurations/:id': { visitor: 404, stranger: 404, collaborator: 200, owner: 200, call: (w) => ({ params: collectionParams(w) }) },
  'GET /api/supercurations/:id/broken-count': { visitor: 401, stranger: 404, collaborator: 200, owner: 200, call: (w) => ({ params: collectionParams(w) }) },
  'GET /api/supercurations/:id/previews-left': { visitor: 401, stranger: 404, collaborator: 200, owner: 200, call: (w) => ({ params: collectionParams(w) }) },
  'POST /api/supercurations': { visitor: 401, stranger: 201, collaborator: 201, owner: 201, call: () => ({ json: { title: 'Mine' } }) },
  'PATCH /api/supercurations/:id': { visitor: 401, stranger: 404, collaborator: 200, owner: 200, call: (w) => ({ params: collectionParams(w), json: { title: 'Team notes' } }) },
  'DELETE /api/supercurations/:id': {
    visitor: 401, stranger: 404, collaborator: 403, owner: 204,
    call: async (w) => {
      const doomed = await createCollection(w.users.owner, { isPublic: false });
      await w.users.owner.api.addCollaborator(doomed.id, w.users.collaborator.me.id);
      return { params: { id: doomed.id } };
    },
  },
  'GET /api/supercurations/:id/resources': { visitor: 404, stranger: 404, collaborator: 200, owner: 200, call: (w) => ({ params: collectionParams(w) }) },
  'POST /api/supercurations/:id/resources': {
    visitor: 401, stranger: 404, collaborator: 201, owner: 201,
    call: (w) => ({ params: collectionParams(w), json: { link: { title: 'Resource', description: 'Added', url: uniqueUrl() } } }),
  },
  'PUT /api/supercurations/:id/resources/:linkId': {
    visitor: 401, stranger: 404, collaborator: 200, owner: 200,
    call: (w) => ({ params: collectionParams(w, { linkId: w.link.id }), json: { tags: ['kind'] } }),
  },
  'DELETE /api/supercurations/:id/resources/:linkId': {
    visitor: 401, stranger: 404, collaborator: 204, owner: 204,
    call: async (w) => ({ params: collectionParams(w, { linkId: (await privateLink(w)).id }) }),
  },
  'POST /api/supercurations/:id/tag-categories': { visitor: 401, stranger: 404, collaborator: 201, owner: 201, call: (w) => ({ params: collectionParams(w) }) },
  'PATCH /api/supercurations/:id/tag-categories/:categoryId': {
    visitor: 401, stranger: 404, collaborator: 200, owner: 200,
    call: (w) => ({ params: collectionParams(w, { categoryId: w.category.id }), json: { name: 'Kinds' } }),
  },
  'DELETE /api/supercurations/:id/tag-categories/:categoryId': {
    visitor: 401, stranger: 404, collaborator: 204, owner: 204,
    call: async (w) => ({ params: collectionParams(w, { categoryId: (await w.users.owner.api.createTagCategory(w.collection.id)).id }) }),
  },
  'POST /api/supercurations/:id/tag-categories/:categoryId/tags': {
    visitor: 401, stranger: 404, collaborator: 201, owner: 201,
    call: (w) => ({ params: collectionParams(w, { categoryId: w.category.id }), json: { name: unique('tag') } }),
  },
  'DELETE /api/supercurations/:id/tag-categories/:categoryId/tags/:name': {
    visitor: 401, stranger: 404, collaborator: 200, owner: 200,
    call: async (w) => {
      const name = unique('gone');
      await w.users.owner.api.addTag(w.collection.id, w.category.id, name);
      return { params: collectionParams(w, { categoryId: w.category.id, name }) };
    },
  },
  'GET /api/supercurations/:id/collaborator-candidates': { visitor: 401, stranger: 404, collaborator: 200, owner: 200, call: (w) => ({ params: collectionParams(w), query: { q: 'e' } }) },
  // Collaborators may add collaborators (docs/decisions.md).
  'POST /api/supercurations/:id/collaborators': {
    visitor: 401, stranger: 404, collaborator: 201, owner: 201,
    call: async (w) => {
      await setExtraCollaborating(w, false);
      return { params: collectionParams(w), json: { userId: w.extra.me.id } };
    },
  },
  'DELETE /api/supercurations/:id/collaborators/:userId': {
    visitor: 401, stranger: 404, collaborator: 403, owner: 204,
    call: async (w) => {
      await setExtraCollaborating(w, true);
      return { params: collectionParams(w, { userId: w.extra.me.id }) };
    },
  },
  // The owner's alone: a remote follower (as a Follow from another server stores it) removed.
  'DELETE /api/supercurations/:id/fediverse-followers': {
    visitor: 401, stranger: 404, collaborator: 403, owner: 204,
    call: async (w) => ({ params: collectionParams(w), query: { actor: await remoteFollower(w) } }),
  },
  // E-mail subscriptions are for public collections only, whoever asks.
  'POST /api/supercurations/:id/subscribers': { visitor: 404, stranger: 404, collaborator: 404, owner: 404, call: (w) => ({ params: collectionParams(w), json: { email: newUser().email } }) },
  // Following: someone else's public collection; its editors already see its changes, a private one is 404.
  'POST /api/supercurations/:id/follow': { visitor: 401, stranger: 200, collaborator: 200, owner: 400, call: (w) => ({ params: { id: w.publicCollection.id } }) },
  'DELETE /api/supercurations/:id/follow': { visitor: 401, stranger: 404, collaborator: 200, owner: 200, call: (w) => ({ params: collectionParams(w) }) },
  'GET /supercurations/public/:slug/feed.xml': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: (w) => ({ params: slugParams(w) }) },
  'GET /s/:slug': { visitor: 301, stranger: 301, collaborator: 301, owner: 301, call: (w) => ({ params: slugParams(w) }) },

  // Images: uploads need a session and are served to anyone who has the (random) name. The image
  // proxy fetches for signed-in users; a visitor only gets what is cached or a stored thumbnail
  // (the visitor asks first, before anything is cached).
  'POST /api/uploads/images': { visitor: 401, stranger: 201, collaborator: 201, owner: 201, call: (w) => ({ form: imageForm(w, 'image') }) },
  'GET /api/uploads/images/:name': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: (w) => ({ params: { name: w.image } }) },
  'GET /api/preview': { visitor: 401, stranger: 200, collaborator: 200, owner: 200, call: (w) => ({ query: { url: `${w.server.url}/` } }) },
  'GET /api/images/proxy': {
    visitor: 404, stranger: 200, collaborator: 200, owner: 200,
    call: (w) => ({ query: { url: `${w.server.url}/api/uploads/images/${w.image}` } }),
  },

  // Following: any signed-in user subscribes to another (not to themself); dashboards are one's own.
  'POST /api/users/:id/subscription': { visitor: 401, stranger: 200, collaborator: 200, owner: 400, call: (w) => ({ params: ownerParams(w) }) },
  'DELETE /api/users/:id/subscription': { visitor: 401, stranger: 200, collaborator: 200, owner: 400, call: (w) => ({ params: ownerParams(w) }) },
  'GET /api/me/subscribers': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },
  'GET /api/following': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },
  'GET /api/me/digest': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },
  'PUT /api/me/digest': { visitor: 401, stranger: 200, collaborator: 200, owner: 200, call: () => ({ json: { frequency: 'daily' } }) },
  'GET /api/me/subscribers.csv': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },
  'GET /api/me/email-subscribers': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },
  'GET /api/me/fediverse-followers': { visitor: 401, stranger: 200, collaborator: 200, owner: 200 },
  // One's own remote followers only: the owner's follower is no one else's to remove.
  'DELETE /api/me/fediverse-followers': {
    visitor: 401, stranger: 404, collaborator: 404, owner: 204,
    call: async (w) => ({ query: { actor: await remoteFollower(w, { user: w.users.owner.me.id }) } }),
  },
  'GET /users/:id/feed.xml': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: (w) => ({ params: ownerParams(w) }) },

  // The links in the collection e-mails: the token is the authorisation, a session changes nothing.
  'GET /subscriptions/confirm': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: async (w) => ({ query: { token: (await emailSubscription(w)).confirm } }) },
  'GET /subscriptions/unsubscribe': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: async (w) => ({ query: { token: (await emailSubscription(w)).unsubscribe } }) },
  'POST /subscriptions/unsubscribe': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: async (w) => ({ query: { token: (await emailSubscription(w)).unsubscribe } }) },
  // The personal digest's: the owner's, whoever follows it.
  'GET /digest/unsubscribe': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: (w) => ({ query: { token: digestToken(w) } }) },
  'POST /digest/unsubscribe': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: (w) => ({ query: { token: digestToken(w) } }) },

  // Pages (the web app's index.html with the page's head). A private link's page is the app with
  // a 404 for everyone, its author too: its head is what unfurlers read (docs/decisions.md).
  'GET /': { visitor: 200, stranger: 200, collaborator: 200, owner: 200 },
  'GET /directory': { visitor: 200, stranger: 200, collaborator: 200, owner: 200 },
  'GET /links/:id': { visitor: 404, stranger: 404, collaborator: 404, owner: 404, call: (w) => ({ params: { id: w.link.id } }) },
  // The reader view of a link's readable copy: its author and its collections' editors only.
  'GET /links/:id/read': { visitor: 404, stranger: 404, collaborator: 200, owner: 200, call: (w) => ({ params: { id: w.link.id } }) },
  'GET /supercurations/public/:slug': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: (w) => ({ params: slugParams(w) }) },
  'GET /profile/:id': { visitor: 200, stranger: 200, collaborator: 200, owner: 200, call: (w) => ({ params: ownerParams(w) }) },
};

const keyOf = (route: Route) => `${route.method} ${route.url}`;

/** The routes the table must cover: callableRoutes without the files @fastify/static serves from `webDir`. */
function tableRoutes(server: TestServer, webDir: string): Route[] {
  const files = new Set(readdirSync(webDir, { recursive: true, encoding: 'utf8' }).map((f) => `/${f.split('\\').join('/')}`));
  return callableRoutes(server).filter((r) => !(r.method === 'GET' && files.has(r.url)));
}

/** Routes without a row and rows without a route, by key. */
function coverage(routes: Route[], table: Record<string, unknown>) {
  const keys = new Set(routes.map(keyOf));
  return {
    withoutRow: [...keys].filter((k) => !(k in table)),
    withoutRoute: Object.keys(table).filter((k) => !keys.has(k)),
  };
}

/** Sends a row's call to its route as the role (a browser-like request: our Origin, the session cookie). */
async function send(w: World, key: string, role: Role, call: Call): Promise<{ status: number; body: string }> {
  const [method = '', pattern = ''] = key.split(' ');
  // A wildcard's value is a path: its slashes stay.
  const path = pattern.replace(/:(\w+)|\*$/g, (_, name: string | undefined) => {
    const value = call.params?.[name ?? '*'];
    if (value === undefined) throw new Error(`${key}: the row gives no value for ${name ? `:${name}` : '*'}`);
    return name ? encodeURIComponent(value) : value;
  });
  const query = call.query ? `?${new URLSearchParams(call.query)}` : '';
  const session = call.session !== undefined ? call.session : role === 'visitor' ? null : w.users[role].cookieHeader();
  const headers: Record<string, string> = { origin: w.server.url };
  if (session) headers.cookie = session;
  if (call.json !== undefined) headers['content-type'] = 'application/json';
  // Set-Cookie answers are not kept: a role's session is the one buildWorld gave it.
  const res = await http(`${w.server.url}${path}${query}`, {
    method,
    headers,
    body: call.form ?? (call.json === undefined ? undefined : JSON.stringify(call.json)),
    redirect: 'manual',
  });
  return { status: res.status, body: (await res.text()).slice(0, 200) };
}

const webDir = standInWebDir();

describeEachDatabase(
  'route × role table',
  (ctx) => {
    let world: World;
    beforeAll(async () => {
      world = await buildWorld(ctx.server);
    });

    it('has a row for every route of the route table, and a route for every row', () => {
      expect(coverage(tableRoutes(ctx.server, webDir), TABLE)).toEqual({ withoutRow: [], withoutRoute: [] });
    });

    it('names a route added without a row, and a row whose route is gone', () => {
      const routes = tableRoutes(ctx.server, webDir);
      const [first] = routes;
      expect(coverage([...routes, { method: 'POST', url: '/api/new-thing' }], TABLE).withoutRow).toEqual(['POST /api/new-thing']);
      expect(coverage(routes.slice(1), TABLE).withoutRoute).toEqual(first ? [keyOf(first)] : []);
      // The static-file rule leaves out only the web app's files, not a page route of the same method.
      expect(routes.map(keyOf)).not.toContain('GET /index.html');
      expect(routes.map(keyOf)).toContain('GET /');
    });

    for (const [key, row] of Object.entries(TABLE)) {
      it(key, async () => {
        const statuses = {} as Record<Role, number>;
        const answers: string[] = [];
        for (const role of ROLES) {
          const { status, body } = await send(world, key, role, (await row.call?.(world, role)) ?? {});
          statuses[role] = status;
          answers.push(`${role}: ${status} ${body}`);
        }
        const expected = Object.fromEntries(ROLES.map((role) => [role, row[role]]));
        expect(statuses, answers.join('\n')).toEqual(expected);
      });
    }
  },
  { WEB_DIR: webDir, PREVIEW_ALLOW_PRIVATE: 'true' },
);
