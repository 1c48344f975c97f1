import { ApiError, createApiClient } from '../../shared/api/client';

/**
 * fetch that retries once on a stale keep-alive socket. Tests restart servers inside this
 * process, and Node's fetch may reuse a pooled socket the old server closed (the request then
 * never reached a server), which a browser would silently retry too.
 */
export const http: typeof fetch = async (input, init) => {
  try {
    return await fetch(input, init);
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code !== 'UND_ERR_SOCKET' || cause.message !== 'other side closed') throw err;
    return fetch(input, init);
  }
};

/**
 * A browser-like client of a test server: keeps its session cookie and sends the Origin a
 * page of that server would send. Uses the same API client as the web app. `onResponse` sees
 * every response (e.g. a load balancer's headers).
 */
export function testClient(baseUrl: string, origin = baseUrl, onResponse?: (res: Response) => void) {
  const cookies = new Map<string, string>();
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const fetchImpl: typeof fetch = async (input, init = {}) => {
    const headers = new Headers(init.headers);
    if (cookies.size > 0) headers.set('cookie', cookieHeader());
    headers.set('origin', origin);
    const res = await http(input, { ...init, headers });
    onResponse?.(res);
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) cookies.delete(name);
      else cookies.set(name, value);
    }
    return res;
  };
  return { api: createApiClient({ baseUrl, fetchImpl }), fetch: fetchImpl, cookieHeader };
}

let counter = 0;
/** A unique, valid registration. */
export function newUser(name = 'Test User') {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return { name, email: `user-${id}@example.com`, password: 'correct-horse-9' };
}

/** Registers a fresh user and returns a signed-in client with their profile. */
export async function signedInUser(baseUrl: string, name?: string) {
  const client = testClient(baseUrl);
  const input = newUser(name);
  await client.api.signUp(input);
  const me = await client.api.me();
  if (!me) throw new Error('sign-up did not start a session');
  return { ...client, input, me };
}

/** A second signed-in session of the same account (another browser). */
export async function secondSession(baseUrl: string, input: { email: string; password: string }) {
  const other = testClient(baseUrl);
  await other.api.signIn(input);
  return other;
}

/** The session token of a client's cookie (Better Auth signs it: `token.signature`), as list-sessions names it. */
export const sessionToken = (client: { cookieHeader(): string }) =>
  decodeURIComponent(/better-auth\.session_token=([^;]+)/.exec(client.cookieHeader())?.[1] ?? '').split('.')[0] ?? '';

/** The ApiError a call fails with; throws if it succeeds or fails otherwise. */
export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`);
  return err;
}
