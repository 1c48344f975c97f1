
import { type ApiClient, isSessionLost } from './api';
import { browser } from './browser';
import { whyNotShareable } from './pages';
import { normalizeUrl } from '../../shared/domain/url';

const SAVED_TEXT = '✓';
const SAVED_COLOR = '#16a34a';
export const DEFAULT_TITLE = 'Share to Supercurate';
export const SAVED_TITLE = 'Already shared to Supercurate: open it to edit the link';
/** Look-ups are remembered a few minutes, so switching tabs doesn't ask the server each time. */
const TTL_MS = 5 * 60_000;

/** The key of a page: its normalised URL without the fragment. */
export function pageKey(url: string): string | null {
  const normalized = normalizeUrl(url);
  return normalized ? normalized.replace(/#.*$/, '') : null;
}

/**
 * The toolbar badge: ✓ on tabs showing a page the user already shared. The background worker
 * knows a tab's address when it may (the server's own pages, pages the extension was used on
 * through activeTab, every page once the optional `tabs` permission is granted).
 */
export function createBadge(api: () => Promise<ApiClient | null>) {
  const known = new Map<string, { linkId: string | null; at: number }>();

  async function show(tabId: number, saved: boolean): Promise<void> {
    try {
      await browser.action.setBadgeText({ tabId, text: saved ? SAVED_TEXT : '' });
      if (saved) await browser.action.setBadgeBackgroundColor({ tabId, color: SAVED_COLOR });
      await browser.action.setTitle({ tabId, title: saved ? SAVED_TITLE : DEFAULT_TITLE });
    } catch {
      // The tab closed meanwhile.
    }
  }

  return {
    /** Looks the tab's page up (or remembers it) and marks the tab. */
    async refresh(tabId: number, url: string | undefined): Promise<void> {
      // Unknown address (no permission to see it): keep what the popup or a menu last said.
      if (!url) return;
      const key = whyNotShareable(url) ? null : pageKey(url);
      if (!key) return show(tabId, false);
      const cached = known.get(key);
      if (cached && Date.now() - cached.at < TTL_MS) return show(tabId, cached.linkId !== null);
      const client = await api();
      if (!client) return show(tabId, false);
      try {
        const link = await client.lookupLink(key);
        known.set(key, { linkId: link?.id ?? null, at: Date.now() });
        await show(tabId, link !== null);
      } catch (err) {
        if (isSessionLost(err)) await show(tabId, false);
        // Unreachable: leave the badge as it is.
      }
    },
    /** The popup or a menu just saved these URLs as this link. */
    async saved(tabId: number | null, urls: string[], linkId: string): Promise<void> {
      for (const url of urls) {
        const key = pageKey(url);
        if (key) known.set(key, { linkId, at: Date.now() });
      }
      if (tabId !== null) await show(tabId, true);
    },
    /** Signed out or another server: nothing is known any more. */
    async forget(tabIds: number[]): Promise<void> {
      known.clear();
      await Promise.all(tabIds.map((tabId) => show(tabId, false)));
    },
  };
}
