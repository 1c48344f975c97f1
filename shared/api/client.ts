import type {
  CreateLinkInput,
  LikeState,
  Link,
  LinkListQuery,
  LinkPreview,
  Page,
  Topic,
  TopicInput,
  UpdateLinkInput,
} from '../domain/links';
import type { BatchShareInput, BatchShareResult, FolderMapping } from '../domain/import';
import { BOOKMARKS_NDJSON, BOOKMARK_MESSAGES, type BookmarkFilePreview, type BookmarkImportSummary, readImportEvents } from '../domain/bookmarks';
import type { ApiErrorBody, ProfileUpdate, UserProfile } from '../domain/schemas';
import type { AccountSession } from '../domain/account';
import type { ApiToken, CreateApiTokenInput, CreatedApiToken } from '../domain/api-tokens';
import type { SubscriberPage, SubscriptionState } from '../domain/subscriptions';
import type {
  AddResourceInput,
  Collaborator,
  CollaboratorCandidate,
  CreateSupercurationInput,
  DirectoryQuery,
  EmailSubscribeResult,
  EmailSubscriberGroup,
  ResourceListQuery,
  Supercuration,
  SupercurationChoice,
  SupercurationListQuery,
  SupercurationSummary,
  TagCategory,
  UpdateSupercurationInput,
  UpdateTagCategoryInput,
} from '../domain/supercurations';
import { ACCOUNT_MESSAGES, API_TOKEN_MESSAGES } from '../domain/messages';

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

export type ApiClient = ReturnType<typeof createApiClient>;

