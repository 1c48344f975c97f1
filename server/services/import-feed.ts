import { BOOKMARKS_MAX_BYTES, BOOKMARKS_MAX_COUNT, FEED_FETCH_TIMEOUT_MS, FEED_IMPORT_MESSAGES, feedStatusText } from '../../shared/domain';
import { badRequest, fileTooLarge } from '../errors';
import { anyAddress, publicOnly } from '../preview/address-policy';
import { decodeDocument } from '../preview/metadata';
import { PREVIEW_MAX_REDIRECTS, userAgent } from '../preview/service';
import { FetchRefusedError, type Resolver, safeFetch } from '../preview/safe-fetch';
import { type FoundBookmark, type ParsedBookmark, bookmarkSink, folderTree, parseSavedDate } from './bookmark-file';
import { eventLoopTurns } from './event-loop-turns';
import { htmlTagReader } from './html-tag-reader';
import { PARSE_SLICE } from './import-slices';

/**
 * "Import a public collection by its RSS feed URL": the feed fetched through the SSRF-guarded
 * fetcher, then read as bookmarks for the file import's pipeline: RSS 2.0, RSS 1.0 (RDF) and
 * Atom, all in one folder titled by the feed (its host when it has no title).
 */

export interface FeedFetchOptions {
  /** PREVIEW_ALLOW_PRIVATE (tests only): loopback and private addresses may be fetched. */
  allowPrivate: boolean;
  publicUrl: string;
  resolve?: Resolver;
}

export interface FetchedFeed {
  /** Where the feed was, after redirects: relative item links resolve against it. */
  url: URL;
  body: Buffer;
  contentType: string;
}

/** GETs a feed: 400 for a refused address, an unreachable feed or a non-2xx answer; 413 beyond BOOKMARKS_MAX_BYTES. */
export async function fetchFeed(url: string, options: FeedFetchOptions): Promise<FetchedFeed> {
  let page;
  try {
    page = await safeFetch(url, {
      policy: options.allowPrivate ? anyAddress : publicOnly,
      resolve: options.resolve,
      timeoutMs: FEED_FETCH_TIMEOUT_MS,
      // One byte more than allowed tells a feed that is too large from one that is exactly as large.
      maxBytes: BOOKMARKS_MAX_BYTES + 1,
      maxRedirects: PREVIEW_MAX_REDIRECTS,
      headers: {
        'user-agent': userAgent(options.publicUrl),
        accept: 'application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.1',
      },
    });
  } catch (err) {
    if (err instanceof FetchRefusedError) throw badRequest(FEED_IMPORT_MESSAGES.refused, 'FEED_REFUSED');
    throw badRequest(FEED_IMPORT_MESSAGES.unreachable, 'FEED_UNREACHABLE');
  }
  if (page.status < 200 || page.status >= 300) throw badRequest(feedStatusText(page.status), 'FEED_UNREACHABLE');
  if (page.body.length > BOOKMARKS_MAX_BYTES) throw fileTooLarge(FEED_IMPORT_MESSAGES.tooLarge);
  if (page.truncated) throw badRequest(FEED_IMPORT_MESSAGES.unreachable, 'FEED_UNREACHABLE');
  return { url: page.url, body: page.body, contentType: page.contentType };
}

/** The root elements of the feeds we read. */
const FEED_ROOTS = new Set(['rss', 'rdf:rdf', 'feed']);
/** An item of RSS (and RDF), an entry of Atom. */
const ITEMS = new Set(['item', 'entry']);

/** What an item's child elements give. Descriptions may be HTML: their text is kept. */
type Field = 'title' | 'link' | 'guid' | 'description' | 'content' | 'published' | 'updated' | 'category';
const ITEM_FIELDS: Readonly<Record<string, Field>> = {
  title: 'title',
  link: 'link',
  guid: 'guid',
  id: 'guid',
  description: 'description',
  summary: 'description',
  'content:encoded': 'content',
  content: 'content',
  pubdate: 'published',
  published: 'published',
  'dc:date': 'published',
  updated: 'updated',
  category: 'category',
  'dc:subject': 'category',
};
/** Feeds keep their items within a few levels: deeper elements are neither items nor fields. */
const TRACKED_DEPTH = 8;
/** Characters of one field's text kept (a description is cut far shorter anyway). */
const FIELD_MAX_CHARS = 64 * 1024;

