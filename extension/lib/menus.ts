import { ApiError } from '../../shared/api/client';
import type { Link, LinkPreview } from '../../shared/domain/links';
import type { AddResourceInput, SupercurationChoice } from '../../shared/domain/supercurations';
import { isSessionLost, messageOf } from './api';
import type { PageCapture } from './capture';
import { whyNotShareable } from './pages';
import { type ShareDraft, draftFromCapture, draftFromPreview, linkInputOf } from './share';
import { SUPERCURATION_MESSAGES } from '../../shared/domain/messages';

export const ROOT_MENU_ID = 'supercurate';
const ADD_PREFIX = 'supercurate-add:';
export const MENU_IDS = {
  signIn: 'supercurate-sign-in',
  options: 'supercurate-options',
  create: 'supercurate-new',
  status: 'supercurate-status',
} as const;
export const MENU_CONTEXTS = ['page', 'link'] as const;
/** More collections than this go to 'More in Supercurate…' (a menu is not a list view). */
export const MENU_MAX_COLLECTIONS = 30;

/** What the menu can offer, from the server's answer. */
export type MenuState =
  | { kind: 'no-permission' }
  | { kind: 'unreachable' }
  | { kind: 'signed-out' }
  /** The server has no supercurations API (404): an older server. */
  | { kind: 'unavailable' }
  | { kind: 'ready'; choices: SupercurationChoice[] };

export interface MenuItem {
  id: string;
  title: string;
  parentId?: string;
  type?: 'normal' | 'separator';
  enabled?: boolean;
  contexts: Array<(typeof MENU_CONTEXTS)[number]>;
}

export async function loadMenuState(
  hasPermission: boolean,
  choices: () => Promise<SupercurationChoice[]>,
): Promise<MenuState> {
  if (!hasPermission) return { kind: 'no-permission' };
  try {
    return { kind: 'ready', choices: await choices() };
  } catch (err) {
    if (isSessionLost(err)) return { kind: 'signed-out' };
    if (err instanceof ApiError && err.status === 404) return { kind: 'unavailable' };
    return { kind: 'unreachable' };
  }
}

/**
 * "Add to supercuration" on pages and links: a submenu of the user's own collections, then those
 * they collaborate on; or what to do first (sign in, allow the server, ...).
 */
export function buildMenu(state: MenuState): MenuItem[] {
  const contexts = [...MENU_CONTEXTS];
  const child = (id: string, title: string, enabled = true): MenuItem => ({ id, title, parentId: ROOT_MENU_ID, enabled, contexts });
  const items: MenuItem[] = [{ id: ROOT_MENU_ID, title: 'Add to supercuration', contexts }];
  switch (state.kind) {
    case 'no-permission':
      items.push(child(MENU_IDS.options, 'Connect to your Supercurate server…'));
      break;
    case 'unreachable':
      items.push(child(MENU_IDS.status, 'Cannot reach your Supercurate server', false));
      items.push(child(MENU_IDS.options, 'Options…'));
      break;
    case 'signed-out':
      items.push(child(MENU_IDS.signIn, 'Sign in to Supercurate…'));
      break;
    case 'unavailable':
      items.push(child(MENU_IDS.status, 'Your server has no supercurations yet', false));
      break;
    case 'ready': {
      const own = state.choices.filter((c) => c.isOwner);
      const shared = state.choices.filter((c) => !c.isOwner);
      const shown = [...own, ...shared].slice(0, MENU_MAX_COLLECTIONS);
      if (shown.length === 0) items.push(child(MENU_IDS.status, 'No supercurations yet', false));
      shown.forEach((c, i) => {
        if (i === own.length && i > 0) items.push({ ...child(`${MENU_IDS.status}-sep`, ''), type: 'separator' });
        items.push(child(`${ADD_PREFIX}${c.id}`, c.isOwner ? c.title : `${c.title} (collaborator)`));
      });
      items.push({ ...child(`${MENU_IDS.status}-sep-end`, ''), type: 'separator' });
      items.push(child(MENU_IDS.create, state.choices.length > shown.length ? 'More in Supercurate…' : 'New supercuration…'));
      break;
    }
  }
  return items;
}

