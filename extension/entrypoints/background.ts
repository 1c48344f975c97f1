import { defineBackground } from 'wxt/utils/define-background';
import type { SupercurationChoice } from '../../shared/domain/supercurations';
import { serverApi } from '../lib/api';
import { createBadge } from '../lib/badge';
import { type Browser, browser } from '../lib/browser';
import { type MenuClick, type MenuItem, type MenuResult, type MenuTab, buildMenu, handleMenuClick, loadMenuState } from '../lib/menus';
import { isBackgroundMessage } from '../lib/messages';
import { captureTab } from '../lib/pages';
import { hasServerPermission, loadSettings } from '../lib/settings';

/** The menu is rebuilt at least this often while the user switches tabs (collections change on the web too). */
const MENU_MAX_AGE_MS = 10 * 60_000;

/**
 * The service worker (an event page in Firefox): the "Add to supercuration" context menu, the
 * toolbar badge of pages already shared, and the messages of the popup and options page. It keeps
 * nothing that matters in memory: it may be stopped between any two events.
 */
export default defineBackground(() => {
  let choices: SupercurationChoice[] = [];
  let menuItems: MenuItem[] = [];
  let menuBuiltAt = 0;
  let menuQueue: Promise<void> = Promise.resolve();
  let lastNotification: { title: string; message: string } | null = null;

  async function client() {
    const { serverUrl } = await loadSettings();
    return (await hasServerPermission(serverUrl)) ? serverApi(serverUrl) : null;
  }
  const badge = createBadge(client);

  async function buildMenus(): Promise<void> {
    const { serverUrl } = await loadSettings();
    const state = await loadMenuState(await hasServerPermission(serverUrl), () => serverApi(serverUrl).mySupercurationChoices());
    choices = state.kind === 'ready' ? state.choices : [];
    menuItems = buildMenu(state);
    menuBuiltAt = Date.now();
    await browser.contextMenus.removeAll();
    for (const item of menuItems) {
      const [first = 'page', ...rest] = item.contexts;
      await new Promise<void>((resolve) => {
        browser.contextMenus.create({ ...item, contexts: [first, ...rest] }, () => {
          void browser.runtime.lastError;
          resolve();
        });
      });
    }
    await browser.storage.session?.set({ menuBuiltAt, choices }).catch(() => {});
  }

  /** One rebuild at a time (removeAll + create must not interleave). */
  function refreshMenus(): Promise<void> {
    menuQueue = menuQueue.then(buildMenus, buildMenus).catch(() => {});
    return menuQueue;
  }

  async function notify(notification: { title: string; message: string }): Promise<void> {
    lastNotification = notification;
    try {
      await browser.notifications.create({
        type: 'basic',
        iconUrl: browser.runtime.getURL('/icon/128.png'),
        title: notification.title,
        message: notification.message,
      });
    } catch {
      // Notifications turned off for the browser: the result is still in the menu's state.
    }
  }

  async function clickMenu(info: MenuClick, tab: MenuTab | undefined): Promise<MenuResult | null> {
    const { serverUrl } = await loadSettings();
    if (choices.length === 0) {
      const stored = (await browser.storage.session?.get('choices').catch(() => ({}))) as { choices?: SupercurationChoice[] } | undefined;
      choices = stored?.choices ?? [];
    }
    return handleMenuClick(info, tab, {
      serverUrl,
      api: serverApi(serverUrl),
      choices,
      capture: captureTab,
      notify,
      markSaved: (tabId, urls, linkId) => badge.saved(tabId, urls, linkId),
      refreshMenu: refreshMenus,
      openSignIn: async (tabId) => {
        await browser.tabs.create({ url: browser.runtime.getURL(`/popup.html${tabId === undefined ? '' : `?tabId=${tabId}`}`) });
      },
      openOptions: () => browser.runtime.openOptionsPage(),
      openServer: async (path) => {
        await browser.tabs.create({ url: `${serverUrl}${path}` });
      },
    });
  }

  async function clearBadges(): Promise<void> {
    const tabs = (await browser.tabs.query({})).filter((tab) => tab.id !== undefined);
    await badge.forget(tabs.map((tab) => tab.id as number));
    await Promise.all(tabs.map((tab) => badge.refresh(tab.id as number, tab.url)));
  }

  browser.runtime.onInstalled.addListener((details: Browser.runtime.InstalledDetails) => {
    void refreshMenus();
    // First run: say where the server is (the e2e tests set it themselves).
    if (details.reason === 'install' && import.meta.env.MODE !== 'e2e') void browser.runtime.openOptionsPage();
  });
  browser.runtime.onStartup.addListener(() => void refreshMenus());
  browser.permissions.onAdded.addListener(() => void refreshMenus());
  browser.permissions.onRemoved.addListener(() => void refreshMenus());
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && 'serverUrl' in changes) {
      void refreshMenus();
      void clearBadges();
    }
  });

  browser.contextMenus.onClicked.addListener((info, tab) => {
    void clickMenu(info, tab);
  });

  browser.runtime.onMessage.addListener((message: unknown, sender: Browser.runtime.MessageSender) => {
    if (sender.id !== browser.runtime.id || !isBackgroundMessage(message)) return;
    if (message.type === 'session-changed') {
      void refreshMenus();
      void clearBadges();
    } else {
      void badge.saved(message.tabId, message.urls, message.linkId);
    }
  });

  browser.tabs.onUpdated.addListener((tabId, change, tab) => {
    if (change.url || change.status === 'complete') void badge.refresh(tabId, tab.url);
  });
  browser.tabs.onActivated.addListener(({ tabId }) => {
    void browser.tabs
      .get(tabId)
      .then((tab) => badge.refresh(tabId, tab.url))
      .catch(() => {});
    if (Date.now() - menuBuiltAt > MENU_MAX_AGE_MS) void refreshMenus();
  });

  // A restarted worker rebuilds nothing unless this browser session never had the menu.
  void (async () => {
    const stored = (await browser.storage.session?.get(['menuBuiltAt', 'choices']).catch(() => ({}))) as
      | { menuBuiltAt?: number; choices?: SupercurationChoice[] }
      | undefined;
    if (stored?.menuBuiltAt) {
      menuBuiltAt = stored.menuBuiltAt;
      choices = stored.choices ?? [];
    } else {
      await refreshMenus();
    }
  })();

  if (import.meta.env.MODE === 'e2e') {
    // The end-to-end tests drive what Playwright can't click: the browser's own context menu.
    Object.assign(globalThis, {
      supercurateTest: {
        clickMenu,
        refreshMenus,
        menuItems: () => menuItems,
        lastNotification: () => lastNotification,
        badgeText: (tabId: number) => browser.action.getBadgeText({ tabId }),
      },
    });
  }
});