interface Capture {
  field: Field | 'feedTitle' | 'feedDescription';
  depth: number;
  html: boolean;
  text: string;
}

interface Draft {
  title: string;
  link: string | null;
  guid: string | null;
  description: string;
  content: string;
  published: string;
  updated: string;
  tags: string[];
}

const newDraft = (): Draft => ({ title: '', link: null, guid: null, description: '', content: '', published: '', updated: '', tags: [] });

/** Elements that break text into words; script and style are not text. */
const BLOCKS = new Set(['p', 'br', 'div', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'tr', 'td', 'th', 'pre', 'hr', 'figcaption']);
const NOT_TEXT = new Set(['script', 'style', 'template']);

/** The text of an HTML fragment (an item's description). */
function htmlText(html: string): string {
  let text = '';
  let hidden = 0;
  const reader = htmlTagReader({
    onopentag(name) {
      if (NOT_TEXT.has(name)) hidden += 1;
      else if (BLOCKS.has(name)) text += ' ';
    },
    onclosetag(name) {
      if (NOT_TEXT.has(name)) hidden = Math.max(0, hidden - 1);
      else if (BLOCKS.has(name)) text += ' ';
    },
    ontext(t) {
      if (hidden === 0) text += t;
    },
  });
  reader.write(html);
  reader.end();
  return text;
}

