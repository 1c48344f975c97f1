import { z } from 'zod';
import type { BookmarkFilePreview, BookmarkImportSummary } from '../domain/bookmarks';
import { BOOKMARK_MESSAGES } from '../domain/bookmarks';
import { type BatchShareResult, batchShareSchema } from '../domain/import';
import {
  type LikeState,
  type Link,
  type LinkPreview,
  type Page,
  type Topic,
  createLinkSchema,
  linkListQuerySchema,
  topicInputSchema,
  topicUpdateSchema,
  updateLinkSchema,
} from '../domain/links';
import { LINK_MESSAGES, MSG, SUPERCURATION_MESSAGES } from '../domain/messages';
import { type UserProfile, profileUpdateSchema } from '../domain/schemas';
import { SUBSCRIPTION_MESSAGES, type SubscriberPage, type SubscriptionState } from '../domain/subscriptions';
import {
  type Collaborator,
  type CollaboratorCandidate,
  type EmailSubscribeResult,
  type EmailSubscriberGroup,
  type Supercuration,
  type SupercurationChoice,
  type SupercurationSummary,
  type TagCategory,
  addCollaboratorSchema,
  addResourceSchema,
  collaboratorSearchQuerySchema,
  createSupercurationSchema,
  directoryQuerySchema,
  emailSubscribeSchema,
  resourceListQuerySchema,
  setResourceTagsSchema,
  supercurationListQuerySchema,
  tagInputSchema,
  updateSupercurationSchema,
  updateTagCategorySchema,
} from '../domain/supercurations';

/**
 * The JSON API's route table: method, URL pattern and zod schemas of each route, shared by the
 * server (which registers each with its handler through the zod type provider, so input arrives
 * validated and @fastify/swagger documents it) and the typed client in ./client.ts. No server code
 * here: the web app and the extension import it.
 */
export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify's pattern: `:name` is a path parameter. */
  url: string;
  schema: {
    summary: string;
    description?: string;
    tags: readonly string[];
    params?: z.ZodType;
    querystring?: z.ZodType;
    body?: z.ZodType;
    /** Bodies to show in the OpenAPI document. */
    examples?: readonly unknown[];
    response?: Record<number, z.ZodType>;
  };
  /** Signed-in only; the message of the 401 otherwise. */
  auth?: string;
}

/** The answer's type on success, for the client (responses are not all described by zod schemas). */
declare const answer: unique symbol;
export type AnswerOf<R> = R extends { [answer]?: infer T } ? T : never;

/** A route answering T on success. */
const route =
  <T>() =>
  <const R extends ApiRoute>(r: R): R & { [answer]?: T } =>
    r;

const id = z.object({ id: z.string() });
const idLink = z.object({ id: z.string(), linkId: z.string() });
const idCategory = z.object({ id: z.string(), categoryId: z.string() });
const cursorQuery = z.object({ cursor: z.string().max(500).optional() });

/** The handlers check `url` themselves: a missing or non-http(s) one has its own message and code. */
const urlQuery = z.object({ url: z.unknown().optional().describe('An http(s) URL') });

const signedIn = MSG.notAuthenticated;
const { mustLogInToCreate, mustLogInToUpdate, mustLogInToRemove } = SUPERCURATION_MESSAGES;

