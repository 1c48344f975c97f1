import { z } from 'zod';
import { endpoints } from './endpoints';
import type { BookmarkFilePreview, BookmarkImportSummary } from '../domain/bookmarks';
import { BOOKMARK_MESSAGES } from '../domain/bookmarks';
import { followingQuerySchema, readerDigestSchema } from '../domain/following';
import { type SearchHit, searchQuerySchema } from '../domain/search';
import { type ReadableCopySettings, type ReadableCopyView, readableCopySettingSchema } from '../domain/readable';
import { type BatchShareResult, batchShareSchema, importFeedSchema } from '../domain/import';
import {
  type LikeState,
  type Link,
  type LinkPreview,
  type Page,
  type Topic,
  linkListQuerySchema,
  shareLinkSchema,
  topicInputSchema,
  topicUpdateSchema,
  updateLinkSchema,
} from '../domain/links';
import { API_TOKEN_MESSAGES, LINK_MESSAGES, MSG, SEARCH_MESSAGES, SUPERCURATION_MESSAGES } from '../domain/messages';
import { type ApiToken, type CreatedApiToken, createApiTokenSchema } from '../domain/api-tokens';
import { type UserProfile, profileUpdateSchema } from '../domain/schemas';
import {
  FOLLOWING_MESSAGES,
  type FollowingItem,
  READER_DIGEST_MESSAGES,
  type ReaderDigestSettings,
  SUBSCRIPTION_MESSAGES,
  type SubscriberPage,
  type SubscriptionState,
} from '../domain/subscriptions';
import {
  type Collaborator,
  type CollaboratorCandidate,
  type EmailSubscribeResult,
  type EmailSubscriberGroup,
  type FediverseFollowers,
  type PublicSupercuration,
  type Supercuration,
  type SupercurationChoice,
  type SupercurationFollowState,
  type SupercurationSummary,
  type TagCategory,
  addCollaboratorSchema,
  addResourceSchema,
  collaboratorSearchQuerySchema,
  createSupercurationSchema,
  directoryQuerySchema,
  emailSubscribeSchema,
  fediverseFollowerQuerySchema,
  resourceListQuerySchema,
  setResourceTagsSchema,
  supercurationListQuerySchema,
  tagInputSchema,
  updateSupercurationSchema,
  updateTagCategorySchema,
} from '../domain/supercurations';

