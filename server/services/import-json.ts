import { BOOKMARK_FOLDER_MAX_DEPTH, BOOKMARK_MESSAGES, JSON_MAX_DEPTH } from '../../shared/domain';
import { badRequest } from '../errors';
import { type BookmarkFolder, type BookmarkSink, type FolderTree, type FoundBookmark, parseSavedDate } from './bookmark-file';
import type { Turn } from './import-slices';
import { jsonNestedDeeperThan } from './json-depth';

/**
 * The JSON exports, told apart by their shape: Omnivore (an array of saved items, the
 * `metadata_*.json` entries of its zip), Karakeep (`{ bookmarks, lists }`) and Linkwarden
 * (`{ collections: [{ links }] }`). Only the fields read are looked at, each checked for its type.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' ? v : '');
const items = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** Tags as names, or objects with a name (Linkwarden's `{ name }`, Omnivore's labels). */
const names = (v: unknown) => items(v).map((t) => (isObject(t) ? text(t.name) : text(t)));

function bookmark(title: unknown, url: unknown, description: unknown, tags: unknown, saved: unknown, folder: BookmarkFolder | null): FoundBookmark {
  return { href: text(url), title: text(title), description: text(description), tags: names(tags), addDate: parseSavedDate(saved), folder };
}

/** Karakeep's manual lists, each as the folder named by its path of parent lists. */
function karakeepLists(lists: unknown, folders: FolderTree): Map<string, BookmarkFolder | null> {
  const byId = new Map<string, Json>();
  for (const l of items(lists)) if (isObject(l) && text(l.id)) byId.set(text(l.id), l);
  const out = new Map<string, BookmarkFolder | null>();
  for (const [id, list] of byId) {
    if (list.type !== undefined && list.type !== 'manual') continue;
    const path: string[] = [];
    // Walks up at most as deep as folders nest (a cycle of parents ends there too).
    for (let l: Json | undefined = list; l && path.length <= BOOKMARK_FOLDER_MAX_DEPTH; l = byId.get(text(l.parentId))) path.push(text(l.name));
    out.set(id, folders.of(path.reverse()));
  }
  return out;
}

async function readKarakeep(data: Json, sink: BookmarkSink, folders: FolderTree, turn: Turn) {
  const lists = karakeepLists(data.lists, folders);
  for (const b of items(data.bookmarks)) {
    await turn();
    if (!isObject(b)) continue;
    const content = isObject(b.content) ? b.content : {};
    const url = content.type === 'link' ? content.url : '';
    const inLists = items(b.lists).flatMap((l) => {
      const folder = lists.get(isObject(l) ? text(l.id) : text(l));
      return folder ? [folder] : [];
    });
    // A bookmark in several lists joins each of their collections.
    for (const folder of inLists.length > 0 ? inLists : [null]) sink.add(bookmark(b.title, url, b.note, b.tags, b.createdAt, folder));
  }
}

async function readLinkwarden(data: Json, sink: BookmarkSink, folders: FolderTree, turn: Turn) {
  for (const c of items(data.collections)) {
    if (!isObject(c)) continue;
    const folder = folders.of([text(c.name)], text(c.description));
    for (const l of items(c.links)) {
      await turn();
      if (isObject(l)) sink.add(bookmark(l.name, l.url, l.description, l.tags, l.createdAt, folder));
    }
  }
}

async function readOmnivore(data: unknown[], sink: BookmarkSink, turn: Turn) {
  for (const item of data) {
    await turn();
    if (isObject(item)) sink.add(bookmark(item.title, item.url, item.description, item.labels, item.savedAt, null));
  }
}

/**
 * Reads a JSON export. Nesting deeper than JSON_MAX_DEPTH is refused before parsing (400), as is
 * text that is no JSON; JSON of no known shape is 400 'none of the formats'.
 */
export async function readJson(source: string, sink: BookmarkSink, folders: FolderTree, turn: Turn): Promise<void> {
  if (jsonNestedDeeperThan(source, JSON_MAX_DEPTH)) throw badRequest(BOOKMARK_MESSAGES.jsonTooDeep, 'JSON_TOO_DEEP');
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch {
    throw badRequest(BOOKMARK_MESSAGES.badJson, 'BAD_JSON');
  }
  if (Array.isArray(data) && data.every((item) => isObject(item) && 'url' in item)) return readOmnivore(data, sink, turn);
  if (isObject(data) && Array.isArray(data.bookmarks)) return readKarakeep(data, sink, folders, turn);
  if (isObject(data) && Array.isArray(data.collections)) return readLinkwarden(data, sink, folders, turn);
  throw badRequest(BOOKMARK_MESSAGES.unknownFormat, 'UNKNOWN_FORMAT');
}