/** An http(s) address, resolved against `base`, or null. */
function httpUrl(raw: string | null, base: URL): string | null {
  if (!raw?.trim()) return null;
  try {
    const url = new URL(raw.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The base URL within an element with this xml:base (or without one). */
function withBase(raw: string | undefined, base: URL): URL {
  if (!raw) return base;
  try {
    return new URL(raw, base);
  } catch {
    return base;
  }
}

/** Atom's `type` attribute: 'html' and 'xhtml' content is markup. */
const isMarkup = (type: string | undefined) => type === 'html' || type === 'xhtml' || (type?.includes('html') ?? false);

/**
 * Reads a fetched feed, handing each item to `onBookmark` as a bookmark of the feed's folder.
 * 400 when it is not RSS or Atom, has no items, or more than `max`. Linear in the feed's size
 * (htmlTagReader keeps no stack), with turns for other requests between slices.
 */
export async function readFeed(
  feed: FetchedFeed,
  onBookmark: (b: ParsedBookmark) => void,
  max = BOOKMARKS_MAX_COUNT,
): Promise<{ count: number; flattenedFolders: number }> {
  const turn = eventLoopTurns();
  const text = decodeDocument(feed.body, feed.contentType);
  const items: FoundBookmark[] = [];
  let root: string | null = null;
  let depth = 0;
  /** The element open at each depth up to TRACKED_DEPTH, and the xml:base within it. */
  const names: string[] = [];
  const bases: URL[] = [feed.url];
  const baseAt = (d: number) => bases[Math.min(d, TRACKED_DEPTH)] as URL;
  let item: { depth: number; draft: Draft } | null = null;
  let capture: Capture | null = null;
  let feedTitle = '';
  let feedDescription = '';

  const finishItem = (draft: Draft, base: URL) => {
    if (items.length === max) throw badRequest(FEED_IMPORT_MESSAGES.tooMany, 'TOO_MANY_BOOKMARKS');
    const rawDate = draft.published || draft.updated;
    items.push({
      href: httpUrl(draft.link, base) ?? httpUrl(draft.guid, base) ?? '',
      title: draft.title,
      description: draft.description || draft.content,
      addDate: rawDate ? parseSavedDate(rawDate) : null,
      tags: draft.tags,
      folder: null,
    });
  };

  const reader = htmlTagReader(
    {
      onopentag(name, attrs) {
        depth += 1;
        if (depth === 1) {
          if (!FEED_ROOTS.has(name)) throw badRequest(FEED_IMPORT_MESSAGES.notAFeed, 'NOT_A_FEED');
          root = name;
        }
        if (depth > TRACKED_DEPTH) return;
        names[depth - 1] = name;
        bases[depth] = withBase(attrs['xml:base'], baseAt(depth - 1));
        if (capture) return;
        if (item === null) {
          // The feed's own title and description: children of <channel> (RSS, RDF) or of Atom's <feed>.
          const ofFeed = names[depth - 2] === 'channel' || (depth === 2 && root === 'feed');
          if (ITEMS.has(name)) item = { depth, draft: newDraft() };
          else if (ofFeed && name === 'title' && !feedTitle) capture = { field: 'feedTitle', depth, html: isMarkup(attrs.type), text: '' };
          else if (ofFeed && (name === 'description' || name === 'subtitle')) {
            capture = { field: 'feedDescription', depth, html: name === 'description' || isMarkup(attrs.type), text: '' };
          }
          return;
        }
        if (depth !== item.depth + 1) return;
        const field = ITEM_FIELDS[name];
        if (field === undefined) return;
        const draft = item.draft;
        if (field === 'link' && root === 'feed') {
          // Atom: <link href rel="alternate"> (rel absent means alternate); the first one counts.
          const rel = (attrs.rel ?? 'alternate').trim().toLowerCase();
          if (rel === 'alternate' && draft.link === null && attrs.href) draft.link = httpUrl(attrs.href, baseAt(depth));
          return;
        }
        if (field === 'category' && attrs.term !== undefined) {
          draft.tags.push(attrs.label || attrs.term);
          return;
        }
        if (field === 'guid' && attrs.ispermalink?.trim().toLowerCase() === 'false') return;
        // RSS descriptions are HTML as a rule; Atom says so in `type` (absent: text).
        const html = root === 'feed' ? isMarkup(attrs.type) : field === 'description' || field === 'content';
        capture = { field, depth, html, text: '' };
      },
      ontext(t) {
        if (capture && capture.text.length < FIELD_MAX_CHARS) capture.text += t;
      },
      onclosetag() {
        const closing = depth;
        depth = Math.max(0, depth - 1);
        if (capture && capture.depth === closing) {
          const value = capture.html ? htmlText(capture.text) : capture.text;
          const field = capture.field;
          capture = null;
          if (field === 'feedTitle') feedTitle = value;
          else if (field === 'feedDescription') feedDescription ||= value;
          else if (item) {
            const draft = item.draft;
            if (field === 'category') draft.tags.push(value);
            else if (field === 'link') draft.link ??= value;
            else if (field === 'guid') draft.guid ??= value;
            else if (!draft[field]) draft[field] = value;
          }
          return;
        }
        if (item && item.depth === closing) {
          finishItem(item.draft, baseAt(closing));
          item = null;
        }
      },
    },
    { xml: true },
  );
  for (let at = 0; at < text.length; at += PARSE_SLICE) {
    await turn();
    reader.write(text.slice(at, at + PARSE_SLICE));
  }
  reader.end();
  if (root === null) throw badRequest(FEED_IMPORT_MESSAGES.notAFeed, 'NOT_A_FEED');
  if (items.length === 0) throw badRequest(FEED_IMPORT_MESSAGES.noItems, 'NO_BOOKMARKS');

  const folders = folderTree();
  const folder = folders.of([feedTitle.trim() || feed.url.hostname], feedDescription);
  const sink = bookmarkSink(onBookmark, max);
  for (const found of items) {
    await turn();
    sink.add({ ...found, folder });
  }
  return { count: sink.count, flattenedFolders: folders.flattenedFolders };
}