export const apiRoutes = {
  health: route<{ status: string; database: string; version: string; schema: string | null }>()({
    method: 'GET',
    url: '/api/health',
    schema: { summary: 'Server and database health, version and schema', tags: ['Server'] },
  }),

  // Users and profiles
  me: route<UserProfile>()({
    method: 'GET',
    url: '/api/me',
    auth: signedIn,
    schema: { summary: 'The signed-in user', tags: ['Users'] },
  }),
  getUser: route<UserProfile>()({
    method: 'GET',
    url: '/api/users/:id',
    schema: { summary: "A user's profile", tags: ['Users'], params: id },
  }),
  updateProfile: route<UserProfile>()({
    method: 'PATCH',
    url: '/api/users/:id',
    auth: signedIn,
    schema: { summary: 'Edit my profile', tags: ['Users'], params: id, body: profileUpdateSchema },
  }),
  uploadAvatar: route<UserProfile>()({
    method: 'POST',
    url: '/api/users/:id/avatar',
    auth: signedIn,
    schema: { summary: "Replace my avatar (multipart field 'avatar')", tags: ['Users'], params: id },
  }),
  removeAvatar: route<UserProfile>()({
    method: 'DELETE',
    url: '/api/users/:id/avatar',
    auth: signedIn,
    schema: { summary: 'Remove my avatar', tags: ['Users'], params: id },
  }),
  subscribe: route<SubscriptionState>()({
    method: 'POST',
    url: '/api/users/:id/subscription',
    auth: SUBSCRIPTION_MESSAGES.mustLogInToSubscribe,
    schema: { summary: 'Subscribe to a user (idempotent)', tags: ['Following'], params: id },
  }),
  unsubscribe: route<SubscriptionState>()({
    method: 'DELETE',
    url: '/api/users/:id/subscription',
    auth: SUBSCRIPTION_MESSAGES.mustLogInToUnsubscribe,
    schema: { summary: 'Unsubscribe from a user (idempotent)', tags: ['Following'], params: id },
  }),
  listSubscribers: route<SubscriberPage>()({
    method: 'GET',
    url: '/api/me/subscribers',
    auth: SUBSCRIPTION_MESSAGES.mustLogInToSeeSubscribers,
    schema: { summary: 'My subscribers, newest first', tags: ['Following'], querystring: cursorQuery },
  }),
  myEmailSubscribers: route<EmailSubscriberGroup[]>()({
    method: 'GET',
    url: '/api/me/email-subscribers',
    auth: SUBSCRIPTION_MESSAGES.mustLogInToSeeSubscribers,
    schema: { summary: "The confirmed e-mail subscribers of my collections", tags: ['Following'] },
  }),

  // Links
  listLinks: route<Page<Link>>()({
    method: 'GET',
    url: '/api/links',
    auth: signedIn,
    schema: {
      summary: 'List my feed',
      description: 'Example: `GET /api/links?scope=mine&window=week&format=video` answers `{ items: Link[], nextCursor, hasMore }`; pass `nextCursor` as `cursor` for the next page.',
      tags: ['Links'],
      querystring: linkListQuerySchema,
    },
  }),
  lookupLink: route<Link>()({
    method: 'GET',
    url: '/api/links/lookup',
    auth: signedIn,
    schema: { summary: 'My link with this URL (normalised as when sharing)', tags: ['Links'], querystring: urlQuery },
  }),
  getLink: route<Link>()({
    method: 'GET',
    url: '/api/links/:id',
    schema: { summary: 'A link', tags: ['Links'], params: id },
  }),
  createLink: route<Link>()({
    method: 'POST',
    url: '/api/links',
    auth: LINK_MESSAGES.mustLogInToShare,
    schema: {
      summary: 'Share a link',
      tags: ['Links'],
      body: createLinkSchema,
      examples: [{ url: 'https://example.com/article', title: 'A good read', description: 'Why it matters, in two lines.', format: 'article', topicIds: [] }],
    },
  }),
  updateLink: route<Link>()({
    method: 'PATCH',
    url: '/api/links/:id',
    auth: LINK_MESSAGES.mustLogInToUpdate,
    schema: { summary: 'Edit a link', tags: ['Links'], params: id, body: updateLinkSchema },
  }),
  deleteLink: route<void>()({
    method: 'DELETE',
    url: '/api/links/:id',
    auth: LINK_MESSAGES.mustLogInToDelete,
    schema: { summary: 'Delete my link', tags: ['Links'], params: id },
  }),
  toggleLike: route<LikeState>()({
    method: 'POST',
    url: '/api/links/:id/like',
    auth: LINK_MESSAGES.mustLogInToLike,
    schema: { summary: 'Like or unlike a link', tags: ['Links'], params: id },
  }),
  repost: route<Link>()({
    method: 'POST',
    url: '/api/links/:id/repost',
    auth: LINK_MESSAGES.mustLogInToRepost,
    schema: { summary: 'Repost a link', tags: ['Links'], params: id },
  }),
  shareLinks: route<BatchShareResult>()({
    method: 'POST',
    url: '/api/links/batch',
    auth: LINK_MESSAGES.mustLogInToShare,
    schema: {
      summary: 'Batch import: share up to 100 links at once, all or none',
      tags: ['Import'],
      body: batchShareSchema,
      examples: [
        {
          items: [
            { url: 'https://example.com/one', title: 'One', description: 'The first find.' },
            { url: 'https://example.com/two', title: 'Two', description: 'The second find.', thumbnailUrl: null },
          ],
          supercurationIds: ['Xq3vN0aP7Lm2'],
          inMainFeed: true,
        },
      ],
    },
  }),
  previewBookmarks: route<BookmarkFilePreview>()({
    method: 'POST',
    url: '/api/import/bookmarks/preview',
    auth: BOOKMARK_MESSAGES.mustLogIn,
    schema: { summary: "A bookmarks file's folders and counts (multipart field 'file'), nothing written", tags: ['Import'] },
  }),
  importBookmarks: route<BookmarkImportSummary>()({
    method: 'POST',
    url: '/api/import/bookmarks',
    auth: BOOKMARK_MESSAGES.mustLogIn,
    schema: { summary: "Import a bookmarks file (multipart fields 'mapping' then 'file')", tags: ['Import'] },
  }),

  preview: route<LinkPreview>()({
    method: 'GET',
    url: '/api/preview',
    auth: signedIn,
    schema: { summary: "A page's title, description and image", tags: ['Links'], querystring: urlQuery },
  }),
  uploadImage: route<{ url: string }>()({
    method: 'POST',
    url: '/api/uploads/images',
    auth: signedIn,
    schema: { summary: "Upload a thumbnail (multipart field 'image'); answers its URL", tags: ['Links'] },
  }),

  // Topics
  listTopics: route<Topic[]>()({
    method: 'GET',
    url: '/api/topics',
    auth: signedIn,
    schema: { summary: 'My topics', tags: ['Topics'] },
  }),
  createTopic: route<Topic>()({
    method: 'POST',
    url: '/api/topics',
    auth: signedIn,
    schema: { summary: 'Add a topic', tags: ['Topics'], body: topicInputSchema },
  }),
  updateTopic: route<Topic>()({
    method: 'PATCH',
    url: '/api/topics/:id',
    auth: signedIn,
    schema: { summary: 'Rename or recolour a topic', tags: ['Topics'], params: id, body: topicUpdateSchema },
  }),
  deleteTopic: route<void>()({
    method: 'DELETE',
    url: '/api/topics/:id',
    auth: signedIn,
    schema: { summary: 'Delete a topic', tags: ['Topics'], params: id },
  }),

  // Supercurations
  listSupercurations: route<Page<SupercurationSummary>>()({
    method: 'GET',
    url: '/api/supercurations',
    auth: signedIn,
    schema: { summary: 'My supercurations (own and collaborating), plus public ones', tags: ['Supercurations'], querystring: supercurationListQuerySchema },
  }),
  supercurationChoices: route<SupercurationChoice[]>()({
    method: 'GET',
    url: '/api/supercurations/choices',
    auth: signedIn,
    schema: { summary: 'Collections I may add links to', tags: ['Supercurations'] },
  }),
  directory: route<Page<SupercurationSummary>>()({
    method: 'GET',
    url: '/api/directory',
    schema: { summary: 'Public collections, searched and filtered', tags: ['Supercurations'], querystring: directoryQuerySchema },
  }),
  userSupercurations: route<Page<SupercurationSummary>>()({
    method: 'GET',
    url: '/api/users/:id/supercurations',
    schema: { summary: "A user's public collections", tags: ['Supercurations'], params: id, querystring: cursorQuery },
  }),
  publicSupercuration: route<Supercuration>()({
    method: 'GET',
    url: '/api/supercurations/public/:slug',
    schema: { summary: 'A public collection by its slug', tags: ['Supercurations'], params: z.object({ slug: z.string() }) },
  }),
  getSupercuration: route<Supercuration>()({
    method: 'GET',
    url: '/api/supercurations/:id',
    schema: { summary: 'A collection', tags: ['Supercurations'], params: id },
  }),
  createSupercuration: route<Supercuration>()({
    method: 'POST',
    url: '/api/supercurations',
    auth: mustLogInToCreate,
    schema: { summary: 'Create a collection', tags: ['Supercurations'], body: createSupercurationSchema },
  }),
  updateSupercuration: route<Supercuration>()({
    method: 'PATCH',
    url: '/api/supercurations/:id',
    auth: mustLogInToUpdate,
    schema: { summary: 'Edit a collection', tags: ['Supercurations'], params: id, body: updateSupercurationSchema },
  }),
  deleteSupercuration: route<void>()({
    method: 'DELETE',
    url: '/api/supercurations/:id',
    auth: mustLogInToRemove,
    schema: { summary: 'Delete my collection', tags: ['Supercurations'], params: id },
  }),
  listResources: route<Page<Link>>()({
    method: 'GET',
    url: '/api/supercurations/:id/resources',
    schema: { summary: "A collection's resources", tags: ['Supercurations'], params: id, querystring: resourceListQuerySchema },
  }),
  addResource: route<Link>()({
    method: 'POST',
    url: '/api/supercurations/:id/resources',
    auth: mustLogInToUpdate,
    schema: {
      summary: 'Add a resource to a collection: a saved link or a new one',
      tags: ['Supercurations'],
      params: id,
      body: addResourceSchema,
      examples: [{ linkId: 'Xq3vN0aP7Lm2' }, { link: { url: 'https://example.com/talk', title: 'A talk', description: 'Slides and video.' } }],
    },
  }),
  setResourceTags: route<Link>()({
    method: 'PUT',
    url: '/api/supercurations/:id/resources/:linkId',
    auth: mustLogInToUpdate,
    schema: { summary: "Replace a resource's tags", tags: ['Supercurations'], params: idLink, body: setResourceTagsSchema },
  }),
  removeResource: route<void>()({
    method: 'DELETE',
    url: '/api/supercurations/:id/resources/:linkId',
    auth: mustLogInToUpdate,
    schema: { summary: 'Remove a resource from a collection', tags: ['Supercurations'], params: idLink },
  }),
  createTagCategory: route<TagCategory>()({
    method: 'POST',
    url: '/api/supercurations/:id/tag-categories',
    auth: mustLogInToUpdate,
    schema: { summary: 'Add a tag category', tags: ['Supercurations'], params: id },
  }),
  updateTagCategory: route<TagCategory>()({
    method: 'PATCH',
    url: '/api/supercurations/:id/tag-categories/:categoryId',
    auth: mustLogInToUpdate,
    schema: { summary: 'Rename or recolour a tag category', tags: ['Supercurations'], params: idCategory, body: updateTagCategorySchema },
  }),
  deleteTagCategory: route<void>()({
    method: 'DELETE',
    url: '/api/supercurations/:id/tag-categories/:categoryId',
    auth: mustLogInToUpdate,
    schema: { summary: 'Delete a tag category', tags: ['Supercurations'], params: idCategory },
  }),
  addTag: route<TagCategory>()({
    method: 'POST',
    url: '/api/supercurations/:id/tag-categories/:categoryId/tags',
    auth: mustLogInToUpdate,
    schema: { summary: 'Add a tag to a category', tags: ['Supercurations'], params: idCategory, body: tagInputSchema },
  }),
  removeTag: route<TagCategory>()({
    method: 'DELETE',
    url: '/api/supercurations/:id/tag-categories/:categoryId/tags/:name',
    auth: mustLogInToUpdate,
    schema: { summary: 'Remove a tag', tags: ['Supercurations'], params: z.object({ id: z.string(), categoryId: z.string(), name: z.string() }) },
  }),
  searchCollaborators: route<CollaboratorCandidate[]>()({
    method: 'GET',
    url: '/api/supercurations/:id/collaborator-candidates',
    auth: mustLogInToUpdate,
    schema: { summary: 'Users who could collaborate, by name', tags: ['Supercurations'], params: id, querystring: collaboratorSearchQuerySchema },
  }),
  addCollaborator: route<Collaborator>()({
    method: 'POST',
    url: '/api/supercurations/:id/collaborators',
    auth: mustLogInToUpdate,
    schema: { summary: 'Add a collaborator', tags: ['Supercurations'], params: id, body: addCollaboratorSchema },
  }),
  removeCollaborator: route<void>()({
    method: 'DELETE',
    url: '/api/supercurations/:id/collaborators/:userId',
    auth: mustLogInToUpdate,
    schema: { summary: 'Remove a collaborator', tags: ['Supercurations'], params: z.object({ id: z.string(), userId: z.string() }) },
  }),
  subscribeByEmail: route<EmailSubscribeResult>()({
    method: 'POST',
    url: '/api/supercurations/:id/subscribers',
    schema: { summary: 'Subscribe an e-mail address to a public collection (double opt-in)', tags: ['Supercurations'], params: id, body: emailSubscribeSchema },
  }),
} as const satisfies Record<string, ApiRoute>;

export type ApiRoutes = typeof apiRoutes;
