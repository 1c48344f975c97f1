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
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
