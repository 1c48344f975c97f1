import type { z } from 'zod';
import type { AccountSession } from '../domain/account';
import type { CreateApiTokenInput } from '../domain/api-tokens';
import { BOOKMARKS_NDJSON, BOOKMARK_MESSAGES, type BookmarkImportSummary, bookmarkImportForm, readImportEvents } from '../domain/bookmarks';
import type { FollowingQuery, ReaderDigestInput } from '../domain/following';
import type { BatchShareInput, FolderMapping, ImportFeedInput } from '../domain/import';
import type { Link, LinkListQuery, ShareLinkInput, TopicInput, UpdateLinkInput } from '../domain/links';
import { LINK_HEALTH_MESSAGES } from '../domain/link-health';
import type { SearchQuery } from '../domain/search';
import type { ReadableCopySettingInput } from '../domain/readable';
import { READABLE_MESSAGES } from '../domain/readable-texts';
import { ACCOUNT_MESSAGES, API_TOKEN_MESSAGES, IMPORT_MESSAGES, LINK_MESSAGES, MSG, SEARCH_MESSAGES, SUPERCURATION_MESSAGES } from '../domain/messages';
import type { ApiErrorBody, ProfileUpdate, UserProfile } from '../domain/schemas';
import { FOLLOWING_MESSAGES, READER_DIGEST_MESSAGES, SUBSCRIPTION_MESSAGES } from '../domain/subscriptions';
import type {
  AddResourceInput,
  CreateSupercurationInput,
  DirectoryQuery,
  ResourceListQuery,
  SupercurationListQuery,
  UpdateSupercurationInput,
  UpdateTagCategoryInput,
} from '../domain/supercurations';
import { endpoints, pathOf } from './endpoints';
import type { AnswerOf, ApiRoute, ApiRoutes } from './routes';

/** An API failure carrying the server's user-facing message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    /** The rest of the error body, e.g. `index` of a refused batch item. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiClientOptions {
  /** Origin of the server, '' for the same origin (the web app). */
  baseUrl?: string;
  /** Injected for tests and the extension's background worker. */
  fetchImpl?: typeof fetch;
}

interface RequestOptions {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  fallback: string;
}

type Schemas<R extends ApiRoute> = R['schema'];

/** What a call of route R sends: its path parameters, query and body as its schemas take them. */
type CallOptions<R extends ApiRoute> = {
  signal?: AbortSignal;
  fallback: string;
} & (Schemas<R> extends { params: z.ZodType } ? { params: z.input<Schemas<R>['params']> } : unknown) &
  (Schemas<R> extends { querystring: z.ZodType } ? { query?: z.input<Schemas<R>['querystring']> } : unknown) &
  (Schemas<R> extends { body: z.ZodType } ? { body: z.input<Schemas<R>['body']> } : { body?: FormData | Record<string, never> });

export type ApiClient = ReturnType<typeof createApiClient>;