/**
 * The JSON API's route table: method and URL pattern of each route (./endpoints.ts) with its zod
 * schemas, read by the server (which registers each with its handler through the zod type
 * provider, so input arrives validated and @fastify/swagger documents it). The typed client in
 * ./client.ts takes its types from here and its methods and URLs from ./endpoints.ts. No server
 * code here.
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
  /** Only with a signed-in person's session, not a personal token; the message of the 403 to a token. */
  sessionOnly?: string;
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
    ...endpoints.health,
    schema: { summary: 'Server and database health, version and schema', tags: ['Server'] },
  }),

  // Users and profiles
  me: route<UserProfile>()({
    ...endpoints.me,
    auth: signedIn,
    schema: { summary: 'The signed-in user', tags: ['Users'] },
  }),
  getUser: route<UserProfile>()({
    ...endpoints.getUser,
    schema: { summary: "A user's profile", tags: ['Users'], params: id },
  }),
  updateProfile: route<UserProfile>()({
    ...endpoints.updateProfile,
    auth: signedIn,
    schema: { summary: 'Edit my profile', tags: ['Users'], params: id, body: profileUpdateSchema },
  }),
  uploadAvatar: route<UserProfile>()({
    ...endpoints.uploadAvatar,
    auth: signedIn,
    schema: { summary: "Replace my avatar (multipart field 'avatar')", tags: ['Users'], params: id },
  }),
  removeAvatar: route<UserProfile>()({
    ...endpoints.removeAvatar,
    auth: signedIn,
    schema: { summary: 'Remove my avatar', tags: ['Users'], params: id },
  }),
  subscribe: route<SubscriptionState>()({
    ...endpoints.subscribe,
    auth: SUBSCRIPTION_MESSAGES.mustLogInToSubscribe,
    schema: { summary: 'Subscribe to a user (idempotent)', tags: ['Following'], params: id },
  }),
  unsubscribe: route<SubscriptionState>()({
    ...endpoints.unsubscribe,
    auth: SUBSCRIPTION_MESSAGES.mustLogInToUnsubscribe,
    schema: { summary: 'Unsubscribe from a user (idempotent)', tags: ['Following'], params: id },
  }),
  listSubscribers: route<SubscriberPage>()({
    ...endpoints.listSubscribers,
    auth: SUBSCRIPTION_MESSAGES.mustLogInToSeeSubscribers,
    schema: { summary: 'My subscribers, newest first', tags: ['Following'], querystring: cursorQuery },
  }),
  myEmailSubscribers: route<EmailSubscriberGroup[]>()({
    ...endpoints.myEmailSubscribers,
    auth: SUBSCRIPTION_MESSAGES.mustLogInToSeeSubscribers,
    schema: { summary: "The confirmed e-mail subscribers of my collections", tags: ['Following'] },
  }),
  myFediverseFollowers: route<FediverseFollowers>()({
    ...endpoints.myFediverseFollowers,
    auth: SUBSCRIPTION_MESSAGES.mustLogInToSeeSubscribers,
    schema: { summary: 'My followers, and my collections’, on other (fediverse) servers', tags: ['Following'] },
  }),
  removeMyFediverseFollower: route<void>()({
    ...endpoints.removeMyFediverseFollower,
    auth: signedIn,
    schema: { summary: 'Remove one of my followers on another server (it is sent a Reject)', tags: ['Following'], querystring: fediverseFollowerQuerySchema },
  }),
  following: route<Page<FollowingItem>>()({
    ...endpoints.following,
    auth: FOLLOWING_MESSAGES.mustLogIn,
    schema: {
      summary: 'What the users I subscribe to and the public collections I follow published, newest first',
      tags: ['Following'],
      querystring: followingQuerySchema,
    },
  }),

  readerDigest: route<ReaderDigestSettings>()({
    ...endpoints.readerDigest,
    auth: READER_DIGEST_MESSAGES.mustLogIn,
    schema: { summary: 'How often my digest e-mail of what I follow goes out', tags: ['Following'] },
  }),
  setReaderDigest: route<ReaderDigestSettings>()({
    ...endpoints.setReaderDigest,
    auth: READER_DIGEST_MESSAGES.mustLogIn,
    schema: {
      summary: 'Set how often my digest e-mail goes out: off, daily or weekly',
      tags: ['Following'],
      body: readerDigestSchema,
      examples: [{ frequency: 'daily' }],
    },
  }),

  // Readable copies
  readableCopy: route<ReadableCopyView>()({
    ...endpoints.readableCopy,
    schema: {
      summary: "A link's readable copy, for its author and the editors of the collections holding it",
      description: 'Anyone else, visitors included, gets 404. `state` says whether there is a copy, it is being made, none could be made, or copies are off.',
      tags: ['Links'],
      params: id,
    },
  }),
  readableCopySettings: route<ReadableCopySettings>()({
    ...endpoints.readableCopySettings,
    auth: signedIn,
    schema: { summary: 'Whether readable copies of my links are kept, and how many there are', tags: ['Links'] },
  }),
  setReadableCopySettings: route<ReadableCopySettings>()({
    ...endpoints.setReadableCopySettings,
    auth: signedIn,
    schema: {
      summary: 'Keep readable copies of my links, or not (off deletes them)',
      tags: ['Links'],
      body: readableCopySettingSchema,
      examples: [{ keep: true }],
    },
  }),

  // Links
  listLinks: route<Page<Link>>()({
    ...endpoints.listLinks,
    auth: signedIn,
    schema: {
      summary: 'List my feed',
      description: 'Example: `GET /api/links?scope=mine&window=week&format=video` answers `{ items: Link[], nextCursor, hasMore }`; pass `nextCursor` as `cursor` for the next page.',
      tags: ['Links'],
      querystring: linkListQuerySchema,
    },
  }),
  search: route<Page<SearchHit>>()({
    ...endpoints.search,
    auth: SEARCH_MESSAGES.mustLogInToSearch,
    schema: {
      summary: 'Search my links and the resources of the collections I edit',
      description:
        'Ranked by title, description, topics, domain and readable text. `q` takes words (as prefixes), `"phrases"`, `-excluded` words, `site:example.com`, `topic:name` and `in:"collection title"`; `from` and `to` (YYYY-MM-DD, UTC) bound the saved date. Answers `{ items: [{ link, snippet }], nextCursor, hasMore }`; `snippet` is HTML with the matched words in `<mark>`.',
      tags: ['Links'],
      querystring: searchQuerySchema,
    },
  }),
  lookupLink: route<Link>()({
    ...endpoints.lookupLink,
    auth: signedIn,
    schema: { summary: 'My link with this URL (normalised as when sharing)', tags: ['Links'], querystring: urlQuery },
  }),
  getLink: route<Link>()({
    ...endpoints.getLink,
    schema: { summary: 'A link', tags: ['Links'], params: id },
  }),
  createLink: route<Link>()({
    ...endpoints.createLink,
    auth: LINK_MESSAGES.mustLogInToShare,
    schema: {
      summary: 'Share a link',
      description: 'The extension also sends `readable`: the article as the user saw it (HTML, sanitised by the server), kept as the readable copy.',
      tags: ['Links'],
      body: shareLinkSchema,
      examples: [{ url: 'https://example.com/article', title: 'A good read', description: 'Why it matters, in two lines.', format: 'article', topicIds: [] }],
    },
  }),
  updateLink: route<Link>()({
    ...endpoints.updateLink,
    auth: LINK_MESSAGES.mustLogInToUpdate,
    schema: { summary: 'Edit a link', tags: ['Links'], params: id, body: updateLinkSchema },
  }),
  deleteLink: route<void>()({
    ...endpoints.deleteLink,
    auth: LINK_MESSAGES.mustLogInToDelete,
    schema: { summary: 'Delete my link', tags: ['Links'], params: id },
  }),
  toggleLike: route<LikeState>()({
    ...endpoints.toggleLike,
    auth: LINK_MESSAGES.mustLogInToLike,
    schema: { summary: 'Like or unlike a link', tags: ['Links'], params: id },
  }),
  repost: route<Link>()({
    ...endpoints.repost,
    auth: LINK_MESSAGES.mustLogInToRepost,
    schema: { summary: 'Repost a link', tags: ['Links'], params: id },
  }),
  markLinkFine: route<void>()({
    ...endpoints.markLinkFine,
    auth: LINK_MESSAGES.mustLogInToUpdate,
    schema: { summary: 'Mark a broken link as fine: no badge, and no failure counted until it works again (who may edit it)', tags: ['Links'], params: id },
  }),
  brokenLinkCount: route<{ count: number }>()({
    ...endpoints.brokenLinkCount,
    auth: signedIn,
    schema: { summary: 'How many of my links the link checker found broken', tags: ['Links'] },
  }),
  shareLinks: route<BatchShareResult>()({
    ...endpoints.shareLinks,
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
    ...endpoints.previewBookmarks,
    auth: BOOKMARK_MESSAGES.mustLogIn,
    schema: { summary: "An import file's folders and counts (multipart field 'file'), nothing written", tags: ['Import'] },
  }),
  importBookmarks: route<BookmarkImportSummary>()({
    ...endpoints.importBookmarks,
    auth: BOOKMARK_MESSAGES.mustLogIn,
    schema: { summary: "Import a bookmarks or read-later export (multipart fields 'mapping', 'inMainFeed', 'file')", tags: ['Import'] },
  }),
  importFeed: route<BookmarkImportSummary>()({
    ...endpoints.importFeed,
    auth: BOOKMARK_MESSAGES.mustLogIn,
    schema: {
      summary: 'Import the items of an RSS or Atom feed (a public collection elsewhere) as a private supercuration',
      tags: ['Import'],
      body: importFeedSchema,
      examples: [{ url: 'https://example.com/collections/climate.rss' }],
    },
  }),

  preview: route<LinkPreview>()({
    ...endpoints.preview,
    auth: signedIn,
    schema: { summary: "A page's title, description and image", tags: ['Links'], querystring: urlQuery },
  }),
  uploadImage: route<{ url: string }>()({
    ...endpoints.uploadImage,
    auth: signedIn,
    schema: { summary: "Upload a thumbnail (multipart field 'image'); answers its URL", tags: ['Links'] },
  }),

  // Personal access tokens
  listApiTokens: route<ApiToken[]>()({
    ...endpoints.listApiTokens,
    auth: signedIn,
    schema: { summary: 'My personal access tokens (never their values)', tags: ['Tokens'] },
  }),
  createApiToken: route<CreatedApiToken>()({
    ...endpoints.createApiToken,
    auth: signedIn,
    sessionOnly: API_TOKEN_MESSAGES.tokensNeedSession,
    schema: {
      summary: 'Create a personal access token; its value is in this answer only',
      tags: ['Tokens'],
      body: createApiTokenSchema,
      examples: [{ name: 'Reading-list script', expiresInDays: 90 }],
    },
  }),
  revokeApiToken: route<void>()({
    ...endpoints.revokeApiToken,
    auth: signedIn,
    sessionOnly: API_TOKEN_MESSAGES.tokensNeedSession,
    schema: { summary: 'Revoke one of my personal access tokens, at once', tags: ['Tokens'], params: id },
  }),

  // Topics
  listTopics: route<Topic[]>()({
    ...endpoints.listTopics,
    auth: signedIn,
    schema: { summary: 'My topics', tags: ['Topics'] },
  }),
  createTopic: route<Topic>()({
    ...endpoints.createTopic,
    auth: signedIn,
    schema: { summary: 'Add a topic', tags: ['Topics'], body: topicInputSchema },
  }),
  updateTopic: route<Topic>()({
    ...endpoints.updateTopic,
    auth: signedIn,
    schema: { summary: 'Rename or recolour a topic', tags: ['Topics'], params: id, body: topicUpdateSchema },
  }),
  deleteTopic: route<void>()({
    ...endpoints.deleteTopic,
    auth: signedIn,
    schema: { summary: 'Delete a topic', tags: ['Topics'], params: id },
  }),

  // Supercurations
  listSupercurations: route<Page<SupercurationSummary>>()({
    ...endpoints.listSupercurations,
    auth: signedIn,
    schema: { summary: 'My supercurations (own and collaborating), plus public ones', tags: ['Supercurations'], querystring: supercurationListQuerySchema },
  }),
  supercurationChoices: route<SupercurationChoice[]>()({
    ...endpoints.supercurationChoices,
    auth: signedIn,
    schema: { summary: 'Collections I may add links to', tags: ['Supercurations'] },
  }),
  directory: route<Page<SupercurationSummary>>()({
    ...endpoints.directory,
    schema: { summary: 'Public collections, searched and filtered', tags: ['Supercurations'], querystring: directoryQuerySchema },
  }),
  userSupercurations: route<Page<SupercurationSummary>>()({
    ...endpoints.userSupercurations,
    schema: { summary: "A user's public collections", tags: ['Supercurations'], params: id, querystring: cursorQuery },
  }),
  publicSupercuration: route<PublicSupercuration>()({
    ...endpoints.publicSupercuration,
    schema: { summary: 'A public collection by its slug', tags: ['Supercurations'], params: z.object({ slug: z.string() }) },
  }),
  getSupercuration: route<Supercuration>()({
    ...endpoints.getSupercuration,
    schema: { summary: 'A collection', tags: ['Supercurations'], params: id },
  }),
  supercurationPreviewsLeft: route<{ left: number }>()({
    ...endpoints.supercurationPreviewsLeft,
    auth: signedIn,
    schema: { summary: "How many of a collection's imported links still wait for their preview (its editors)", tags: ['Supercurations'], params: id },
  }),
  supercurationBrokenCount: route<{ count: number }>()({
    ...endpoints.supercurationBrokenCount,
    auth: signedIn,
    schema: { summary: "How many of a collection's links the link checker found broken (its editors)", tags: ['Supercurations'], params: id },
  }),
  createSupercuration: route<Supercuration>()({
    ...endpoints.createSupercuration,
    auth: mustLogInToCreate,
    schema: { summary: 'Create a collection', tags: ['Supercurations'], body: createSupercurationSchema },
  }),
  updateSupercuration: route<Supercuration>()({
    ...endpoints.updateSupercuration,
    auth: mustLogInToUpdate,
    schema: { summary: 'Edit a collection', tags: ['Supercurations'], params: id, body: updateSupercurationSchema },
  }),
  deleteSupercuration: route<void>()({
    ...endpoints.deleteSupercuration,
    auth: mustLogInToRemove,
    schema: { summary: 'Delete my collection', tags: ['Supercurations'], params: id },
  }),
  listResources: route<Page<Link>>()({
    ...endpoints.listResources,
    schema: { summary: "A collection's resources", tags: ['Supercurations'], params: id, querystring: resourceListQuerySchema },
  }),
  addResource: route<Link>()({
    ...endpoints.addResource,
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
    ...endpoints.setResourceTags,
    auth: mustLogInToUpdate,
    schema: { summary: "Replace a resource's tags", tags: ['Supercurations'], params: idLink, body: setResourceTagsSchema },
  }),
  removeResource: route<void>()({
    ...endpoints.removeResource,
    auth: mustLogInToUpdate,
    schema: { summary: 'Remove a resource from a collection', tags: ['Supercurations'], params: idLink },
  }),
  createTagCategory: route<TagCategory>()({
    ...endpoints.createTagCategory,
    auth: mustLogInToUpdate,
    schema: { summary: 'Add a tag category', tags: ['Supercurations'], params: id },
  }),
  updateTagCategory: route<TagCategory>()({
    ...endpoints.updateTagCategory,
    auth: mustLogInToUpdate,
    schema: { summary: 'Rename or recolour a tag category', tags: ['Supercurations'], params: idCategory, body: updateTagCategorySchema },
  }),
  deleteTagCategory: route<void>()({
    ...endpoints.deleteTagCategory,
    auth: mustLogInToUpdate,
    schema: { summary: 'Delete a tag category', tags: ['Supercurations'], params: idCategory },
  }),
  addTag: route<TagCategory>()({
    ...endpoints.addTag,
    auth: mustLogInToUpdate,
    schema: { summary: 'Add a tag to a category', tags: ['Supercurations'], params: idCategory, body: tagInputSchema },
  }),
  removeTag: route<TagCategory>()({
    ...endpoints.removeTag,
    auth: mustLogInToUpdate,
    schema: { summary: 'Remove a tag', tags: ['Supercurations'], params: z.object({ id: z.string(), categoryId: z.string(), name: z.string() }) },
  }),
  searchCollaborators: route<CollaboratorCandidate[]>()({
    ...endpoints.searchCollaborators,
    auth: mustLogInToUpdate,
    schema: { summary: 'Users who could collaborate, by name', tags: ['Supercurations'], params: id, querystring: collaboratorSearchQuerySchema },
  }),
  addCollaborator: route<Collaborator>()({
    ...endpoints.addCollaborator,
    auth: mustLogInToUpdate,
    schema: { summary: 'Add a collaborator', tags: ['Supercurations'], params: id, body: addCollaboratorSchema },
  }),
  removeCollaborator: route<void>()({
    ...endpoints.removeCollaborator,
    auth: mustLogInToUpdate,
    schema: { summary: 'Remove a collaborator', tags: ['Supercurations'], params: z.object({ id: z.string(), userId: z.string() }) },
  }),
  removeFediverseFollower: route<void>()({
    ...endpoints.removeFediverseFollower,
    auth: mustLogInToUpdate,
    schema: {
      summary: 'Remove a follower from another server (it is sent a Reject)',
      tags: ['Supercurations'],
      params: id,
      querystring: fediverseFollowerQuerySchema,
    },
  }),
  subscribeByEmail: route<EmailSubscribeResult>()({
    ...endpoints.subscribeByEmail,
    schema: { summary: 'Subscribe an e-mail address to a public collection (double opt-in)', tags: ['Supercurations'], params: id, body: emailSubscribeSchema },
  }),
  followSupercuration: route<SupercurationFollowState>()({
    ...endpoints.followSupercuration,
    auth: SUPERCURATION_MESSAGES.mustLogInToFollow,
    schema: { summary: "Follow someone else's public collection (idempotent)", tags: ['Supercurations'], params: id },
  }),
  unfollowSupercuration: route<SupercurationFollowState>()({
    ...endpoints.unfollowSupercuration,
    auth: SUPERCURATION_MESSAGES.mustLogInToFollow,
    schema: { summary: 'Stop following a collection (idempotent)', tags: ['Supercurations'], params: id },
  }),
} as const satisfies Record<string, ApiRoute>;

export type ApiRoutes = typeof apiRoutes;