export function createApiClient({ baseUrl = '', fetchImpl = fetch }: ApiClientOptions = {}) {
  async function request<T>(path: string, { method = 'GET', body, signal, fallback }: RequestOptions): Promise<T> {
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
    let res: Response;
    try {
      res = await fetchImpl(`${baseUrl}/api${path}`, {
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

  return {
    health: () =>
      request<{ status: string; database: string; version: string; schema: string | null }>('/health', { fallback: 'Server unavailable' }),

    signUp: (input: { name: string; email: string; password: string }) =>
      request<{ user: { id: string } }>('/auth/sign-up/email', {
        method: 'POST',
        body: input,
        fallback: 'Failed to create account. Please try again.',
      }),
    signIn: (input: { email: string; password: string }) =>
      request<{ user: { id: string } }>('/auth/sign-in/email', {
        method: 'POST',
        body: input,
        fallback: 'Failed to sign in. Please try again.',
      }),
    signOut: () =>
      request<{ success: boolean }>('/auth/sign-out', {
        method: 'POST',
        body: {},
        fallback: 'Failed to sign out. Please try again.',
      }),

    // Account lifecycle (issue 14): Better Auth's endpoints, allow-listed on the server.
    /** Always the same answer, whether or not an account uses the address. */
    requestPasswordReset: (email: string) =>
      request<{ status: boolean }>('/auth/request-password-reset', { method: 'POST', body: { email }, fallback: ACCOUNT_MESSAGES.resetFailed }),
    resetPassword: (token: string, newPassword: string) =>
      request<{ status: boolean }>('/auth/reset-password', { method: 'POST', body: { token, newPassword }, fallback: ACCOUNT_MESSAGES.resetFailed }),
    /** Ends the other sessions; this one stays. */
    changePassword: (currentPassword: string, newPassword: string) =>
      request<{ token: string | null }>('/auth/change-password', {
        method: 'POST',
        body: { currentPassword, newPassword, revokeOtherSessions: true },
        fallback: 'Authentication failed',
      }),
    resendVerification: (email: string) =>
      request<{ status: boolean }>('/auth/send-verification-email', { method: 'POST', body: { email }, fallback: ACCOUNT_MESSAGES.verificationFailed }),
    /** Mails the new address a link; the change takes effect when it is opened. */
    changeEmail: (newEmail: string) =>
      request<{ status: boolean }>('/auth/change-email', { method: 'POST', body: { newEmail }, fallback: ACCOUNT_MESSAGES.emailChangeFailed }),
    listSessions: (signal?: AbortSignal) => request<AccountSession[]>('/auth/list-sessions', { signal, fallback: ACCOUNT_MESSAGES.sessionsFailed }),
    revokeSession: (token: string) =>
      request<{ status: boolean }>('/auth/revoke-session', { method: 'POST', body: { token }, fallback: ACCOUNT_MESSAGES.signOutSessionFailed }),
    revokeOtherSessions: () =>
      request<{ status: boolean }>('/auth/revoke-other-sessions', { method: 'POST', body: {}, fallback: ACCOUNT_MESSAGES.signOutSessionFailed }),

    // Personal access tokens (Settings → API tokens).
    listApiTokens: (signal?: AbortSignal) => request<ApiToken[]>('/me/tokens', { signal, fallback: API_TOKEN_MESSAGES.loadFailed }),
    createApiToken: (input: CreateApiTokenInput) =>
      request<CreatedApiToken>('/me/tokens', { method: 'POST', body: input, fallback: API_TOKEN_MESSAGES.createFailed }),
    revokeApiToken: (id: string) =>
      request<void>(`/me/tokens/${encodeURIComponent(id)}`, { method: 'DELETE', fallback: API_TOKEN_MESSAGES.revokeFailed }),
    /** Deletes the account and everything it holds; `email` is the account's address, typed to confirm. */
    deleteAccount: (password: string, email: string) =>
      request<{ success: boolean }>('/auth/delete-user', { method: 'POST', body: { password, email }, fallback: ACCOUNT_MESSAGES.deleteFailed }),
    /** URL of "Export my data" (a JSON download, cookie-authenticated). */
    accountExportUrl: () => `${baseUrl}/api/me/export`,
    /** URL of the Netscape bookmarks file of my links. */
    bookmarksExportUrl: () => `${baseUrl}/api/export/bookmarks`,

    /** The signed-in user, or null when there is no session. */
    me: async (signal?: AbortSignal): Promise<UserProfile | null> => {
      try {
        return await request<UserProfile>('/me', { signal, fallback: 'Authentication failed' });
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return null;
        throw err;
      }
    },
    getUser: (id: string) =>
      request<UserProfile>(`/users/${encodeURIComponent(id)}`, { fallback: 'Failed to load profile' }),
    updateProfile: (id: string, input: ProfileUpdate) =>
      request<UserProfile>(`/users/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body: input,
        fallback: 'Failed to update profile. Please try again.',
      }),
    uploadAvatar: (id: string, file: Blob) => {
      const form = new FormData();
      form.append('avatar', file);
      return request<UserProfile>(`/users/${encodeURIComponent(id)}/avatar`, {
        method: 'POST',
        body: form,
        fallback: 'Failed to update profile. Please try again.',
      });
    },
    removeAvatar: (id: string) =>
      request<UserProfile>(`/users/${encodeURIComponent(id)}/avatar`, {
        method: 'DELETE',
        fallback: 'Failed to update profile. Please try again.',
      }),

    // Following (issue 5).
    /** Subscribes the signed-in user to a user; idempotent. */
    subscribe: (userId: string) =>
      request<SubscriptionState>(`/users/${encodeURIComponent(userId)}/subscription`, {
        method: 'POST',
        body: {},
        fallback: 'Failed to subscribe',
      }),
    /** Unsubscribes; idempotent. */
    unsubscribe: (userId: string) =>
      request<SubscriptionState>(`/users/${encodeURIComponent(userId)}/subscription`, {
        method: 'DELETE',
        fallback: 'Failed to unsubscribe',
      }),
    /** The signed-in user's own subscribers, newest first, in pages. */
    listSubscribers: (cursor?: string, signal?: AbortSignal) =>
      request<SubscriberPage>(`/me/subscribers${queryString({ cursor })}`, {
        signal,
        fallback: 'Failed to fetch subscriptions',
      }),
    /** The confirmed e-mail subscribers of the signed-in user's own collections, per collection. */
    myEmailSubscribers: (signal?: AbortSignal) =>
      request<EmailSubscriberGroup[]>('/me/email-subscribers', { signal, fallback: 'Failed to fetch subscriptions' }),
    /** URL of the CSV export of the signed-in user's subscribers (a download, cookie-authenticated). */
    subscribersCsvUrl: () => `${baseUrl}/api/me/subscribers.csv`,
    /** URL of a user's RSS feed (not under /api: feed readers fetch it). */
    userFeedUrl: (userId: string) => `${baseUrl}/users/${encodeURIComponent(userId)}/feed.xml`,

    listLinks: (query: LinkListQuery = {}, signal?: AbortSignal) =>
      request<Page<Link>>(`/links${queryString(query)}`, {
        signal,
        fallback: query.cursor ? 'Failed to fetch more links' : 'Failed to fetch links',
      }),
    getLink: (id: string, signal?: AbortSignal) =>
      request<Link>(`/links/${encodeURIComponent(id)}`, { signal, fallback: 'Failed to load link details' }),
    /** The viewer's own link with this URL (normalised as when sharing), or null when they haven't shared it. */
    lookupLink: async (url: string, signal?: AbortSignal): Promise<Link | null> => {
      try {
        return await request<Link>(`/links/lookup${queryString({ url })}`, { signal, fallback: 'Failed to load link details' });
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    createLink: (input: CreateLinkInput) =>
      request<Link>('/links', { method: 'POST', body: input, fallback: 'Failed to share link' }),
    updateLink: (id: string, input: UpdateLinkInput) =>
      request<Link>(`/links/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body: input,
        fallback: 'Failed to update link',
      }),
    deleteLink: (id: string) =>
      request<void>(`/links/${encodeURIComponent(id)}`, { method: 'DELETE', fallback: 'Failed to delete link' }),
    toggleLike: (id: string) =>
      request<LikeState>(`/links/${encodeURIComponent(id)}/like`, {
        method: 'POST',
        body: {},
        fallback: 'Failed to like link',
      }),
    repost: (id: string) =>
      request<Link>(`/links/${encodeURIComponent(id)}/repost`, {
        method: 'POST',
        body: {},
        fallback: 'Failed to repost link',
      }),
    /**
     * Shares up to 100 links at once (POST /api/links/batch), all or none; a refused item fails
     * with its `index` in `ApiError.details`.
     */
    shareLinks: (input: BatchShareInput) =>
      request<BatchShareResult>('/links/batch', { method: 'POST', body: input, fallback: 'Failed to share links' }),
    /** What a bookmarks file holds (its folders and their counts), nothing written. */
    previewBookmarks: (file: Blob, name = 'bookmarks.html') => {
      const form = new FormData();
      form.append('file', file, name);
      return request<BookmarkFilePreview>('/import/bookmarks/preview', {
        method: 'POST',
        body: form,
        fallback: BOOKMARK_MESSAGES.previewFailed,
      });
    },
    /**
     * Imports a bookmarks file (POST /api/import/bookmarks, streamed as NDJSON): `onProgress`
     * gets (done, total) while the links are written; resolves with the summary. A refused file or
     * mapping (4xx, before anything is written) and a failure during the import reject with ApiError.
     */
    importBookmarks: async (
      file: Blob,
      { mapping, name = 'bookmarks.html', onProgress }: { mapping?: FolderMapping; name?: string; onProgress?: (done: number, total: number) => void } = {},
    ): Promise<BookmarkImportSummary> => {
      const form = new FormData();
      if (mapping) form.append('mapping', JSON.stringify(mapping));
      form.append('file', file, name);
      const fallback = BOOKMARK_MESSAGES.importFailed;
      let res: Response;
      try {
        res = await fetchImpl(`${baseUrl}/api/import/bookmarks`, {
          method: 'POST',
          credentials: 'include',
          headers: { accept: BOOKMARKS_NDJSON },
          body: form,
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
    },
    preview: (url: string, signal?: AbortSignal) =>
      request<LinkPreview>(`/preview${queryString({ url })}`, { signal, fallback: 'Failed to fetch link preview' }),
    /** Uploads an image (thumbnail) and returns its URL on our server. */
    uploadImage: (file: Blob) => {
      const form = new FormData();
      form.append('image', file);
      return request<{ url: string }>('/uploads/images', {
        method: 'POST',
        body: form,
        fallback: 'Failed to upload image',
      });
    },

    // Supercurations (issue 4). Ids and slugs are path segments, always encoded.
    /** My Supercurations: own + collaborating, plus others' public ones unless scope is 'mine'. */
    listSupercurations: (query: SupercurationListQuery = {}, signal?: AbortSignal) =>
      request<Page<SupercurationSummary>>(`/supercurations${queryString(query)}`, {
        signal,
        fallback: 'Failed to fetch supercurations',
      }),
    /** /directory: public collections, searched by title and description, filtered by focus; 24 a page. */
    directory: (query: DirectoryQuery = {}, signal?: AbortSignal) =>
      request<Page<SupercurationSummary>>(`/directory${queryString(query)}`, {
        signal,
        fallback: 'Failed to fetch supercurations',
      }),
    getSupercuration: (id: string, signal?: AbortSignal) =>
      request<Supercuration>(`/supercurations/${seg(id)}`, { signal, fallback: 'Failed to load supercuration' }),
    /** The public page's collection; 404 "This supercuration doesn't exist or is private" otherwise. */
    getPublicSupercuration: (slug: string, signal?: AbortSignal) =>
      request<Supercuration>(`/supercurations/public/${seg(slug)}`, {
        signal,
        fallback: 'Failed to load supercuration',
      }),
    createSupercuration: (input: CreateSupercurationInput) =>
      request<Supercuration>('/supercurations', {
        method: 'POST',
        body: input,
        fallback: 'Failed to create supercuration',
      }),
    updateSupercuration: (id: string, input: UpdateSupercurationInput) =>
      request<Supercuration>(`/supercurations/${seg(id)}`, {
        method: 'PATCH',
        body: input,
        fallback: 'Failed to update supercuration',
      }),
    /** Owner only. */
    deleteSupercuration: (id: string) =>
      request<void>(`/supercurations/${seg(id)}`, { method: 'DELETE', fallback: 'Failed to delete supercuration' }),
    /** A user's public collections, newest first, 24 a page (their profile's 'Public Supercurations'). */
    userSupercurations: (userId: string, cursor?: string, signal?: AbortSignal) =>
      request<Page<SupercurationSummary>>(`/users/${seg(userId)}/supercurations${queryString({ cursor })}`, {
        signal,
        fallback: 'Failed to fetch supercurations',
      }),
    /** Collections the viewer may add links to (own + collaborating), for 'Add to Supercurations'. */
    mySupercurationChoices: (signal?: AbortSignal) =>
      request<SupercurationChoice[]>('/supercurations/choices', { signal, fallback: 'Failed to fetch supercurations' }),

    /** A collection's resources (links hidden from the main feed included), 10 a page. */
    listResources: (id: string, query: ResourceListQuery = {}, signal?: AbortSignal) =>
      request<Page<Link>>(`/supercurations/${seg(id)}/resources${queryString(query)}`, {
        signal,
        fallback: query.cursor ? 'Failed to fetch more links' : 'Failed to fetch links',
      }),
    /** Adds a saved link ({ linkId }) or a new link ({ link }); answers the link as it now is. */
    addResource: (id: string, input: AddResourceInput) =>
      request<Link>(`/supercurations/${seg(id)}/resources`, {
        method: 'POST',
        body: input,
        fallback: 'Failed to add resource',
      }),
    /** Replaces the link's tags in this collection (tag names of its categories). */
    setResourceTags: (id: string, linkId: string, tags: string[]) =>
      request<Link>(`/supercurations/${seg(id)}/resources/${seg(linkId)}`, {
        method: 'PUT',
        body: { tags },
        fallback: 'Failed to update resource',
      }),
    removeResource: (id: string, linkId: string) =>
      request<void>(`/supercurations/${seg(id)}/resources/${seg(linkId)}`, {
        method: 'DELETE',
        fallback: 'Failed to remove resource',
      }),

    /** A new category named 'New Category' with a random palette colour. */
    createTagCategory: (id: string) =>
      request<TagCategory>(`/supercurations/${seg(id)}/tag-categories`, {
        method: 'POST',
        body: {},
        fallback: 'Failed to add tag category',
      }),
    updateTagCategory: (id: string, categoryId: string, input: UpdateTagCategoryInput) =>
      request<TagCategory>(`/supercurations/${seg(id)}/tag-categories/${seg(categoryId)}`, {
        method: 'PATCH',
        body: input,
        fallback: 'Failed to update tag category',
      }),
    deleteTagCategory: (id: string, categoryId: string) =>
      request<void>(`/supercurations/${seg(id)}/tag-categories/${seg(categoryId)}`, {
        method: 'DELETE',
        fallback: 'Failed to delete tag category',
      }),
    addTag: (id: string, categoryId: string, name: string) =>
      request<TagCategory>(`/supercurations/${seg(id)}/tag-categories/${seg(categoryId)}/tags`, {
        method: 'POST',
        body: { name },
        fallback: 'Failed to add tag',
      }),
    removeTag: (id: string, categoryId: string, name: string) =>
      request<TagCategory>(`/supercurations/${seg(id)}/tag-categories/${seg(categoryId)}/tags/${seg(name)}`, {
        method: 'DELETE',
        fallback: 'Failed to remove tag',
      }),

    /** Users whose name contains q (from 1 character), without self, the owner and collaborators; at most 10. */
    searchCollaborators: (id: string, q: string, signal?: AbortSignal) =>
      request<CollaboratorCandidate[]>(`/supercurations/${seg(id)}/collaborator-candidates${queryString({ q })}`, {
        signal,
        fallback: 'Failed to search users',
      }),
    addCollaborator: (id: string, userId: string) =>
      request<Collaborator>(`/supercurations/${seg(id)}/collaborators`, {
        method: 'POST',
        body: { userId },
        fallback: 'Failed to add collaborator',
      }),
    removeCollaborator: (id: string, userId: string) =>
      request<void>(`/supercurations/${seg(id)}/collaborators/${seg(userId)}`, {
        method: 'DELETE',
        fallback: 'Failed to remove collaborator',
      }),
    /** Public collections only; the answer is the same whether or not the address was already subscribed. */
    subscribeByEmail: (id: string, email: string) =>
      request<EmailSubscribeResult>(`/supercurations/${seg(id)}/subscribers`, {
        method: 'POST',
        body: { email },
        fallback: 'Failed to subscribe',
      }),

    listTopics: () => request<Topic[]>('/topics', { fallback: 'Failed to load topics' }),
    createTopic: (input: TopicInput) =>
      request<Topic>('/topics', { method: 'POST', body: input, fallback: 'Failed to add topic' }),
    updateTopic: (id: string, input: Partial<TopicInput>) =>
      request<Topic>(`/topics/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body: input,
        fallback: 'Failed to update topic',
      }),
    deleteTopic: (id: string) =>
      request<void>(`/topics/${encodeURIComponent(id)}`, { method: 'DELETE', fallback: 'Failed to delete topic' }),
  };
}

const seg = encodeURIComponent;

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
