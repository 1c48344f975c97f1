import { browser } from './browser';

/** What the popup and the options page tell the background worker. */
export type BackgroundMessage =
  /** Signed in, signed out, or another server: rebuild the menus, forget the badges. */
  | { type: 'session-changed' }
  /** A link was shared or updated from the popup: mark the tab, refresh the menus. */
  | { type: 'link-saved'; tabId: number | null; urls: string[]; linkId: string };

export function isBackgroundMessage(value: unknown): value is BackgroundMessage {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'session-changed' || type === 'link-saved';
}

/** Best effort: the worker may be starting up; it rebuilds its state on its own events too. */
export async function tellBackground(message: BackgroundMessage): Promise<void> {
  try {
    await browser.runtime.sendMessage(message);
  } catch {
    // No listener yet (the worker restarts on the next event).
  }
}
