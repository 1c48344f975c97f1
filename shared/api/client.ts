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
import type { ApiErrorBody, ProfileUpdate, UserProfile } from '../domain/schemas';

/** An API failure carrying the server's user-facing message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
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
      const err = (data ?? {}) as Partial<ApiErrorBody>;
      throw new ApiError(res.status, err.error ?? fallback, err.code);
    }
    return data as T;
  }

  return {
    health: () => request<{ status: string; database: string }>('/health', { fallback: 'Server unavailable' }),

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

    listLinks: (query: LinkListQuery = {}, signal?: AbortSignal) =>
      request<Page<Link>>(`/links${queryString(query)}`, {
        signal,
        fallback: query.cursor ? 'Failed to fetch more links' : 'Failed to fetch links',
      }),
    getLink: (id: string, signal?: AbortSignal) =>
      request<Link>(`/links/${encodeURIComponent(id)}`, { signal, fallback: 'Failed to load link details' }),
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