export function createApiClient({ baseUrl = '', fetchImpl = fetch }: ApiClientOptions = {}) {
  async function request<T>(path: string, { method = 'GET', body, signal, fallback }: RequestOptions): Promise<T> {
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
    let res: Response;
    try {
      res = await fetchImpl(`${baseUrl}${path}`, {
        method,
        credentials: 'include',
        signal,
        headers: body === undefined || isForm ? undefined : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new ApiError(0, fallback, 'NETWORK_ERROR');
    }
    const text = await res.text();
    const data: unknown = text ? safeJson(text) : undefined;
    if (!res.ok) {
      const { error, code, ...details } = (data && typeof data === 'object' ? data : {}) as Partial<ApiErrorBody>;
      throw new ApiError(res.status, error ?? fallback, code, details);
    }
    return data as T;
  }

  /** Calls a route of the shared table (./routes.ts) by name. */
  function call<N extends keyof ApiRoutes>(name: N, options: CallOptions<ApiRoutes[N]>): Promise<AnswerOf<ApiRoutes[N]>> {
    const route = endpoints[name];
    const { params, query, body, signal, fallback } = options as CallOptions<ApiRoute> & {
      params?: Record<string, string>;
      query?: Record<string, string | undefined>;
      body?: unknown;
    };
    return request<AnswerOf<ApiRoutes[N]>>(`${pathOf(route.url, params)}${queryString(query ?? {})}`, { method: route.method, body, signal, fallback });
  }

  /**
   * POSTs an import and reads its NDJSON stream: `onProgress` gets (done, total) while the links
   * are written; resolves with the summary. A refusal (4xx, before anything is written) and a
   * failure during the import reject with ApiError.
   */
  async function streamImport(
    path: string,
    body: FormData | string,
    onProgress?: (done: number, total: number) => void,
    headers: Record<string, string> = {},
  ): Promise<BookmarkImportSummary> {
    const fallback = BOOKMARK_MESSAGES.importFailed;
    let res: Response;
    try {
      res = await fetchImpl(`${baseUrl}${path}`, {
        method: 'POST',
        credentials: 'include',
        headers: { accept: BOOKMARKS_NDJSON, ...headers },
        body,
      });
    } catch {
      throw new ApiError(0, fallback, 'NETWORK_ERROR');
    }
    if (!res.ok || !res.body) {
      const data = safeJson(await res.text());
      const { error, code, ...details } = (data && typeof data === 'object' ? data : {}) as Partial<ApiErrorBody>;
      throw new ApiError(res.status, error ?? fallback, code, details);
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    let offset = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (value) text += value;
      const read = readImportEvents(done ? `${text}\n` : text, offset);
      offset = read.next;
      for (const event of read.events) {
        if (event.type === 'progress') onProgress?.(event.done, event.total);
        else if (event.type === 'summary') return event.summary;
        else throw new ApiError(500, event.error, 'IMPORT_FAILED');
      }
      if (done) throw new ApiError(0, fallback, 'NETWORK_ERROR');
    }
  }

  return {
    health: () => call('health', { fallback: MSG.serverUnavailable }),

    signUp: (input: { name: string; email: string; password: string }) =>
      request<{ user: { id: string } }>('/api/auth/sign-up/email', { method: 'POST', body: input, fallback: MSG.signUpFailed }),
    signIn: (input: { email: string; password: string }) =>
      request<{ user: { id: string } }>('/api/auth/sign-in/email', { method: 'POST', body: input, fallback: MSG.signInFailed }),
    signOut: () => request<{ success: boolean }>('/api/auth/sign-out', { method: 'POST', body: {}, fallback: MSG.signOutFailed }),

    // Account lifecycle: Better Auth's endpoints, allow-listed on the server.
    /** Always the same answer, whether or not an account uses the address. */
    requestPasswordReset: (email: string) =>
      request<{ status: boolean }>('/api/auth/request-password-reset', { method: 'POST', body: { email }, fallback: ACCOUNT_MESSAGES.resetFailed }),
    resetPassword: (token: string, newPassword: string) =>
      request<{ status: boolean }>('/api/auth/reset-password', { method: 'POST', body: { token, newPassword }, fallback: ACCOUNT_MESSAGES.resetFailed }),
    /** Ends the other sessions; this one stays. */
    changePassword: (currentPassword: string, newPassword: string) =>
      request<{ token: string | null }>('/api/auth/change-password', {
        method: 'POST',
        body: { currentPassword, newPassword, revokeOtherSessions: true },
        fallback: MSG.authFailed,
      }),
    resendVerification: (email: string) =>
      request<{ status: boolean }>('/api/auth/send-verification-email', { method: 'POST', body: { email }, fallback: ACCOUNT_MESSAGES.verificationFailed }),
    /** Mails the new address a link; the change takes effect when it is opened. */
    changeEmail: (newEmail: string) =>
      request<{ status: boolean }>('/api/auth/change-email', { method: 'POST', body: { newEmail }, fallback: ACCOUNT_MESSAGES.emailChangeFailed }),
    listSessions: (signal?: AbortSignal) => request<AccountSession[]>('/api/auth/list-sessions', { signal, fallback: ACCOUNT_MESSAGES.sessionsFailed }),
    revokeSession: (token: string) =>
      request<{ status: boolean }>('/api/auth/revoke-session', { method: 'POST', body: { token }, fallback: ACCOUNT_MESSAGES.signOutSessionFailed }),
    revokeOtherSessions: () =>
      request<{ status: boolean }>('/api/auth/revoke-other-sessions', { method: 'POST', body: {}, fallback: ACCOUNT_MESSAGES.signOutSessionFailed }),

    // Personal access tokens (Settings → API tokens).
    listApiTokens: (signal?: AbortSignal) => call('listApiTokens', { signal, fallback: API_TOKEN_MESSAGES.loadFailed }),
    createApiToken: (input: CreateApiTokenInput) => call('createApiToken', { body: input, fallback: API_TOKEN_MESSAGES.createFailed }),
    revokeApiToken: (id: string) => call('revokeApiToken', { params: { id }, fallback: API_TOKEN_MESSAGES.revokeFailed }),
    /** Deletes the account and everything it holds; `email` is the account's address, typed to confirm. */
    deleteAccount: (password: string, email: string) =>
      request<{ success: boolean }>('/api/auth/delete-user', { method: 'POST', body: { password, email }, fallback: ACCOUNT_MESSAGES.deleteFailed }),
    /** URL of "Export my data" (a JSON download, cookie-authenticated). */
    accountExportUrl: () => `${baseUrl}/api/me/export`,
    /** URL of the Netscape bookmarks file of my links. */
    bookmarksExportUrl: () => `${baseUrl}/api/export/bookmarks`,

    /** The signed-in user, or null when there is no session. */
    me: async (signal?: AbortSignal): Promise<UserProfile | null> => {
      try {
        return await call('me', { signal, fallback: MSG.authFailed });
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return null;
        throw err;
      }
    },
    getUser: (id: string) => call('getUser', { params: { id }, fallback: MSG.loadProfileFailed }),
    updateProfile: (id: string, input: ProfileUpdate) =>
      call('updateProfile', { params: { id }, body: input, fallback: MSG.profileUpdateFailed }),
    uploadAvatar: (id: string, file: Blob) => {
      const form = new FormData();
      form.append('avatar', file);
      return call('uploadAvatar', { params: { id }, body: form, fallback: MSG.profileUpdateFailed });
    },
    removeAvatar: (id: string) => call('removeAvatar', { params: { id }, fallback: MSG.profileUpdateFailed }),

    // Following.
    /** Subscribes the signed-in user to a user; idempotent. */
    subscribe: (userId: string) =>
      call('subscribe', { params: { id: userId }, body: {}, fallback: SUBSCRIPTION_MESSAGES.subscribeFailed }),
    /** Unsubscribes; idempotent. */
    unsubscribe: (userId: string) =>
      call('unsubscribe', { params: { id: userId }, fallback: SUBSCRIPTION_MESSAGES.unsubscribeFailed }),
    /** The signed-in user's own subscribers, newest first, in pages. */
    listSubscribers: (cursor?: string, signal?: AbortSignal) =>
      call('listSubscribers', { query: { cursor }, signal, fallback: SUBSCRIPTION_MESSAGES.fetchSubscriptionsFailed }),
    /** The confirmed e-mail subscribers of the signed-in user's own collections, per collection. */
    myEmailSubscribers: (signal?: AbortSignal) =>
      call('myEmailSubscribers', { signal, fallback: SUBSCRIPTION_MESSAGES.fetchSubscriptionsFailed }),
    myFediverseFollowers: (signal?: AbortSignal) =>
      call('myFediverseFollowers', { signal, fallback: SUPERCURATION_MESSAGES.fetchFediverseFollowersFailed }),
    /** The Following feed, newest first, in pages. */
    following: (query: FollowingQuery = {}, signal?: AbortSignal) =>
      call('following', {
        query,
        signal,
        fallback: query.cursor ? FOLLOWING_MESSAGES.loadMoreFailed : FOLLOWING_MESSAGES.loadFailed,
      }),
    /** How often the signed-in reader's digest e-mail goes out. */
    readerDigest: (signal?: AbortSignal) => call('readerDigest', { signal, fallback: READER_DIGEST_MESSAGES.loadFailed }),
    setReaderDigest: (input: ReaderDigestInput) => call('setReaderDigest', { body: input, fallback: READER_DIGEST_MESSAGES.saveFailed }),
    /** URL of the CSV export of the signed-in user's subscribers (a download, cookie-authenticated). */
    subscribersCsvUrl: () => `${baseUrl}/api/me/subscribers.csv`,
    /** URL of a user's RSS feed (not under /api: feed readers fetch it). */
    userFeedUrl: (userId: string) => `${baseUrl}/users/${encodeURIComponent(userId)}/feed.xml`,

    listLinks: (query: LinkListQuery = {}, signal?: AbortSignal) =>
      call('listLinks', { query, signal, fallback: linksFallback(query.cursor) }),
    /** Personal search (GET /api/search): ranked pages of my links and my collections' resources. */
    search: (query: SearchQuery, signal?: AbortSignal) => call('search', { query, signal, fallback: SEARCH_MESSAGES.searchFailed }),
    getLink: (id: string, signal?: AbortSignal) => call('getLink', { params: { id }, signal, fallback: LINK_MESSAGES.loadLinkFailed }),
    /** The viewer's own link with this URL (normalised as when sharing), or null when they haven't shared it. */
    lookupLink: async (url: string, signal?: AbortSignal): Promise<Link | null> => {
      try {
        return await call('lookupLink', { query: { url }, signal, fallback: LINK_MESSAGES.loadLinkFailed });
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    createLink: (input: ShareLinkInput) => call('createLink', { body: input, fallback: LINK_MESSAGES.shareLinkFailed }),
    updateLink: (id: string, input: UpdateLinkInput) =>
      call('updateLink', { params: { id }, body: input, fallback: LINK_MESSAGES.updateLinkFailed }),
    deleteLink: (id: string) => call('deleteLink', { params: { id }, fallback: LINK_MESSAGES.deleteLinkFailed }),
    toggleLike: (id: string) => call('toggleLike', { params: { id }, body: {}, fallback: LINK_MESSAGES.likeFailed }),
    repost: (id: string) => call('repost', { params: { id }, body: {}, fallback: LINK_MESSAGES.repostFailed }),
    markLinkFine: (id: string) => call('markLinkFine', { params: { id }, body: {}, fallback: LINK_HEALTH_MESSAGES.markFineFailed }),
    /** A link's readable copy, for its author and the editors of its collections (404 to anyone else). */
    readableCopy: (id: string, signal?: AbortSignal) =>
      call('readableCopy', { params: { id }, signal, fallback: READABLE_MESSAGES.loadFailed }),
    /** Whether readable copies of the signed-in user's links are kept, and how many there are. */
    readableCopySettings: (signal?: AbortSignal) =>
      call('readableCopySettings', { signal, fallback: READABLE_MESSAGES.settingLoadFailed }),
    setReadableCopySettings: (input: ReadableCopySettingInput) =>
      call('setReadableCopySettings', { body: input, fallback: READABLE_MESSAGES.saveFailed }),
    brokenLinkCount: (signal?: AbortSignal) => call('brokenLinkCount', { signal, fallback: LINK_MESSAGES.loadLinksFailed }),
    /**
     * Shares up to 100 links at once (POST /api/links/batch), all or none; a refused item fails
     * with its `index` in `ApiError.details`.
     */
    shareLinks: (input: BatchShareInput) => call('shareLinks', { body: input, fallback: IMPORT_MESSAGES.shareLinksFailed }),
    /** What a bookmarks file holds (its folders and their counts), nothing written. */
    previewBookmarks: (file: Blob, name = 'bookmarks.html') => {
      const form = new FormData();
      form.append('file', file, name);
      return call('previewBookmarks', { body: form, fallback: BOOKMARK_MESSAGES.previewFailed });
    },
    /**
     * Imports a file (POST /api/import/bookmarks, streamed as NDJSON by streamImport; `inMainFeed`
     * also shares the new links on the main feed).
     */
    importBookmarks: (
      file: Blob,
      {
        mapping,
        inMainFeed,
        name = 'bookmarks.html',
        onProgress,
      }: { mapping?: FolderMapping; inMainFeed?: boolean; name?: string; onProgress?: (done: number, total: number) => void } = {},
    ): Promise<BookmarkImportSummary> => {
      const body = bookmarkImportForm(file, name, { mapping, inMainFeed });
      return streamImport(endpoints.importBookmarks.url, body, onProgress);
    },
    /**
     * Imports the items of an RSS or Atom feed as a private supercuration (POST /api/import/feed),
     * streamed as importBookmarks is; a feed the server can't fetch or read rejects with ApiError.
     */
    importFeed: (input: ImportFeedInput, { onProgress }: { onProgress?: (done: number, total: number) => void } = {}) =>
      streamImport(endpoints.importFeed.url, JSON.stringify(input), onProgress, { 'content-type': 'application/json' }),
    preview: (url: string, signal?: AbortSignal) =>
      call('preview', { query: { url }, signal, fallback: LINK_MESSAGES.previewFailed }),
    /** Uploads an image (thumbnail) and returns its URL on our server. */
    uploadImage: (file: Blob) => {
      const form = new FormData();
      form.append('image', file);
      return call('uploadImage', { body: form, fallback: LINK_MESSAGES.uploadImageFailed });
    },

    // Supercurations.
    /** My Supercurations: own + collaborating, plus others' public ones unless scope is 'mine'. */
    listSupercurations: (query: SupercurationListQuery = {}, signal?: AbortSignal) =>
      call('listSupercurations', { query, signal, fallback: SUPERCURATION_MESSAGES.fetchFailed }),
    /** /directory: public collections, searched by title and description, filtered by focus; 24 a page. */
    directory: (query: DirectoryQuery = {}, signal?: AbortSignal) =>
      call('directory', { query, signal, fallback: SUPERCURATION_MESSAGES.fetchFailed }),
    getSupercuration: (id: string, signal?: AbortSignal) =>
      call('getSupercuration', { params: { id }, signal, fallback: SUPERCURATION_MESSAGES.loadFailed }),
    /** How many of the collection's imported links still wait for their preview (its editors). */
    supercurationBrokenCount: (id: string, signal?: AbortSignal) =>
      call('supercurationBrokenCount', { params: { id }, signal, fallback: SUPERCURATION_MESSAGES.loadFailed }),
    supercurationPreviewsLeft: (id: string, signal?: AbortSignal) =>
      call('supercurationPreviewsLeft', { params: { id }, signal, fallback: SUPERCURATION_MESSAGES.loadFailed }),
    /** The public page's collection; 404 "This supercuration doesn't exist or is private" otherwise. */
    getPublicSupercuration: (slug: string, signal?: AbortSignal) =>
      call('publicSupercuration', { params: { slug }, signal, fallback: SUPERCURATION_MESSAGES.loadFailed }),
    createSupercuration: (input: CreateSupercurationInput) =>
      call('createSupercuration', { body: input, fallback: SUPERCURATION_MESSAGES.createFailed }),
    updateSupercuration: (id: string, input: UpdateSupercurationInput) =>
      call('updateSupercuration', { params: { id }, body: input, fallback: SUPERCURATION_MESSAGES.updateFailed }),
    /** Owner only. */
    deleteSupercuration: (id: string) =>
      call('deleteSupercuration', { params: { id }, fallback: SUPERCURATION_MESSAGES.deleteFailed }),
    /** A user's public collections, newest first, 24 a page (their profile's 'Public Supercurations'). */
    userSupercurations: (userId: string, cursor?: string, signal?: AbortSignal) =>
      call('userSupercurations', { params: { id: userId }, query: { cursor }, signal, fallback: SUPERCURATION_MESSAGES.fetchFailed }),
    /** Collections the viewer may add links to (own + collaborating), for 'Add to Supercurations'. */
    mySupercurationChoices: (signal?: AbortSignal) =>
      call('supercurationChoices', { signal, fallback: SUPERCURATION_MESSAGES.fetchFailed }),

    /** A collection's resources (links hidden from the main feed included), 10 a page. */
    listResources: (id: string, query: ResourceListQuery = {}, signal?: AbortSignal) =>
      call('listResources', { params: { id }, query, signal, fallback: linksFallback(query.cursor) }),
    /** Adds a saved link ({ linkId }) or a new link ({ link }); answers the link as it now is. */
    addResource: (id: string, input: AddResourceInput) =>
      call('addResource', { params: { id }, body: input, fallback: SUPERCURATION_MESSAGES.addResourceFailed }),
    /** Replaces the link's tags in this collection (tag names of its categories). */
    setResourceTags: (id: string, linkId: string, tags: string[]) =>
      call('setResourceTags', { params: { id, linkId }, body: { tags }, fallback: SUPERCURATION_MESSAGES.updateResourceFailed }),
    removeResource: (id: string, linkId: string) =>
      call('removeResource', { params: { id, linkId }, fallback: SUPERCURATION_MESSAGES.removeResourceFailed }),

    /** A new category named 'New Category' with a random palette colour. */
    createTagCategory: (id: string) =>
      call('createTagCategory', { params: { id }, body: {}, fallback: SUPERCURATION_MESSAGES.addTagCategoryFailed }),
    updateTagCategory: (id: string, categoryId: string, input: UpdateTagCategoryInput) =>
      call('updateTagCategory', { params: { id, categoryId }, body: input, fallback: SUPERCURATION_MESSAGES.updateTagCategoryFailed }),
    deleteTagCategory: (id: string, categoryId: string) =>
      call('deleteTagCategory', { params: { id, categoryId }, fallback: SUPERCURATION_MESSAGES.deleteTagCategoryFailed }),
    addTag: (id: string, categoryId: string, name: string) =>
      call('addTag', { params: { id, categoryId }, body: { name }, fallback: SUPERCURATION_MESSAGES.addTagFailed }),
    removeTag: (id: string, categoryId: string, name: string) =>
      call('removeTag', { params: { id, categoryId, name }, fallback: SUPERCURATION_MESSAGES.removeTagFailed }),

    /** Users whose name contains q (from 1 character), without self, the owner and collaborators; at most 10. */
    searchCollaborators: (id: string, q: string, signal?: AbortSignal) =>
      call('searchCollaborators', { params: { id }, query: { q }, signal, fallback: SUPERCURATION_MESSAGES.searchUsersFailed }),
    addCollaborator: (id: string, userId: string) =>
      call('addCollaborator', { params: { id }, body: { userId }, fallback: SUPERCURATION_MESSAGES.addCollaboratorFailed }),
    removeCollaborator: (id: string, userId: string) =>
      call('removeCollaborator', { params: { id, userId }, fallback: SUPERCURATION_MESSAGES.removeCollaboratorFailed }),
    removeFediverseFollower: (id: string, actor: string) =>
      call('removeFediverseFollower', { params: { id }, query: { actor }, fallback: SUPERCURATION_MESSAGES.removeFediverseFollowerFailed }),
    removeMyFediverseFollower: (actor: string) =>
      call('removeMyFediverseFollower', { query: { actor }, fallback: SUPERCURATION_MESSAGES.removeFediverseFollowerFailed }),
    /** Public collections only; the answer is the same whether or not the address was already subscribed. */
    subscribeByEmail: (id: string, email: string) =>
      call('subscribeByEmail', { params: { id }, body: { email }, fallback: SUBSCRIPTION_MESSAGES.subscribeFailed }),
    /** Follows someone else's public collection; idempotent. */
    followSupercuration: (id: string) =>
      call('followSupercuration', { params: { id }, body: {}, fallback: SUPERCURATION_MESSAGES.followFailed }),
    unfollowSupercuration: (id: string) =>
      call('unfollowSupercuration', { params: { id }, fallback: SUPERCURATION_MESSAGES.unfollowFailed }),

    listTopics: () => call('listTopics', { fallback: LINK_MESSAGES.loadTopicsFailed }),
    createTopic: (input: TopicInput) => call('createTopic', { body: input, fallback: LINK_MESSAGES.addTopicFailed }),
    updateTopic: (id: string, input: Partial<TopicInput>) =>
      call('updateTopic', { params: { id }, body: input, fallback: LINK_MESSAGES.updateTopicFailed }),
    deleteTopic: (id: string) => call('deleteTopic', { params: { id }, fallback: LINK_MESSAGES.deleteTopicFailed }),
  };
}

/** The first page's message, or the next pages'. */
const linksFallback = (cursor: string | undefined) => (cursor ? LINK_MESSAGES.fetchMoreLinksFailed : LINK_MESSAGES.fetchLinksFailed);

/** `?a=1&b=2` from the defined, non-empty values; '' when there are none. */
function queryString(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
