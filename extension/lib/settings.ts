import { isHttpUrl } from '../../shared/domain/url';
import { browser } from './browser';

/** Where the extension looks for its server until the user sets another one (ARCHITECTURE "Running"). */
export const DEFAULT_SERVER_URL = 'http://localhost:3000';
export const SERVER_URL_INVALID = 'Enter the address of your Supercurate server, starting with http:// or https://';

/** The signed-in user last seen, to tell "your session expired" from "never signed in". */
export interface RememberedAccount {
  id: string;
  name: string;
  email: string;
}

interface Stored {
  serverUrl?: unknown;
  account?: unknown;
}

/**
 * The server URL as typed in Options: an http(s) URL without credentials, query or fragment,
 * without a trailing slash (`https://curate.example.com`, `http://localhost:3000`); null otherwise.
 */
export function parseServerUrl(input: string): string | null {
  const value = input.trim();
  if (!isHttpUrl(value)) return null;
  const url = new URL(value);
  if (url.username || url.password) return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The host permission the extension asks for to talk to the server: its scheme and host, any port
 * (match patterns cannot name a port in Firefox; without one they match every port).
 */
export function serverPermissionPattern(serverUrl: string): string {
  const url = new URL(serverUrl);
  return `${url.protocol}//${url.hostname}/*`;
}

export async function loadSettings(): Promise<{ serverUrl: string; account: RememberedAccount | null }> {
  const stored = (await browser.storage.local.get(['serverUrl', 'account'])) as Stored;
  const serverUrl = (typeof stored.serverUrl === 'string' && parseServerUrl(stored.serverUrl)) || DEFAULT_SERVER_URL;
  const account = isAccount(stored.account) ? stored.account : null;
  return { serverUrl, account };
}

export async function saveServerUrl(serverUrl: string): Promise<void> {
  // Another server means another account: forget the one we knew.
  await browser.storage.local.set({ serverUrl });
  await browser.storage.local.remove('account');
}

export async function rememberAccount(account: RememberedAccount | null): Promise<void> {
  if (account) await browser.storage.local.set({ account: { id: account.id, name: account.name, email: account.email } });
  else await browser.storage.local.remove('account');
}

export function hasServerPermission(serverUrl: string): Promise<boolean> {
  return browser.permissions.contains({ origins: [serverPermissionPattern(serverUrl)] });
}

function isAccount(value: unknown): value is RememberedAccount {
  const v = value as RememberedAccount | null;
  return !!v && typeof v.id === 'string' && typeof v.name === 'string' && typeof v.email === 'string';
}