/** The collection id of an "add" menu item, or null for the others. */
export function collectionOfMenuItem(menuItemId: string | number): string | null {
  const id = String(menuItemId);
  return id.startsWith(ADD_PREFIX) ? id.slice(ADD_PREFIX.length) : null;
}

export interface MenuClick {
  menuItemId: string | number;
  pageUrl?: string;
  linkUrl?: string;
  /** Firefox, and Chrome since 2024: the text of the clicked link. */
  linkText?: string;
}

export interface MenuTab {
  id?: number;
  url?: string;
}

export interface MenuDeps {
  serverUrl: string;
  api: {
    addResource(id: string, input: AddResourceInput): Promise<Link>;
    preview(url: string): Promise<LinkPreview>;
  };
  /** The collections the menu was built from (for the notification's wording). */
  choices: SupercurationChoice[];
  capture(tabId: number): Promise<PageCapture | null>;
  notify(notification: { title: string; message: string }): Promise<void>;
  /** The tab now shows a page the user shared. */
  markSaved(tabId: number, urls: string[], linkId: string): Promise<void>;
  /** The menu lists a collection that's gone, or the session ended: rebuild it. */
  refreshMenu(): Promise<void>;
  openSignIn(tabId: number | undefined): Promise<void>;
  openOptions(): Promise<void>;
  openServer(path: string): Promise<void>;
}

export interface MenuResult {
  ok: boolean;
  title: string;
  message: string;
  link?: Link;
}

/**
 * A click on the menu. "Add" items add the page (read from its DOM, like the popup) or the
 * right-clicked link (previewed by the server) to that collection — reusing the user's own link
 * with the same URL — and confirm with a notification; failures show the server's text (SPEC §8,
 * e.g. 'This link has already been added to this supercuration').
 */
export async function handleMenuClick(info: MenuClick, tab: MenuTab | undefined, deps: MenuDeps): Promise<MenuResult | null> {
  const id = String(info.menuItemId);
  if (id === MENU_IDS.signIn) await deps.openSignIn(tab?.id);
  else if (id === MENU_IDS.options) await deps.openOptions();
  else if (id === MENU_IDS.create) await deps.openServer('/supercurations');
  const collectionId = collectionOfMenuItem(id);
  if (!collectionId) return null;

  const collection = deps.choices.find((c) => c.id === collectionId)?.title ?? 'your supercuration';
  const result = await add(collectionId, collection, info, tab, deps);
  await deps.notify({ title: result.title, message: result.message });
  return result;
}

async function add(collectionId: string, collection: string, info: MenuClick, tab: MenuTab | undefined, deps: MenuDeps): Promise<MenuResult> {
  const failed = `Could not add to ${collection}`;
  const isLink = Boolean(info.linkUrl);
  const url = info.linkUrl || info.pageUrl || tab?.url;
  const refused = whyNotShareable(url);
  if (refused || !url) return { ok: false, title: failed, message: refused ?? '' };

  let draft: ShareDraft | null = null;
  if (!isLink && tab?.id !== undefined) {
    const capture = await deps.capture(tab.id);
    if (capture && !capture.empty) draft = draftFromCapture(capture);
  }
  if (!draft) {
    const preview = await deps.api.preview(url).catch(() => null);
    draft = draftFromPreview(url, preview);
    if (!preview && isLink && info.linkText?.trim()) draft.title = info.linkText.trim();
  }

  try {
    const link = await deps.api.addResource(collectionId, { link: linkInputOf(draft) });
    if (!isLink && tab?.id !== undefined) await deps.markSaved(tab.id, [url, draft.url], link.id);
    return { ok: true, title: `Added to ${collection}`, message: link.title, link };
  } catch (err) {
    const gone = err instanceof ApiError && err.status === 404 && err.message === SUPERCURATION_MESSAGES.notFound;
    if (gone || isSessionLost(err)) await deps.refreshMenu();
    return { ok: false, title: failed, message: messageOf(err, deps.serverUrl, SUPERCURATION_MESSAGES.addResourceFailed) };
  }
}
